import { cardStatusLabel } from '@portal/contract/enums';
import type { CardReconciled } from '../../modules/card-reconcile/service.ts';
import { defineCommand } from '../command.ts';
import { merchantByHost } from '../lookup.ts';
import { textTable } from '../table.ts';

const OUTCOME_LABEL: Record<CardReconciled['outcome'], string> = {
  settled: 'settled',
  'asked-again': 'asked the issuer again',
  waiting: 'still waiting',
  unavailable: 'the issuer did not answer',
  refused: "the issuer's answer was refused",
};

/** What the issuer answered, as one cell. */
function issuerSaid(card: CardReconciled) {
  if (card.issuer === null) return '-';
  if (card.issuer === 'ISSUED') return `ISSUED (${card.issuer_state})`;
  if (card.issuer === 'FAILED') return `FAILED: ${card.detail ?? ''}`;
  return card.issuer;
}

export const cardReconcile = defineCommand({
  name: 'card:reconcile',
  summary: 'Ask the card issuer about every card still waiting for it, and settle each from its answer',
  usage: ['card:reconcile [--host HOST] [--json]'],
  description: [
    "Every card still opening, freezing, unfreezing or being cancelled (CARD_STATUS_INIT, FREEZING, UNFREEZING, DELETING), whatever its age, is looked up with the issuer's status query. A card the issuer has issued, failed, frozen, unfrozen or closed moves as that event would have moved it (its money posted or released, its batch counted and ended); a card the issuer does not know is asked for again under the same card id; a freeze, unfreeze or cancel the issuer has not made is asked again. The servers do the same every minute for cards waiting longer than CARD_RECONCILE_AFTER_SECONDS (60), and at each start for every waiting card.",
    '',
    'Prints each card asked about, what the issuer answered and what changed, then the batches that moved. The issuer asked is ISSUER_URL, or else the built-in simulator on http://127.0.0.1:ISSUER_SIM_PORT (4100), signed with ISSUER_WEBHOOK_SECRET or the development secret in DATA_DIR.',
  ].join('\n'),
  flags: {
    host: { type: 'string', value: 'HOST', description: "only this merchant's cards" },
    json: { type: 'boolean', description: 'print what happened as JSON, for scripts' },
  },
  examples: ['card:reconcile', 'card:reconcile --host localhost'],
  async run(flags, { services }) {
    const merchant = flags.host === undefined ? undefined : await merchantByHost(services, flags.host);
    const report = await services.cardReconciler.reconcile({ olderThanSeconds: null, ...(merchant ? { merchantId: merchant.id } : {}) });
    if (flags.json) return JSON.stringify(report, null, 2);
    const where = merchant ? ` at merchant ${merchant.slug}` : '';
    if (report.cards.length === 0) return `No card waits for the card issuer${where}: nothing to do.`;
    const lines = [
      textTable(
        ['CARD', 'NICKNAME', 'BEFORE', 'AFTER', 'ISSUER SAID', 'DONE'],
        report.cards.map((card) => [
          card.card_id,
          card.nickname,
          `${card.before} ${cardStatusLabel[card.before]}`,
          card.after === card.before ? '(unchanged)' : `${card.after} ${cardStatusLabel[card.after]}`,
          issuerSaid(card),
          OUTCOME_LABEL[card.outcome],
        ]),
      ),
    ];
    for (const batch of report.batches) {
      lines.push(`batch ${batch.batch_id}: ${batch.before} → ${batch.after} (${batch.success_count} issued, ${batch.fail_count} failed of ${batch.quantity})`);
    }
    const count = (outcome: CardReconciled['outcome']) => report.cards.filter((card) => card.outcome === outcome).length;
    lines.push(
      `${report.cards.length} waiting card${report.cards.length === 1 ? '' : 's'} asked about${where}: ${count('settled')} settled, ${count('asked-again')} asked again, ${count('waiting')} still waiting, ${count('unavailable')} not answered${count('refused') ? `, ${count('refused')} refused` : ''}.`,
    );
    return lines.join('\n');
  },
});
