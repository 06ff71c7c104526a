import { DEPOSIT_STATUS_LABELS, type DepositItem } from '@portal/contract/funding';
import { fromMinorUnits } from '@portal/contract/money';
import { defineCommand, OpsError } from '../command.ts';
import * as input from '../input.ts';
import { merchantByHost } from '../lookup.ts';
import { cliActor } from './operator.ts';
import { amountOf } from './wallet-money.ts';

const idFlags = {
  host: { type: 'string', value: 'HOST', description: 'the merchant, by one of its hosts' },
  id: { type: 'string', value: 'ID', description: 'the top-up notice (deposit:list shows them)' },
} as const;

function depositIdOf(value: string) {
  const id = value.trim().toLowerCase();
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) throw new OpsError(`--id must be a notice's id (a UUID), not "${value}"`);
  return id;
}

const describe = (row: Pick<DepositItem, 'id' | 'amount' | 'currency' | 'payer_name' | 'status'> & { credited?: string | null }) =>
  `  notice       ${row.id}\n  amount       ${row.amount} ${row.currency}${row.credited && row.credited !== row.amount ? ` (credited ${row.credited})` : ''}\n  payer        ${row.payer_name}\n  status       ${row.status} (${DEPOSIT_STATUS_LABELS[row.status as keyof typeof DEPOSIT_STATUS_LABELS] ?? row.status})`;

export const depositConfirm = defineCommand({
  name: 'deposit:confirm',
  summary: "Credit a customer's top-up notice to their wallet (充值, ADMIN_RECHARGE_IN), once",
  usage: ['deposit:confirm --host HOST --id ID [--amount AMOUNT]'],
  description:
    "The notice's amount (or --amount, what the bank says came in) moves from the merchant's funding to the wallet in one transaction, " +
    'what the account owes in that currency is collected from it, and the customer gets a message and an e-mail. ' +
    'Confirming a credited notice again moves nothing; a rejected one is refused.',
  flags: { ...idFlags, amount: { type: 'string', value: 'AMOUNT', description: "what came in, when it is not the notice's amount" } },
  examples: ['deposit:confirm --host localhost --id 0b6f…', 'deposit:confirm --host localhost --id 0b6f… --amount 99.50'],
  async run(flags, { services }) {
    const host = input.requireFlag(flags.host, 'host', 'deposit:confirm');
    const id = depositIdOf(input.requireFlag(flags.id, 'id', 'deposit:confirm'));
    const amount = flags.amount === undefined ? undefined : amountOf(flags.amount);
    const merchant = await merchantByHost(services, host);
    const result = await services.commandLine.confirmDeposit({ merchantId: merchant.id, depositId: id, ...(amount === undefined ? {} : { amount }) }, cliActor());
    const row = result.row;
    const view = {
      id: row.id,
      amount: fromMinorUnits(row.amount),
      currency: row.currency as DepositItem['currency'],
      payer_name: row.payerName,
      status: row.status as DepositItem['status'],
      credited: row.creditedAmount === null ? null : fromMinorUnits(row.creditedAmount),
    };
    if (result.replayed) return `The notice was credited before: nothing moved again.\n${describe(view)}`;
    const collected = result.collected > 0n ? `\n  collected    ${fromMinorUnits(result.collected)} ${row.currency} of what the account owed` : '';
    return `Credited ${view.credited} ${row.currency} to the wallet at merchant ${merchant.slug}:\n${describe(view)}\n  transaction  ${row.ledgerTransactionId}${collected}`;
  },
});

export const depositReject = defineCommand({
  name: 'deposit:reject',
  summary: "Reject a customer's top-up notice with the reason they read",
  usage: ['deposit:reject --host HOST --id ID --reason TEXT'],
  description: 'Nothing moves; the notice becomes 已驳回 and the customer gets a message with the reason. Rejecting it again changes nothing; a credited one is refused.',
  flags: { ...idFlags, reason: { type: 'string', value: 'TEXT', description: 'why, as the customer reads it' } },
  examples: ['deposit:reject --host localhost --id 0b6f… --reason 未查到该笔转账'],
  async run(flags, { services }) {
    const host = input.requireFlag(flags.host, 'host', 'deposit:reject');
    const id = depositIdOf(input.requireFlag(flags.id, 'id', 'deposit:reject'));
    const reason = input.text(input.requireFlag(flags.reason, 'reason', 'deposit:reject'), 'reason', { max: 200 });
    const merchant = await merchantByHost(services, host);
    const result = await services.commandLine.rejectDeposit({ merchantId: merchant.id, depositId: id, reason }, cliActor());
    const row = result.row;
    const view = { id: row.id, amount: fromMinorUnits(row.amount), currency: row.currency as DepositItem['currency'], payer_name: row.payerName, status: row.status as DepositItem['status'] };
    return `${result.replayed ? 'The notice was rejected before: nothing changed.' : `Rejected the notice at merchant ${merchant.slug}:`}\n${describe(view)}\n  reason       ${row.reason}`;
  },
});

export const depositList = defineCommand({
  name: 'deposit:list',
  summary: 'What waits for a person: pending top-up notices and statement lines that matched no reference',
  usage: ['deposit:list --host HOST'],
  flags: { host: idFlags.host },
  async run(flags, { services }) {
    const merchant = await merchantByHost(services, input.requireFlag(flags.host, 'host', 'deposit:list'));
    const { notices, lines } = await services.funding.waiting(merchant.id);
    const out = [`Pending notices (${notices.length}):`];
    for (const notice of notices) out.push(`  ${notice.id}  ${notice.amount} ${notice.kind === 'USDT' ? 'USDT' : notice.currency}  ${notice.payer_name}  filed ${notice.created_at}`);
    out.push(`Unmatched statement lines (${lines.length}):`);
    for (const line of lines) out.push(`  ${line.bankTxnId}  ${line.bookedOn}  ${fromMinorUnits(line.amount)} ${line.currency}  ${line.payer}  ${line.memo}`);
    return out.join('\n');
  },
});
