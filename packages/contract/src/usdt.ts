/**
 * Top-up in USDT on TRON (TRC20), shared/design/growing-customers.md §3: each account has a deposit
 * address the crypto gateway made for it; a deposit is pending until it has 20 confirmations, then
 * credited once into the USD wallet at the merchant's rate, less the merchant's fee.
 */
export const USDT_NETWORK = 'TRC20' as const;

/** The confirmations a USDT deposit needs before it is credited. */
export const USDT_CONFIRMATIONS_REQUIRED = 20;

/** The wallet currency a USDT deposit is credited in. */
export const USDT_WALLET_CURRENCY = 'USD' as const;

/** A TRON address as base58check writes it: 34 characters, starting with T, no 0, O, I or l. */
export const TRC20_ADDRESS_PATTERN = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;

/** A rate is kept in millionths of a USD per USDT; a fee in hundredths of a per cent (basis points). */
export const RATE_SCALE = 1_000_000n;
export const FEE_SCALE = 10_000n;
/** The most a merchant may take: 10 %. */
export const USDT_FEE_MAX_BPS = 1_000;

/**
 * What a deposit of `usdt` (in cents of USDT) credits: its value at the rate, floored to the cent, less
 * the fee on that value, floored to the cent (the customer is never charged a fraction more).
 */
export function usdtCredit(usdtCents: bigint, rateMicros: bigint, feeBps: number) {
  const gross = (usdtCents * rateMicros) / RATE_SCALE;
  const fee = (gross * BigInt(feeBps)) / FEE_SCALE;
  return { gross, fee, credited: gross - fee };
}

/** "1.00" for a rate of 1 000 000 millionths; more places only where the rate has them (at most 6). */
export function formatRate(rateMicros: bigint) {
  const whole = rateMicros / RATE_SCALE;
  const part = (rateMicros % RATE_SCALE).toString().padStart(6, '0').replace(/0+$/, '');
  return `${whole}.${part.padEnd(2, '0')}`;
}

/** "1.50" (per cent) for 150 basis points. */
export function formatFeePercent(feeBps: number) {
  return `${Math.floor(feeBps / 100)}.${String(feeBps % 100).padStart(2, '0')}`;
}

/** A rate typed by an operator ("1", "0.9985", at most 6 decimals, above zero, at most 100) in millionths; null when it is none. */
export function parseRate(text: string): bigint | null {
  const match = /^(\d{1,3})(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!match) return null;
  const micros = BigInt(match[1] as string) * RATE_SCALE + BigInt((match[2] ?? '').padEnd(6, '0'));
  return micros > 0n && micros <= 100n * RATE_SCALE ? micros : null;
}

/** A fee typed as a per cent ("1", "2.5", at most 2 decimals) within 0–10, in basis points; null when it is none. */
export function parseFeePercent(text: string): number | null {
  const match = /^(\d{1,2})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const bps = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return bps <= USDT_FEE_MAX_BPS ? bps : null;
}
