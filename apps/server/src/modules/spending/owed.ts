import type { Currency } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import type { Tx } from '../../db/engine.ts';
import { CARD_NETWORK, MERCHANT_FEE_INCOME, walletOf } from '../ledger/service.ts';
import type { SpendingDeps } from './deps.ts';
import { availableIn, isRefusal } from './keys.ts';
import { markCollected, openOwedForUpdate } from './store.ts';

/** What a debt is called in the customer's message. */
const OWED_LABELS: Record<string, string> = { DECLINED_FEE: '拒付手续费', SETTLEMENT_OVER: '超出授权的结算金额' };

/** The station message that tells what the money that came in paid of the account's debts (HTML, values from the server). */
export const owedNotice = (v: { currency: string; came: string; total: string; parts: Array<{ label: string; amount: string }> }) => ({
  title: '已收取欠费',
  content:
    `<p>您的钱包入账 ${v.came} ${v.currency}，已从中收取此前未能扣收的费用共 ${v.total} ${v.currency}：</p>` +
    `<ul>${v.parts.map((part) => `<li>${part.label} ${part.amount} ${v.currency}</li>`).join('')}</ul>` +
    '<p>详情可在钱包流水中查看。</p>',
});

/**
 * Collecting what is owed (charges_owed) from money that has just come into the wallet, inside that
 * money's transaction: the debts in its currency, oldest first, up to what came in. A declined
 * payment's fee goes to fee income (DECLINED_FEE); a settlement above what the card held goes to the
 * card network it was owed to (ADJUST_OUT). A debt's row is locked while it is collected, and each
 * step's key names the debt and what had been collected of it, so a replay moves nothing twice.
 * Nothing is taken from a frozen wallet, nor more than it holds.
 */
export function owedPart({ ledger, messages, clock }: Pick<SpendingDeps, 'ledger' | 'messages' | 'clock'>) {
  async function collectOwed(tx: Tx, request: { merchantId: string; accountId: string; currency: Currency; cameIn: bigint }) {
    const rows = await openOwedForUpdate(tx, request.merchantId, request.accountId, request.currency);
    let left = request.cameIn;
    const parts: Array<{ label: string; amount: string }> = [];
    let total = 0n;
    const books = ledger.within(tx);
    for (const row of rows) {
      if (left <= 0n) break;
      const due = row.amount - row.collected;
      let take = due < left ? due : left;
      let taken = 0n;
      for (let attempt = 0; attempt < 3 && take > 0n; attempt += 1) {
        try {
          const moved = await books.transfer({
            merchantId: request.merchantId,
            key: `owed:${row.id}:${row.collected}`,
            currency: request.currency,
            type: row.kind === 'DECLINED_FEE' ? 'DECLINED_FEE' : 'ADJUST_OUT',
            holderId: request.accountId,
            lines: [
              { account: walletOf(request.accountId), amount: -take },
              { account: row.kind === 'DECLINED_FEE' ? MERCHANT_FEE_INCOME : CARD_NETWORK, amount: take },
            ],
            reference: `owed:${row.id}`,
            memo: `收取欠费：${OWED_LABELS[row.kind] ?? row.kind}（授权 ${row.authorizationId}）`,
          });
          taken = toMinorUnits(moved.answer.amount);
          break;
        } catch (error) {
          if (isRefusal(error, ErrorCode.WALLET_FROZEN)) return { collected: total };
          if (!isRefusal(error, ErrorCode.INSUFFICIENT_FUNDS)) throw error;
          const available = availableIn(error);
          take = available < take ? available : take;
        }
      }
      if (taken <= 0n) break;
      await markCollected(tx, row.id, taken, clock.now());
      left -= taken;
      total += taken;
      parts.push({ label: OWED_LABELS[row.kind] ?? row.kind, amount: fromMinorUnits(taken) });
    }
    if (total > 0n) {
      await messages.post(tx, {
        merchantId: request.merchantId,
        accountId: request.accountId,
        type: 'OWED_COLLECTED',
        status: 'success',
        ...owedNotice({ currency: request.currency, came: fromMinorUnits(request.cameIn), total: fromMinorUnits(total), parts }),
      });
    }
    return { collected: total };
  }
  return { collectOwed };
}
