import { walletTransactionTypeLabel } from '@portal/contract/enums';
import { chinaDateTime } from '@portal/contract/date-time';
import { defineCommand, OpsError } from '../command.ts';
import * as input from '../input.ts';
import { accountOf, merchantByHost } from '../lookup.ts';
import { textTable } from '../table.ts';
import { walletFlags, whoIs } from './wallet-money.ts';

export const walletShow = defineCommand({
  name: 'wallet:show',
  summary: "Show an account's wallet: status, available and held per currency, on cards, the newest transactions",
  usage: ['wallet:show --host HOST --account PHONE|EMAIL [--limit N] [--json]'],
  flags: {
    ...walletFlags,
    limit: { type: 'string', value: 'N', description: 'how many of the newest transactions to list (default 10, at most 100)' },
    json: { type: 'boolean', description: 'print it as JSON (the portal API shapes), for scripts' },
  },
  examples: ['wallet:show --host localhost --account 13800138000'],
  async run(flags, { services }) {
    const host = input.requireFlag(flags.host, 'host', 'wallet:show');
    const who = input.requireFlag(flags.account, 'account', 'wallet:show');
    const limit = flags.limit === undefined ? 10 : Number(flags.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new OpsError(`--limit must be a whole number from 1 to 100, not "${flags.limit}"`);
    const merchant = await merchantByHost(services, host);
    const account = await accountOf(services, merchant, who);
    const wallet = services.wallet;
    const [status, balances, cards, transactions] = await Promise.all([
      wallet.status(merchant.id, account.id),
      wallet.balances(merchant.id, account.id),
      wallet.cardAmount(merchant.id, account.id),
      wallet.transactions(merchant.id, account.id, { page: 1, page_size: limit }),
    ]);
    if (flags.json) return JSON.stringify({ status, balances, card_amount: cards, transactions }, null, 2);
    const lines = [
      `Wallet of ${whoIs(account)} at merchant ${merchant.slug}: ${status.status}${status.reason ? ` (${status.reason})` : ''}`,
      '',
      textTable(
        ['CURRENCY', 'AVAILABLE', 'HELD', 'ON CARDS'],
        balances.map((b) => [b.currency, b.available, b.anew, cards.find((c) => c.currency === b.currency)?.amount ?? '0.00']),
      ),
      '',
    ];
    if (transactions.total === 0) {
      lines.push('No transactions yet.');
    } else {
      lines.push(
        textTable(
          ['TIME (UTC+8)', 'TYPE', 'AMOUNT', 'BALANCE AFTER', 'TRANSACTION', 'NOTE'],
          transactions.items.map((t) => [
            chinaDateTime(new Date(t.created_at), { seconds: true }),
            walletTransactionTypeLabel[t.type],
            `${t.amount} ${t.currency}`,
            t.balance_after,
            t.transaction_id,
            t.reverses ? `冲正 ${t.reverses}` : t.memo || '-',
          ]),
        ),
        `${transactions.items.length} of ${transactions.total} transaction${transactions.total === 1 ? '' : 's'}, newest first`,
      );
    }
    return lines.join('\n');
  },
});
