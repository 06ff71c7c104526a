import { type CardItem, cardActionsFor } from '@portal/contract/cards';
import { describe, expect, it } from 'vitest';
import { cardChangeFor } from './dialog-card-change.ts';

const card = (status: CardItem['status'], frozenBy: 'CUSTOMER' | 'OPERATOR' | null = null): Pick<CardItem, 'actions' | 'last4' | 'status'> => ({
  status,
  last4: '4242',
  actions: cardActionsFor(status, frozenBy),
});

describe('a dialog open on a card', () => {
  it('still applies while the card allows its action', () => {
    for (const dialog of ['reveal', 'recharge', 'withdraw', 'FREEZE', 'DELETE'] as const) expect(cardChangeFor(dialog, card('NORMAL'))).toBeNull();
    expect(cardChangeFor('UNFREEZE', card('FREEZE'))).toBeNull();
    expect(cardChangeFor('withdraw', card('FREEZE', 'OPERATOR'))).toBeNull();
  });

  it('names the status that stops it once the card was cancelled or frozen elsewhere', () => {
    expect(cardChangeFor('recharge', card('DELETING'))).toBe('DELETING');
    expect(cardChangeFor('recharge', card('DELETE'))).toBe('DELETE');
    expect(cardChangeFor('withdraw', card('DELETE'))).toBe('DELETE');
    expect(cardChangeFor('reveal', card('DELETE'))).toBe('DELETE');
    expect(cardChangeFor('recharge', card('FREEZING'))).toBe('FREEZING');
    expect(cardChangeFor('recharge', card('FREEZE'))).toBe('FREEZE');
    expect(cardChangeFor('FREEZE', card('FREEZE'))).toBe('FREEZE');
    expect(cardChangeFor('DELETE', card('FREEZE', 'OPERATOR'))).toBe('FREEZE');
    expect(cardChangeFor('UNFREEZE', card('NORMAL'))).toBe('NORMAL');
  });

  it('does not offer 查看卡号 on a card not issued yet', () => {
    expect(cardChangeFor('reveal', { status: 'CARD_STATUS_INIT', last4: null, actions: [] })).toBe('CARD_STATUS_INIT');
  });
});
