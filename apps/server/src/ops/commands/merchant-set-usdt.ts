import { formatFeePercent, formatRate, parseFeePercent, parseRate } from '@portal/contract/usdt';
import { defineCommand, OpsError } from '../command.ts';
import * as input from '../input.ts';
import { merchantByHost } from '../lookup.ts';

const NAME = 'merchant:set-usdt';

export const merchantSetUsdt = defineCommand({
  name: NAME,
  summary: "Set whether the merchant offers USDT (TRC20) top-ups, at which rate into USD and for which fee",
  usage: [`${NAME} --host HOST [--rate USD_PER_USDT] [--fee-percent P] [--off | --on]`],
  description: 'A deposit is credited at the rate and fee set when it reaches 20 confirmations. The fee is at most 10 %. --off hides the USDT section of 钱包充值; deposits already made are still credited.',
  flags: {
    host: { type: 'string', value: 'HOST', description: 'the merchant, by one of its hosts' },
    rate: { type: 'string', value: 'RATE', description: 'USD for 1 USDT, e.g. 1.00 or 0.9985 (at most 6 decimals)' },
    'fee-percent': { type: 'string', value: 'P', description: 'the fee in per cent, 0 to 10, at most 2 decimals' },
    off: { type: 'boolean', description: 'stop offering USDT' },
    on: { type: 'boolean', description: 'offer USDT again' },
  },
  examples: [`${NAME} --host localhost --rate 1.00 --fee-percent 1.5`, `${NAME} --host orange.localhost --off`],
  async run(flags, { services }) {
    if (flags.on && flags.off) throw new OpsError('--on and --off cannot be given together');
    const merchant = await merchantByHost(services, input.requireFlag(flags.host, 'host', NAME));
    const before = await services.funding.usdtSettings(merchant.id);
    const rateMicros = flags.rate === undefined ? (before?.rateMicros ?? 1_000_000n) : parseRate(flags.rate);
    if (rateMicros === null) throw new OpsError(`--rate 应为大于 0、不超过 100、最多 6 位小数的数，例如 1.00，而不是 "${flags.rate}"`);
    const feeBps = flags['fee-percent'] === undefined ? (before?.feeBps ?? 0) : parseFeePercent(flags['fee-percent']);
    if (feeBps === null) throw new OpsError(`--fee-percent 应为 0 到 10 之间、最多两位小数的百分数，例如 1.5，而不是 "${flags['fee-percent']}"`);
    const enabled = flags.off ? false : flags.on ? true : (before?.enabled ?? true);
    const row = await services.funding.setUsdt(merchant.id, { enabled, rateMicros, feeBps });
    return [
      `USDT (TRC20) top-ups of merchant ${merchant.slug}: ${row.enabled ? 'offered' : 'not offered'}`,
      `  rate   1 USDT = ${formatRate(row.rateMicros)} USD`,
      `  fee    ${formatFeePercent(row.feeBps)} %`,
    ].join('\n');
  },
});
