/**
 * Exact money: amounts are integer minor units (bigint) inside, decimal strings ("1234.50") at the
 * edges. Nothing here uses binary floating point.
 */
export const MINOR_DIGITS = 2;

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

export interface Decimal {
  /** the value times 10^scale */
  units: bigint;
  scale: number;
}

export function parseDecimal(text: string): Decimal {
  const match = DECIMAL.exec(text.trim());
  if (!match) throw new RangeError(`not a decimal number: ${text}`);
  const [, sign, whole, fraction = ''] = match;
  const units = BigInt(`${whole}${fraction}`) * (sign ? -1n : 1n);
  return { units, scale: fraction.length };
}

const pow10 = (n: number) => 10n ** BigInt(n);

function rescale(value: Decimal, scale: number): bigint {
  if (scale >= value.scale) return value.units * pow10(scale - value.scale);
  throw new RangeError('rescale would lose digits');
}

/** Floors toward negative infinity. */
function floorDiv(a: bigint, b: bigint) {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

export function formatUnits(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = scale === 0 ? digits : digits.slice(0, -scale);
  const fraction = scale === 0 ? '' : `.${digits.slice(-scale)}`;
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** "12.3456", 2 → "12.34"; "-1.005", 2 → "-1.01" (floor, as the spec's number helper). */
export function floorDecimal(text: string, decimals: number): string {
  const value = parseDecimal(text);
  if (value.scale <= decimals) return formatUnits(rescale(value, decimals), decimals);
  return formatUnits(floorDiv(value.units, pow10(value.scale - decimals)), decimals);
}

/** A money amount as a decimal string → minor units; more than two decimals is refused. */
export function toMinorUnits(text: string): bigint {
  const value = parseDecimal(text);
  if (value.scale > MINOR_DIGITS) throw new RangeError(`more than ${MINOR_DIGITS} decimals: ${text}`);
  return rescale(value, MINOR_DIGITS);
}

export function fromMinorUnits(units: bigint | number | string): string {
  return formatUnits(BigInt(units), MINOR_DIGITS);
}

/** A positive amount with at most two decimals, as the API accepts money. */
export const AMOUNT_PATTERN = /^(0|[1-9]\d{0,14})(\.\d{1,2})?$/;

export interface FeeRule {
  /** a decimal fraction, "0.015" for 1.5 % */
  rate: string;
  fixed: string;
  /** a bound applies only when it is non-negative; null or negative means none */
  min?: string | null;
  max?: string | null;
}

/**
 * The fee helper of spec §9: amount × rate + fixed, clamped to [min, max] where a bound is
 * non-negative. Exact; the answer is floored to minor units.
 */
export function computeFee(amount: string, fee: FeeRule): string {
  const a = parseDecimal(amount);
  const r = parseDecimal(fee.rate);
  const f = parseDecimal(fee.fixed);
  const bound = (text: string | null | undefined) => {
    if (text === null || text === undefined || text === '') return null;
    const value = parseDecimal(text);
    return value.units < 0n ? null : value;
  };
  const min = bound(fee.min);
  const max = bound(fee.max);
  const scale = Math.max(a.scale + r.scale, f.scale, min?.scale ?? 0, max?.scale ?? 0, MINOR_DIGITS);
  let total = rescale({ units: a.units * r.units, scale: a.scale + r.scale }, scale) + rescale(f, scale);
  if (min && total < rescale(min, scale)) total = rescale(min, scale);
  if (max && total > rescale(max, scale)) total = rescale(max, scale);
  return floorDecimal(formatUnits(total, scale), MINOR_DIGITS);
}
