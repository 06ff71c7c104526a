import { cardStatusLabel } from '@portal/contract/enums';
import { defineCommand } from '../command.ts';
import * as input from '../input.ts';
import { accountOf, merchantByHost } from '../lookup.ts';
import { textTable } from '../table.ts';

export const cardList = defineCommand({
  name: 'card:list',
  summary: "List a merchant's cards (or one account's): status, who froze it, balance",
  usage: ['card:list --host HOST [--account PHONE|EMAIL] [--json]'],
  description: 'Newest first, at most 1000. Only the last four digits are shown: the full numbers stay sealed.',
  flags: {
    host: { type: 'string', value: 'HOST', description: 'the merchant, by one of its hosts' },
    account: { type: 'string', value: 'PHONE|EMAIL', description: "only this account's cards" },
    json: { type: 'boolean', description: 'print the cards as JSON (as the API answers them), for scripts' },
  },
  examples: ['card:list --host localhost', 'card:list --host localhost --account 13800138000 --json'],
  async run(flags, { services }) {
    const merchant = await merchantByHost(services, input.requireFlag(flags.host, 'host', 'card:list'));
    const account = flags.account === undefined ? undefined : await accountOf(services, merchant, flags.account);
    const { items } = await services.cards.forOperator(merchant.id, account ? { accountId: account.id } : {});
    if (flags.json) return JSON.stringify(items, null, 2);
    if (items.length === 0) return `No card${account ? ' of that account' : ''} at merchant ${merchant.slug}.`;
    const table = textTable(
      ['NICKNAME', 'LAST4', 'PRODUCT', 'CUR', 'BALANCE', 'STATUS', 'FROZEN BY', 'REASON', 'OPENED', 'ID'],
      items.map((card) => [
        card.nickname,
        card.last4 ?? '-',
        card.product_name,
        card.currency,
        card.balance,
        `${card.status} ${cardStatusLabel[card.status]}`,
        card.frozen_by ?? '-',
        card.status_reason ?? card.failure_reason ?? '-',
        card.created_at,
        card.id,
      ]),
    );
    return `${table}\n${items.length} card${items.length === 1 ? '' : 's'} at merchant ${merchant.slug}`;
  },
});
