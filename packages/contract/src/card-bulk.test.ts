import { describe, expect, it } from 'vitest';
import { BULK_ITEM_STATES, bulkActionBody, bulkItemMayMove, bulkItemStatusOf, bulkRechargeAmount, bulkRechargeCost } from './card-bulk.ts';

const product = { topup_fee_rate: '0.01', topup_fee_fixed: '0.30', topup_fee_min: null, topup_fee_max: '5.00' };

describe('bulkRechargeCost', () => {
  it('adds each card its top-up and its fee from the one-card helper, per currency, to the cent', () => {
    const cost = bulkRechargeCost([
      { currency: 'USD', product, amount: 10_00n },
      { currency: 'USD', product, amount: 33_33n },
      { currency: 'CNY', product, amount: 1000_00n },
    ]);
    // 10.00 × 1% + 0.30 = 0.40; 33.33 × 1% + 0.30 = 0.6333 → 0.63 (rounded as one top-up is); 1000 × 1% + 0.30 = 10.30 → at most 5.00
    expect(cost.each).toEqual([
      { amount: 10_00n, fee: 40n },
      { amount: 33_33n, fee: 63n },
      { amount: 1000_00n, fee: 5_00n },
    ]);
    expect(cost.byCurrency.get('USD')).toEqual({ cards: 2, amount: 43_33n, fee: 1_03n });
    expect(cost.byCurrency.get('CNY')).toEqual({ cards: 1, amount: 1000_00n, fee: 5_00n });
  });

  it('costs nothing for a card whose top-up is nothing', () => {
    const cost = bulkRechargeCost([{ currency: 'USD', product, amount: 0n }]);
    expect(cost.each).toEqual([{ amount: 0n, fee: 0n }]);
    expect(cost.byCurrency.size).toBe(0);
  });
});

describe('bulkRechargeAmount', () => {
  it('tops up by the amount, or up to the target from what the card holds, never below nothing', () => {
    expect(bulkRechargeAmount({ amount: '12.50' }, 99_00n)).toBe(12_50n);
    expect(bulkRechargeAmount({ target_balance: '50.00' }, 20_01n)).toBe(29_99n);
    expect(bulkRechargeAmount({ target_balance: '50.00' }, 50_00n)).toBe(0n);
    expect(bulkRechargeAmount({ target_balance: '50.00' }, 70_00n)).toBe(0n);
  });
});

describe('the bulk item state machine', () => {
  it('moves PENDING → RUNNING → SUCCEEDED | FAILED, takes a lost RUNNING item again, and never moves an ended one', () => {
    expect(bulkItemMayMove('PENDING', 'RUNNING')).toBe(true);
    expect(bulkItemMayMove('PENDING', 'SUCCEEDED')).toBe(false);
    expect(bulkItemMayMove('RUNNING', 'RUNNING')).toBe(true);
    expect(bulkItemMayMove('RUNNING', 'SUCCEEDED')).toBe(true);
    expect(bulkItemMayMove('RUNNING', 'FAILED')).toBe(true);
    for (const to of BULK_ITEM_STATES) {
      expect(bulkItemMayMove('SUCCEEDED', to)).toBe(false);
      expect(bulkItemMayMove('FAILED', to)).toBe(false);
    }
  });

  it('answers a claimed item as PENDING', () => {
    expect(bulkItemStatusOf('RUNNING')).toBe('PENDING');
    expect(bulkItemStatusOf('FAILED')).toBe('FAILED');
  });
});

describe('bulkActionBody', () => {
  it('takes ids or a filter, not both nor neither, and each action its own params', () => {
    expect(bulkActionBody.safeParse({ action: 'FREEZE', card_ids: ['a'] }).success).toBe(true);
    expect(bulkActionBody.safeParse({ action: 'FREEZE', filter: { status: 'NORMAL' } }).success).toBe(true);
    expect(bulkActionBody.safeParse({ action: 'FREEZE' }).success).toBe(false);
    expect(bulkActionBody.safeParse({ action: 'FREEZE', card_ids: ['a'], filter: {} }).success).toBe(false);
    expect(bulkActionBody.safeParse({ action: 'RECHARGE', card_ids: ['a'], params: { amount: '10.00' } }).success).toBe(true);
    expect(bulkActionBody.safeParse({ action: 'RECHARGE', card_ids: ['a'], params: { amount: '10.00', target_balance: '5.00' } }).success).toBe(false);
    expect(bulkActionBody.safeParse({ action: 'WITHDRAW', card_ids: ['a'], params: { all: true } }).success).toBe(true);
    expect(bulkActionBody.safeParse({ action: 'WITHDRAW', card_ids: ['a'], params: { all: false } }).success).toBe(false);
    expect(bulkActionBody.safeParse({ action: 'ADD_TAGS', card_ids: ['a'], params: { tags: [] } }).success).toBe(false);
    expect(bulkActionBody.safeParse({ action: 'FREEZE', card_ids: Array.from({ length: 1001 }, (_, i) => `c${i}`) }).success).toBe(false);
  });
});

describe('the tags a bulk action adds', () => {
  it('are held to the one tag rule: no control characters, at most 20 characters counted as characters', () => {
    const body = (tags: string[]) => bulkActionBody.safeParse({ action: 'ADD_TAGS', card_ids: ['a'], params: { tags } });
    expect(body(['a\nb']).success).toBe(false);
    expect(body(['x\u0000']).success).toBe(false);
    expect(body(['😀'.repeat(20)]).success).toBe(true);
    expect(body(['😀'.repeat(21)]).success).toBe(false);
  });
});
