import type { Currency } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import type { Tx } from '../../db/engine.ts';
import { CARD_NETWORK, MERCHANT_FEE_INCOME, walletOf } from '../ledger/service.ts';
import type { SpendingDeps } from './deps.ts';
import { availableIn, isRefusal } from './keys.ts';
import { markCollected, markCollectedMany, openOwedForUpdate, openOwedForUpdateMany } from './store.ts';

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
  /**
   * collectOwed for many credits of one merchant and currency at once (a statement's chunk), in a few
   * statements: the accounts' open debts locked in one (the wallets are locked already, by the credits),
   * every collection one transfer of the ledger's batch, in the credits' order, each up to what its
   * credit brought, oldest debt first; a frozen wallet pays nothing. Answers what each credit collected.
   */
  async function collectOwedMany(tx: Tx, credits: Array<{ merchantId: string; accountId: string; currency: Currency; cameIn: bigint }>) {
    const collected = credits.map(() => 0n);
    const first = credits[0];
    if (!first) return collected;
    const rows = await openOwedForUpdateMany(tx, first.merchantId, [...new Set(credits.map((c) => c.accountId))], first.currency);
    if (rows.length === 0) return collected;
    const open = rows.map((row) => ({ row, collected: row.collected }));
    const plans: Array<{ credit: number; debt: (typeof open)[number]; take: bigint; key: string }> = [];
    for (const [n, credit] of credits.entries()) {
      let left = credit.cameIn;
      for (const debt of open) {
        if (left <= 0n) break;
        if (debt.row.accountId !== credit.accountId || debt.collected >= debt.row.amount) continue;
        const take = debt.row.amount - debt.collected < left ? debt.row.amount - debt.collected : left;
        plans.push({ credit: n, debt, take, key: `owed:${debt.row.id}:${debt.collected}` });
        debt.collected += take;
        left -= take;
      }
    }
    const outcomes = await ledger.transferMany(
      tx,
      plans.map(({ credit, debt, take, key }) => ({
        merchantId: first.merchantId,
        key,
        currency: first.currency,
        type: debt.row.kind === 'DECLINED_FEE' ? 'DECLINED_FEE' : 'ADJUST_OUT',
        holderId: (credits[credit] as (typeof credits)[number]).accountId,
        lines: [
          { account: walletOf(debt.row.accountId), amount: -take },
          { account: debt.row.kind === 'DECLINED_FEE' ? MERCHANT_FEE_INCOME : CARD_NETWORK, amount: take },
        ],
        reference: `owed:${debt.row.id}`,
        memo: `收取欠费：${OWED_LABELS[debt.row.kind] ?? debt.row.kind}（授权 ${debt.row.authorizationId}）`,
      })),
    );
    const taken = new Map<string, bigint>();
    const parts = credits.map(() => [] as Array<{ label: string; amount: string }>);
    for (const [n, outcome] of outcomes.entries()) {
      const plan = plans[n] as (typeof plans)[number];
      if (!outcome.result) {
        // a frozen wallet pays nothing; any other refusal is the ledger's to explain
        if (!isRefusal(outcome.refused, ErrorCode.WALLET_FROZEN)) throw outcome.refused;
        continue;
      }
      const amount = toMinorUnits(outcome.result.answer.amount);
      taken.set(plan.debt.row.id, (taken.get(plan.debt.row.id) ?? 0n) + amount);
      collected[plan.credit] = (collected[plan.credit] as bigint) + amount;
      parts[plan.credit]?.push({ label: OWED_LABELS[plan.debt.row.kind] ?? plan.debt.row.kind, amount: fromMinorUnits(amount) });
    }
    await markCollectedMany(tx, [...taken].map(([id, amount]) => ({ id, amount })), clock.now());
    await messages.postMany(
      tx,
      credits.flatMap((credit, n) =>
        (collected[n] as bigint) > 0n
          ? [
              {
                merchantId: credit.merchantId,
                accountId: credit.accountId,
                type: 'OWED_COLLECTED',
                status: 'success',
                ...owedNotice({ currency: credit.currency, came: fromMinorUnits(credit.cameIn), total: fromMinorUnits(collected[n] as bigint), parts: parts[n] ?? [] }),
              },
            ]
          : [],
      ),
    );
    return collected;
  }

  return { collectOwed, collectOwedMany };
}
