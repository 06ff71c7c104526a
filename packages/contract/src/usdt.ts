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

/** A USDT amount (TRC20 USDT has 6 decimals) is kept exactly, in millionths of a USDT. */
export const USDT_DECIMALS = 6;
export const USDT_SCALE = 1_000_000n;
/** The most one deposit may carry: 1,000,000,000 USDT. */
export const USDT_AMOUNT_MAX = 1_000_000_000n * USDT_SCALE;
/** Above zero, at most 6 decimals, no sign, no exponent, no leading zeros. */
export const USDT_AMOUNT_PATTERN = /^(0|[1-9]\d{0,9})(\.\d{1,6})?$/;

export const usdtMessages = {
  amountRequired: '请输入 USDT 数量',
  amount: 'USDT 数量须大于 0、最多 6 位小数，且不超过 1000000000',
} as const;

/** A USDT amount as text ("12.345678") in millionths; null when it is none (bad form, zero, above the most). */
export function toUsdtMicros(text: string): bigint | null {
  const match = USDT_AMOUNT_PATTERN.exec(text);
  if (!match) return null;
  const micros = BigInt(match[1] as string) * USDT_SCALE + BigInt((match[2] ?? '.').slice(1).padEnd(USDT_DECIMALS, '0'));
  return micros > 0n && micros <= USDT_AMOUNT_MAX ? micros : null;
}

/** The rule of a USDT amount typed or sent: null when good, else the 中文 reason. */
export function usdtAmountRule(value: string): string | null {
  const text = value.trim();
  if (text === '') return usdtMessages.amountRequired;
  return toUsdtMicros(text) === null ? usdtMessages.amount : null;
}

/** Millionths of a USDT written with every decimal it has, at least two: "100.00", "12.345678", "0.50". */
export function formatUsdt(micros: bigint): string {
  const whole = micros / USDT_SCALE;
  const part = (micros % USDT_SCALE).toString().padStart(USDT_DECIMALS, '0').replace(/0+$/, '');
  return `${whole}.${part.padEnd(2, '0')}`;
}

/**
 * What a deposit of `usdtMicros` credits, in cents of USD, the one rule of both halves:
 * - `value` = the USDT at the rate, floored to the cent;
 * - `credited` = the USDT at the rate less the fee, computed exactly and floored to the cent, so the
 *   wallet never receives more than the deposit is worth after the fee;
 * - `fee` = `value − credited`: the fee as the customer reads it, the sub-cent remainder included.
 * The sub-cent remainder (below 0.01 USD) stays with the merchant, which holds the USDT received: the
 * ledger books whole cents and only `credited` moves (from the merchant's funding into the wallet).
 */
export function usdtCredit(usdtMicros: bigint, rateMicros: bigint, feeBps: number) {
  // usdt × rate is in 10^-12 USD; a cent is 10^10 of those, and the fee's scale adds 10^4
  const worth = usdtMicros * rateMicros;
  const value = worth / 10_000_000_000n;
  const credited = (worth * (FEE_SCALE - BigInt(feeBps))) / (10_000_000_000n * FEE_SCALE);
  return { value, fee: value - credited, credited };
}

/** The rule above as the customer reads it. */
export const USDT_CREDIT_RULE_TEXT = '入账金额 = USDT 数量 × 汇率 × (1 − 手续费率)，按精确值计算后向下取整到 0.01 USD；不足 0.01 USD 的零头不入账，归商户所有。';

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
