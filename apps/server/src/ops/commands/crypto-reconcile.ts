import type { UsdtReconciled } from '../../modules/funding/usdt-reconcile.ts';
import { defineCommand } from '../command.ts';
import { merchantByHost } from '../lookup.ts';
import { textTable } from '../table.ts';

const OUTCOME_LABEL: Record<UsdtReconciled['outcome'], string> = {
  credited: 'credited now',
  found: 'found (pending)',
  updated: 'confirmations raised',
  unchanged: 'nothing new',
  unknown: 'the gateway has no such deposit',
  ignored: "no account's address",
};

const state = (value: UsdtReconciled['before']) => (value ? `${value.status} ${value.confirmations}` : '-');

export const cryptoReconcile = defineCommand({
  name: 'crypto:reconcile',
  summary: 'Ask the crypto gateway about every pending USDT deposit and every deposit address, and apply what it says',
  usage: ['crypto:reconcile [--host HOST] [--json]'],
  description: [
    "Every pending USDT deposit, whatever its age, is read back from the gateway by its chain transaction, and every deposit address has its deposits listed there. A deposit the portal never heard of (its events lost) is recorded, one with more confirmations is raised, and one with 20 is credited, through the webhook's own path: a deposit is credited once, however often this runs or the events come late. The servers do the same every minute for deposits quiet longer than USDT_RECONCILE_AFTER_SECONDS (300) and 50 addresses not looked at for an hour, and at each start for every pending deposit and every address.",
    '',
    'Prints each deposit that changed or was asked about. The gateway asked is CRYPTO_GATEWAY_URL, or else the built-in simulator on http://127.0.0.1:CRYPTO_SIM_PORT (4200), signed with CRYPTO_WEBHOOK_SECRET or the development secret in DATA_DIR.',
  ].join('\n'),
  flags: {
    host: { type: 'string', value: 'HOST', description: "only this merchant's deposits and addresses" },
    json: { type: 'boolean', description: 'print what happened as JSON, for scripts' },
  },
  examples: ['crypto:reconcile', 'crypto:reconcile --host localhost'],
  async run(flags, { services }) {
    const merchant = flags.host === undefined ? undefined : await merchantByHost(services, flags.host);
    const report = await services.usdtReconciler.reconcile({ olderThanSeconds: null, allAddresses: true, ...(merchant ? { merchantId: merchant.id } : {}) });
    if (flags.json) return JSON.stringify(report, null, 2);
    const where = merchant ? ` at merchant ${merchant.slug}` : '';
    const lines: string[] = [];
    if (report.deposits.length > 0) {
      lines.push(
        textTable(
          ['TRANSACTION', 'USDT', 'BEFORE', 'AFTER', 'DONE'],
          report.deposits.map((item) => [item.tx_id, item.amount, state(item.before), state(item.after), OUTCOME_LABEL[item.outcome]]),
        ),
      );
    }
    const count = (outcome: UsdtReconciled['outcome']) => report.deposits.filter((item) => item.outcome === outcome).length;
    lines.push(
      `${report.addresses_checked} address${report.addresses_checked === 1 ? '' : 'es'} listed${where}: ${count('credited')} credited, ${count('found')} found pending, ${count('updated')} raised, ${count('unknown')} unknown to the gateway${report.unavailable ? `; the gateway did not answer ${report.unavailable} call${report.unavailable === 1 ? '' : 's'} (asked again at the next run)` : ''}.`,
    );
    return lines.join('\n');
  },
});
