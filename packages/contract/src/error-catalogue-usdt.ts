import type { CatalogueEntry } from './error-catalogue-entry.ts';
import { usdtMessages } from './usdt.ts';
import { UsdtErrorCode } from './usdt-errors.ts';

/** USDT top-ups: the crypto gateway's webhooks and the deposit address. */
export const usdtErrors: Record<number, CatalogueEntry> = {
  [UsdtErrorCode.GATEWAY_SIGNATURE_INVALID]: {
    status: 401,
    message: '加密货币网关签名无效或已过期',
    meaning:
      "A crypto gateway webhook without a valid Gateway-Signature (HMAC-SHA256 of \"t.body\" with CRYPTO_WEBHOOK_SECRET), or signed more than five minutes from now; nothing changed.",
  },
  [UsdtErrorCode.GATEWAY_EVENT_INVALID]: {
    status: 400,
    message: '加密货币网关事件格式不正确',
    meaning: 'A signed crypto gateway webhook whose body is not a deposit event (id, type, data: tx_id, address, amount, confirmations, network TRC20); nothing changed.',
  },
  [UsdtErrorCode.DEPOSIT_ON_CHAIN]: {
    status: 409,
    message: 'USDT 充值按链上确认自动入账，不能手工处理',
    meaning: 'deposit:confirm or deposit:reject named a USDT deposit: it is credited by its confirmations alone; nothing changed.',
  },
  [UsdtErrorCode.GATEWAY_UNAVAILABLE]: {
    status: 503,
    message: 'USDT 充值地址暂时无法获取，请稍后重试',
    meaning: "The account has no USDT address yet and the crypto gateway did not answer the request for one; nothing was stored, the next call asks again.",
  },
  [UsdtErrorCode.GATEWAY_AMOUNT_INVALID]: {
    status: 400,
    message: usdtMessages.amount,
    meaning: 'A signed crypto gateway deposit event whose amount is not a USDT amount (above zero, at most 6 decimals, at most 1,000,000,000); nothing changed.',
  },
};
