import { AMOUNT_PATTERN, fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import type { ProductValues } from '../../modules/card-products/service.ts';
import { productView } from '../../modules/card-products/service.ts';
import { productAudit } from '../../modules/console-admin/service.ts';
import { defineCommand, type FlagValues, OpsError, UsageError } from '../command.ts';
import * as input from '../input.ts';
import { merchantByHost } from '../lookup.ts';
import { cliActor } from './operator.ts';

const amount = (flag: string) => (value: string) => {
  const trimmed = value.trim();
  if (!AMOUNT_PATTERN.test(trimmed)) throw new OpsError(`--${flag} must be an amount with at most two decimals, such as 5 or 0.50, not "${value}"`);
  return toMinorUnits(trimmed);
};
/** An amount, or "" for none (a bound that does not apply). */
const optionalAmount = (flag: string) => (value: string) => (value.trim() === '' ? null : amount(flag)(value));
const whole = (flag: string) => (value: string) => {
  if (!/^\d{1,6}$/.test(value.trim())) throw new OpsError(`--${flag} must be a whole number, not "${value}"`);
  return Number(value.trim());
};
const yesNo = (flag: string) => (value: string) => {
  const wanted = value.trim().toLowerCase();
  if (wanted === 'yes' || wanted === 'true') return true;
  if (wanted === 'no' || wanted === 'false') return false;
  throw new OpsError(`--${flag} must be yes or no, not "${value}"`);
};
const upper = (value: string) => value.trim().toUpperCase();

/** The flags that set a field of a product, the field each sets, and how its value is read. */
const fields = [
  { flag: 'name', field: 'name', read: (value: string) => input.text(value, 'name', { max: 30 }) },
  { flag: 'brand', field: 'brand', read: upper },
  { flag: 'bin', field: 'bin', read: (value: string) => value.trim() },
  { flag: 'currency', field: 'currency', read: upper },
  { flag: 'open-fee', field: 'openFee', read: amount('open-fee') },
  { flag: 'rate', field: 'topupFeeRate', read: (value: string) => value.trim() },
  { flag: 'fixed', field: 'topupFeeFixed', read: amount('fixed') },
  { flag: 'min', field: 'topupFeeMin', read: optionalAmount('min') },
  { flag: 'max', field: 'topupFeeMax', read: optionalAmount('max') },
  { flag: 'min-first-load', field: 'minFirstLoad', read: amount('min-first-load') },
  { flag: 'max-balance', field: 'maxBalance', read: amount('max-balance') },
  { flag: 'decline-fee', field: 'declineFee', read: amount('decline-fee') },
  { flag: 'per-account-limit', field: 'perAccountLimit', read: whole('per-account-limit') },
  { flag: 'max-per-batch', field: 'maxPerBatch', read: whole('max-per-batch') },
  { flag: 'needs-secondary', field: 'needsSecondary', read: yesNo('needs-secondary') },
  { flag: 'status', field: 'status', read: upper },
  { flag: 'position', field: 'position', read: whole('position') },
] as const;

const flags = {
  host: { type: 'string', value: 'HOST', description: 'the merchant, by one of its hosts' },
  product: { type: 'string', value: 'NAME|ID', description: 'the product to change, by its name or id (product:list shows them)' },
  create: { type: 'boolean', description: 'add a product; needs --name, --brand, --bin, --currency and the fees and limits below' },
  name: { type: 'string', value: 'NAME', description: 'its name, shown to customers, e.g. 广告投放卡 (2–30 characters)' },
  brand: { type: 'string', value: 'BRAND', description: 'VISA or MASTERCARD' },
  bin: { type: 'string', value: 'DIGITS', description: "the first 6 to 8 digits of its cards' numbers" },
  currency: { type: 'string', value: 'CURRENCY', description: 'USD or CNY' },
  'open-fee': { type: 'string', value: 'AMOUNT', description: 'the fee for opening a card' },
  rate: { type: 'string', value: 'FRACTION', description: 'the top-up fee rate, e.g. 0.015 for 1.5 %' },
  fixed: { type: 'string', value: 'AMOUNT', description: 'the fixed part of the top-up fee' },
  min: { type: 'string', value: 'AMOUNT', description: 'the least top-up fee; "" for none' },
  max: { type: 'string', value: 'AMOUNT', description: 'the most top-up fee; "" for none' },
  'min-first-load': { type: 'string', value: 'AMOUNT', description: 'the least first load of a new card' },
  'max-balance': { type: 'string', value: 'AMOUNT', description: 'the most a card may hold' },
  'decline-fee': { type: 'string', value: 'AMOUNT', description: 'what a declined authorisation costs the wallet (0 for nothing)' },
  'per-account-limit': { type: 'string', value: 'N', description: 'how many cards of it one account may open' },
  'max-per-batch': { type: 'string', value: 'N', description: 'how many one batch may open (1–500)' },
  'needs-secondary': { type: 'string', value: 'yes|no', description: 'whether it needs the Latin name and website before opening' },
  status: { type: 'string', value: 'ON|OFF', description: 'OFF: customers can no longer open it (cards opened stay)' },
  position: { type: 'string', value: 'N', description: 'where the portal lists it (smaller first)' },
} as const;

type Values = FlagValues<typeof flags>;

function changesOf(values: Values): Partial<ProductValues> {
  const changes: Record<string, unknown> = {};
  for (const { flag, field, read } of fields) {
    const raw = values[flag];
    if (typeof raw === 'string') changes[field] = read(raw);
  }
  return changes as Partial<ProductValues>;
}

const money = (units: bigint | null | undefined) => (units === null || units === undefined ? '-' : fromMinorUnits(units));

export const productSet = defineCommand({
  name: 'product:set',
  summary: "Change a merchant's card product (fees, limits, status), or add one",
  usage: [
    'product:set --host HOST --product NAME|ID [--open-fee AMOUNT] [--rate FRACTION] [--status ON|OFF] …',
    'product:set --host HOST --create --name NAME --brand BRAND --bin DIGITS --currency CURRENCY --open-fee AMOUNT --rate FRACTION --fixed AMOUNT --min-first-load AMOUNT --max-balance AMOUNT --decline-fee AMOUNT --per-account-limit N --max-per-batch N',
  ],
  description:
    'Each addition or change is a row of the merchant\'s audit log (channel 命令行, the shell user as the actor; a change that changes nothing writes none). Every product keeps its rules (a BIN of 6–8 digits, a rate below 1, a fee minimum not above its maximum, a first load not above the maximum balance, 1–500 per batch); a change that would break one changes nothing. The portal shows a change at its next read; a change of fees applies to cards opened after it (a card keeps the fee terms it was opened under).',
  flags,
  examples: [
    'product:set --host localhost --product 广告投放卡 --open-fee 3.00 --rate 0.012',
    'product:set --host localhost --product 订阅支付卡 --status OFF',
    'product:set --host localhost --create --name 旅行卡 --brand MASTERCARD --bin 55554444 --currency USD --open-fee 1 --rate 0.01 --fixed 0 --min-first-load 5 --max-balance 5000 --decline-fee 0.3 --per-account-limit 50 --max-per-batch 50',
  ],
  async run(values, { services }) {
    const merchant = await merchantByHost(services, input.requireFlag(values.host, 'host', 'product:set'));
    const changes = changesOf(values);
    const audit = productAudit(services.operators, merchant.id, cliActor());
    if (values.create) {
      if (values.product !== undefined) throw new UsageError('product:set: --product chooses a product to change; it does not go with --create');
      const required = ['name', 'brand', 'bin', 'currency', 'open-fee', 'rate', 'fixed', 'min-first-load', 'max-balance', 'decline-fee', 'per-account-limit', 'max-per-batch'] as const;
      const missing = required.filter((flag) => values[flag] === undefined);
      if (missing.length > 0) throw new UsageError(`product:set --create needs ${missing.map((flag) => `--${flag}`).join(', ')}`);
      const created = productView(
        await services.products.create(merchant.id, { topupFeeMin: null, topupFeeMax: null, needsSecondary: false, ...changes } as ProductValues, {
          within: audit.created,
        }),
      );
      return `Added product ${created.name} (${created.brand} ${created.bin}, ${created.currency}) to merchant ${merchant.slug}: id ${created.id}, status ${created.status}`;
    }
    if (values.product === undefined) throw new UsageError('product:set: choose the product with --product NAME|ID (or add one with --create)');
    if (Object.keys(changes).length === 0) {
      throw new UsageError(`product:set: nothing to change; give at least one of ${fields.map((f) => `--${f.flag}`).join(', ')}`);
    }
    const wanted = values.product.trim();
    const which = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(wanted) ? { id: wanted } : { name: wanted };
    const { before, after } = await services.products.update(merchant.id, which, changes, { within: audit.changed });
    const shown = (row: typeof before, field: (typeof fields)[number]['field']) => {
      const value = row[field];
      if (typeof value === 'bigint' || value === null) return money(value);
      if (typeof value === 'boolean') return value ? 'yes' : 'no';
      return String(value);
    };
    const lines = [`Updated product ${after.name} of merchant ${merchant.slug}:`];
    for (const { flag, field } of fields) {
      if (!(field in changes)) continue;
      const from = shown(before, field);
      const to = shown(after, field);
      lines.push(`  ${flag.padEnd(18)} ${from === to ? `${to} (unchanged)` : `${from} → ${to}`}`);
    }
    return lines.join('\n');
  },
});
