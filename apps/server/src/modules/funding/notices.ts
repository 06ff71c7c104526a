import { DEPOSIT_STATUS_LABELS, type DepositItem } from '@portal/contract/funding';
import { fromMinorUnits } from '@portal/contract/money';
import { formatFeePercent, formatRate, formatUsdt, usdtCredit } from '@portal/contract/usdt';
import { escapeHtml } from '../../lib/html.ts';
import type { DepositRow } from './store.ts';

/** A decided USDT deposit's conversion, by the contract's one rule from what it was decided at. */
function conversionOf(row: DepositRow): DepositItem['conversion'] {
  if (row.kind !== 'USDT' || row.usdtRateMicros === null || row.usdtFeeBps === null) return null;
  const { value, fee } = usdtCredit(row.amount, row.usdtRateMicros, row.usdtFeeBps);
  return { rate: formatRate(row.usdtRateMicros), fee_percent: formatFeePercent(row.usdtFeeBps), value: fromMinorUnits(value), fee: fromMinorUnits(fee) };
}

/** A deposit as the customer reads it. */
export const depositView = (row: DepositRow): DepositItem => ({
  id: row.id,
  kind: row.kind as DepositItem['kind'],
  source: row.source as DepositItem['source'],
  currency: row.currency as DepositItem['currency'],
  amount: row.kind === 'USDT' ? formatUsdt(row.amount) : fromMinorUnits(row.amount),
  credited_amount: row.creditedAmount === null ? null : fromMinorUnits(row.creditedAmount),
  payer_name: row.payerName,
  transferred_at: row.transferredAt.toISOString(),
  status: row.status as DepositItem['status'],
  reason: row.reason,
  receipt_file_id: row.receiptId,
  confirmations: row.confirmations,
  confirmations_required: row.confirmationsRequired,
  conversion: conversionOf(row),
  created_at: row.createdAt.toISOString(),
  decided_at: row.decidedAt ? row.decidedAt.toISOString() : null,
});

/** The station messages and e-mail of a top-up's decision (HTML escaped where a value came from outside). */
export const depositNotices = {
  credited: (v: { amount: string; currency: string; payer: string }) => ({
    title: '充值已到账',
    content: `<p>您的钱包已入账 ${v.amount} ${v.currency}（付款人：${escapeHtml(v.payer)}），可在钱包流水中查看。</p>`,
  }),
  rejected: (v: { amount: string; currency: string; reason: string }) => ({
    title: '充值通知未通过',
    content:
      `<p>您提交的 ${v.amount} ${v.currency} 充值通知未通过审核（${DEPOSIT_STATUS_LABELS.REJECTED}）。</p>` +
      `${v.reason ? `<p>原因：${escapeHtml(v.reason)}</p>` : ''}<p>如有疑问，请联系客服。</p>`,
  }),
  creditedMail: (v: { amount: string; currency: string; payer: string; merchant: string }) => ({
    subject: `【${v.merchant}】充值已到账 ${v.amount} ${v.currency}`,
    text: `您好：\n\n您的钱包已入账 ${v.amount} ${v.currency}（付款人：${v.payer}）。登录后可在钱包流水中查看明细。\n\n${v.merchant}`,
  }),
};
