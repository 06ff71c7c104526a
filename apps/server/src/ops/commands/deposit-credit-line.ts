import os from 'node:os';
import { REFERENCE_PATTERN } from '@portal/contract/funding';
import { FundingErrorCode } from '@portal/contract/funding-errors';
import { fromMinorUnits } from '@portal/contract/money';
import { AppError } from '../../http/errors.ts';
import { defineCommand, OpsError } from '../command.ts';
import * as input from '../input.ts';
import { accountOf, merchantByHost } from '../lookup.ts';
import { cliActor } from './operator.ts';
import { currencyOf } from './wallet-money.ts';

export const depositCreditLine = defineCommand({
  name: 'deposit:credit-line',
  summary: 'Credit an unmatched bank statement line to the account a person found for it, once',
  usage: ['deposit:credit-line --host HOST --line BANK_TXN_ID --account PHONE|EMAIL|REFERENCE [--currency USD|CNY] [--by NAME]'],
  description:
    "The line (deposit:list shows the unmatched ones) credits the account's wallet as an import would have: the oldest pending notice of that amount, " +
    "or a new top-up, under the line's key bank:<bank_txn_id>, with what the account owes collected, a station message and an e-mail. " +
    'The line is then matched, with who credited it and when. A line credited already, an unknown line, or one of another currency than --currency is refused and nothing moves.',
  flags: {
    host: { type: 'string', value: 'HOST', description: 'the merchant, by one of its hosts' },
    line: { type: 'string', value: 'BANK_TXN_ID', description: "the statement line, by the bank's id of it" },
    account: { type: 'string', value: 'PHONE|EMAIL|REFERENCE', description: 'the account to credit: its phone, e-mail or reference code (TP…)' },
    currency: { type: 'string', value: 'CURRENCY', description: 'the currency the line must be in (a check; the line says its own)' },
    by: { type: 'string', value: 'NAME', description: 'who credits it, as the line records (the system user by default)' },
  },
  examples: ['deposit:credit-line --host localhost --line 20260301-0042 --account 13800138000 --currency USD --by 王会计'],
  async run(flags, { services }) {
    const merchant = await merchantByHost(services, input.requireFlag(flags.host, 'host', 'deposit:credit-line'));
    const bankTxnId = input.requireFlag(flags.line, 'line', 'deposit:credit-line').trim();
    if (!/^[\x21-\x7e]{1,100}$/.test(bankTxnId)) throw new OpsError('--line 须为银行流水号（1–100 个可见 ASCII 字符）');
    const currency = flags.currency === undefined ? undefined : currencyOf(flags.currency);
    const by = input.text(flags.by ?? `ops:${os.userInfo().username}`, 'by', { max: 100 });
    const who = input.requireFlag(flags.account, 'account', 'deposit:credit-line').trim();
    const account = REFERENCE_PATTERN.test(who.toUpperCase())
      ? await services.funding.accountByReference(merchant.id, who)
      : await accountOf(services, merchant, who).then(
          async (found) => ({ accountId: found.id, reference: await services.funding.referenceFor(merchant.id, found.id) }),
          () => undefined,
        );
    if (!account) throw new AppError(FundingErrorCode.CREDIT_ACCOUNT_NOT_FOUND);
    const outcome = await services.commandLine.creditLine({ merchantId: merchant.id, bankTxnId, account, by, ...(currency ? { currency } : {}) }, cliActor());
    const amount = `${fromMinorUnits(outcome.line.amount)} ${outcome.line.currency}`;
    if (outcome.outcome === 'claimed') {
      return `The line's transfer was credited by hand from its notice before: the line now names that notice, nothing moved again.\n  line         ${bankTxnId}  ${amount}\n  deposit      ${outcome.depositId}\n  by           ${by}`;
    }
    const collected = outcome.collected > 0n ? `\n  collected    ${fromMinorUnits(outcome.collected)} ${outcome.line.currency} of what the account owed` : '';
    return `Credited ${amount} to the wallet of ${account.reference} at merchant ${merchant.slug}:\n  line         ${bankTxnId}\n  deposit      ${outcome.depositId}\n  by           ${by}${collected}`;
  },
});
