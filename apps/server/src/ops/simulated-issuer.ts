import { AMOUNT_PATTERN, fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import type { Config } from '../config.ts';
import { Refused } from '../lib/refused.ts';
import { issuerWebhookSecretFor } from '../lib/secrets.ts';
import { issuerUrlFor } from '../providers/issuer/built-in.ts';
import { createHttpIssuer } from '../providers/issuer/http.ts';
import { IssuerUnavailable } from '../providers/issuer/port.ts';
import { OpsError } from './command.ts';

/**
 * What the spending commands share: the simulated issuer they drive (ISSUER_URL, else the built-in one
 * on ISSUER_SIM_PORT, signed with the server's secret), and the checks of what an operator types, each
 * refused in 中文 before anything is sent.
 */
export function simulatedIssuer(config: Config) {
  const url = issuerUrlFor(config);
  return { url, issuer: createHttpIssuer({ url, secret: issuerWebhookSecretFor(config) }) };
}

/** Runs a call on the simulated issuer; a call it did not take is refused with what to check. */
export async function askSimulator<T>(config: Config, url: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof IssuerUnavailable)) throw error;
    throw new Refused(`${simulatorProblem(error.message, url, config.issuer.url !== undefined)}（${error.message}）`);
  }
}

/** What the operator should check, from how a call on the simulated issuer failed. */
export function simulatorProblem(message: string, url: string, configured: boolean) {
  if (/answered 401/.test(message)) return `${url} 的发卡模拟器不接受请求签名：请使用与服务器相同的 ISSUER_WEBHOOK_SECRET 或 DATA_DIR`;
  if (/answered 404/.test(message)) return `${url} 没有模拟交易接口：只有模拟发卡行（npm run issuer-sim 或服务器内置的模拟器）支持此命令`;
  if (/answered 400/.test(message)) {
    const said = /"error":"((?:[^"\\]|\\.)*)"/.exec(message)?.[1];
    return `发卡模拟器拒绝了请求${said ? `：${said}` : ''}`;
  }
  if (/answered \d+/.test(message)) return `${url} 的发卡模拟器未能处理请求`;
  return configured
    ? `无法连接 ISSUER_URL 指定的发卡模拟器 ${url}：它是否在运行？`
    : `${url} 上没有发卡模拟器在运行：请先启动服务器（npm start，未设置 ISSUER_URL 时会启动内置模拟器）或 npm run issuer-sim；端口不同时请设置 ISSUER_SIM_PORT 或 ISSUER_URL`;
}

/** An amount above zero with at most two decimals, as the events carry it ("12.50"). */
export function amount(value: string, flag: string) {
  const trimmed = value.trim();
  if (!AMOUNT_PATTERN.test(trimmed) || toMinorUnits(trimmed) <= 0n) throw new OpsError(`--${flag} 金额格式不正确：应为大于 0、最多两位小数的金额，例如 12.34，而不是 "${value}"`);
  return fromMinorUnits(toMinorUnits(trimmed));
}

/** A four-digit merchant category code. */
export function mcc(value: string) {
  const trimmed = value.trim();
  if (!/^\d{4}$/.test(trimmed)) throw new OpsError(`--mcc 应为 4 位数字的商户类别码（MCC），例如 7311，而不是 "${value}"`);
  return trimmed;
}

/** An ISO 3166 alpha-2 country, upper-cased. */
export function country(value: string) {
  const trimmed = value.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(trimmed)) throw new OpsError(`--country 应为两位字母的国家或地区代码（ISO 3166），例如 US，而不是 "${value}"`);
  return trimmed;
}

/** An ISO 4217 currency, upper-cased (any three letters: a purchase in another currency than the card's may be tried). */
export function currency(value: string) {
  const trimmed = value.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(trimmed)) throw new OpsError(`--currency 应为三位字母的币种代码，例如 USD，而不是 "${value}"`);
  return trimmed;
}

/** A whole number within bounds. */
export function count(value: string, flag: string, { min, max }: { min: number; max: number }) {
  const trimmed = value.trim();
  const n = /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new OpsError(`--${flag} 应为 ${min} 到 ${max} 之间的整数，而不是 "${value}"`);
  return n;
}

/** A number within bounds, decimals allowed. */
export function positive(value: string, flag: string, { max }: { max: number }) {
  const trimmed = value.trim();
  const n = /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!(n > 0 && n <= max)) throw new OpsError(`--${flag} 应为大于 0、不超过 ${max} 的数，而不是 "${value}"`);
  return n;
}
