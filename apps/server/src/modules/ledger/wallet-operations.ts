import { type AccountRef, cardAccountOf, MERCHANT_FEE_INCOME, MERCHANT_FUNDING, walletOf } from './accounts.ts';
import { type CardTransferRequest, checkAmount, type FeeRequest, type TransferRequest, type WalletAmountRequest } from './requests.ts';

/** The wallet's own movements, as the seven transaction types of spec §3: each is a transfer request. */

function walletTransfer(type: string, sign: 1n | -1n, other: AccountRef) {
  return (request: WalletAmountRequest): TransferRequest => {
    checkAmount(request.amount);
    return {
      merchantId: request.merchantId,
      key: request.key,
      currency: request.currency,
      type,
      holderId: request.accountId,
      lines: [
        { account: walletOf(request.accountId), amount: sign * request.amount },
        { account: other, amount: -sign * request.amount },
      ],
      ...(request.reference !== undefined ? { reference: request.reference } : {}),
      ...(request.memo !== undefined ? { memo: request.memo } : {}),
    };
  };
}

/** ADMIN_RECHARGE_IN: the merchant funds the wallet. */
export const rechargeRequest = walletTransfer('ADMIN_RECHARGE_IN', 1n, MERCHANT_FUNDING);
/** ADMIN_RECHARGE_OUT: the merchant takes money back out of the wallet. */
export const deductRequest = walletTransfer('ADMIN_RECHARGE_OUT', -1n, MERCHANT_FUNDING);
/** ADJUST_OUT: an adjustment out of the wallet, back to the merchant. */
export const adjustOutRequest = walletTransfer('ADJUST_OUT', -1n, MERCHANT_FUNDING);

/** A fee from the wallet to the merchant's fee income (OPEN_CARD, DECLINED_FEE). */
export const feeRequest = (request: FeeRequest) => walletTransfer(request.type, -1n, MERCHANT_FEE_INCOME)(request);

/** TRANSFER_OUT_TO_CARD: amount to the card, plus its fee to fee income, all from the wallet. */
export function toCardRequest(request: CardTransferRequest): TransferRequest {
  checkAmount(request.amount);
  const fee = request.fee ?? 0n;
  checkAmount(fee, { allowZero: true });
  return {
    merchantId: request.merchantId,
    key: request.key,
    currency: request.currency,
    type: 'TRANSFER_OUT_TO_CARD',
    holderId: request.accountId,
    lines: [
      { account: walletOf(request.accountId), amount: -(request.amount + fee) },
      { account: cardAccountOf(request.cardId, request.accountId), amount: request.amount },
      { account: MERCHANT_FEE_INCOME, amount: fee },
    ],
    reference: request.reference ?? `card:${request.cardId}`,
    ...(request.memo !== undefined ? { memo: request.memo } : {}),
  };
}

/** TRANSFER_IN_FROM_CARD: the card's money back to the wallet (a withdrawal, or a deleted card). */
export function fromCardRequest(request: CardTransferRequest): TransferRequest {
  checkAmount(request.amount);
  return {
    merchantId: request.merchantId,
    key: request.key,
    currency: request.currency,
    type: 'TRANSFER_IN_FROM_CARD',
    holderId: request.accountId,
    lines: [
      { account: cardAccountOf(request.cardId, request.accountId), amount: -request.amount },
      { account: walletOf(request.accountId), amount: request.amount },
    ],
    reference: request.reference ?? `card:${request.cardId}`,
    ...(request.memo !== undefined ? { memo: request.memo } : {}),
  };
}
