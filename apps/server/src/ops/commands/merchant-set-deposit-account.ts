import { defineCommand, OpsError } from '../command.ts';
import * as input from '../input.ts';
import { merchantByHost } from '../lookup.ts';
import { currencyOf } from './wallet-money.ts';

export const merchantSetDepositAccount = defineCommand({
  name: 'merchant:set-deposit-account',
  summary: "Set the bank account the merchant's customers transfer to, for one currency (shown on 钱包充值)",
  usage: ['merchant:set-deposit-account --host HOST --currency USD|CNY --bank-name TEXT --account-name TEXT --account-number TEXT [--branch TEXT] [--swift CODE]'],
  description: 'Replaces the receiving account of that currency; customers see it at once with their own reference code.',
  flags: {
    host: { type: 'string', value: 'HOST', description: 'the merchant, by one of its hosts' },
    currency: { type: 'string', value: 'CURRENCY', description: 'USD or CNY' },
    'bank-name': { type: 'string', value: 'TEXT', description: 'the bank, e.g. 招商银行' },
    'account-name': { type: 'string', value: 'TEXT', description: "the account holder's name" },
    'account-number': { type: 'string', value: 'TEXT', description: 'the account number (digits, spaces or dashes)' },
    branch: { type: 'string', value: 'TEXT', description: 'the branch (optional)' },
    swift: { type: 'string', value: 'CODE', description: 'the SWIFT/BIC code (optional), 8 or 11 letters and digits' },
  },
  examples: ['merchant:set-deposit-account --host localhost --currency CNY --bank-name 招商银行 --account-name 蓝鲸科技有限公司 --account-number 6225880212345678 --branch 深圳分行'],
  async run(flags, { services }) {
    const name = 'merchant:set-deposit-account';
    const currency = currencyOf(input.requireFlag(flags.currency, 'currency', name));
    const bankName = input.text(input.requireFlag(flags['bank-name'], 'bank-name', name), 'bank-name', { max: 100 });
    const accountName = input.text(input.requireFlag(flags['account-name'], 'account-name', name), 'account-name', { max: 100 });
    const accountNumber = input.text(input.requireFlag(flags['account-number'], 'account-number', name), 'account-number', { max: 50 });
    if (!/^[0-9A-Za-z][0-9A-Za-z -]*$/.test(accountNumber)) throw new OpsError('--account-number may hold only letters, digits, spaces and dashes');
    const branch = flags.branch === undefined ? null : input.text(flags.branch, 'branch', { max: 100 });
    const swift = flags.swift === undefined ? null : flags.swift.trim().toUpperCase();
    if (swift !== null && !/^[A-Z0-9]{8}([A-Z0-9]{3})?$/.test(swift)) throw new OpsError('--swift must be 8 or 11 letters and digits');
    const merchant = await merchantByHost(services, input.requireFlag(flags.host, 'host', name));
    const row = await services.funding.setDepositAccount(merchant.id, currency, { name: bankName, account_name: accountName, account_number: accountNumber, branch, swift });
    return [
      `The ${currency} receiving account of merchant ${merchant.slug} is now:`,
      `  bank            ${row.bankName}`,
      `  account name    ${row.accountName}`,
      `  account number  ${row.accountNumber}`,
      `  branch          ${row.branch ?? '-'}`,
      `  swift           ${row.swift ?? '-'}`,
    ].join('\n');
  },
});
