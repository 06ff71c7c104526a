import { cardStatusLabel } from '@portal/contract/enums';
import type { Services } from '../../composition.ts';
import { defineCommand, OpsError } from '../command.ts';
import * as input from '../input.ts';
import { merchantByHost } from '../lookup.ts';
import { cliActor } from './operator.ts';

const cardFlags = {
  host: { type: 'string', value: 'HOST', description: 'the merchant, by one of its hosts' },
  card: { type: 'string', value: 'ID|LAST4', description: 'the card, by its id or its last four digits (card:list shows both)' },
} as const;

/** --card as an id or the last four digits; four digits shared by several cards are refused with their ids. */
async function cardOf(services: Services, merchantId: string, value: string) {
  const trimmed = value.trim();
  const which = /^\d{4}$/.test(trimmed) ? { last4: trimmed } : { id: trimmed };
  const { rows } = await services.cards.forOperator(merchantId, which);
  if (rows.length === 0) throw new OpsError(`no card ${trimmed} at this merchant (card:list shows the cards)`);
  if (rows.length > 1) throw new OpsError(`several cards end in ${trimmed}: ${rows.map((row) => row.card.id).join(', ')}; name one by --card ID`);
  return (rows[0] as (typeof rows)[number]).card;
}

export const cardFreeze = defineCommand({
  name: 'card:freeze',
  summary: "Freeze a card as the merchant's operator: its holder cannot unfreeze it",
  usage: ['card:freeze --host HOST --card ID|LAST4 --reason TEXT'],
  description:
    'The card goes to 冻结中 at once and to 已冻结 when the issuer confirms; its holder gets a station message with the reason, and the card page says the freeze is the platform’s, to ask customer service. Money may still be withdrawn from it to the wallet. card:unfreeze lifts it.',
  flags: { ...cardFlags, reason: { type: 'string', value: 'TEXT', description: 'why, shown to the holder (e.g. 涉嫌违规交易)' } },
  examples: ['card:freeze --host localhost --card 4242 --reason 涉嫌违规交易'],
  async run(flags, { services }) {
    const merchant = await merchantByHost(services, input.requireFlag(flags.host, 'host', 'card:freeze'));
    const reason = input.text(input.requireFlag(flags.reason, 'reason', 'card:freeze'), 'reason', { max: 200 });
    const card = await cardOf(services, merchant.id, input.requireFlag(flags.card, 'card', 'card:freeze'));
    const after = await services.commandLine.cardStatus('FREEZE', card, reason, cliActor());
    return [
      `Froze card ${after.nickname} (${after.last4 ? `•••• ${after.last4}` : 'not numbered yet'}) at merchant ${merchant.slug}.`,
      `  status   ${after.status} ${cardStatusLabel[after.status]}`,
      `  reason   ${reason}`,
      '  The holder got a station message; only card:unfreeze lifts this freeze.',
    ].join('\n');
  },
});

export const cardUnfreeze = defineCommand({
  name: 'card:unfreeze',
  summary: "Lift an operator's freeze of a card",
  usage: ['card:unfreeze --host HOST --card ID|LAST4'],
  description: 'Only a freeze made with card:freeze; the card goes to 解冻中 and to 使用中 when the issuer confirms, and its holder is told.',
  flags: cardFlags,
  examples: ['card:unfreeze --host localhost --card 4242'],
  async run(flags, { services }) {
    const merchant = await merchantByHost(services, input.requireFlag(flags.host, 'host', 'card:unfreeze'));
    const card = await cardOf(services, merchant.id, input.requireFlag(flags.card, 'card', 'card:unfreeze'));
    const after = await services.commandLine.cardStatus('UNFREEZE', card, '', cliActor());
    return [
      `Unfroze card ${after.nickname} (${after.last4 ? `•••• ${after.last4}` : 'not numbered yet'}) at merchant ${merchant.slug}.`,
      `  status   ${after.status} ${cardStatusLabel[after.status]}`,
      '  The holder got a station message.',
    ].join('\n');
  },
});
