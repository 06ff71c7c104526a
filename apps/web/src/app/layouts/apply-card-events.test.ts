import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { getAccountBalanceQueryOptions } from '../../domain/wallet/api/get-account-balance.ts';
import { getBalanceStatusQueryOptions } from '../../domain/wallet/api/get-balance-status.ts';
import { cardKeys } from '../../domain/cards/api/card-keys.ts';
import { useThreeDsStore } from '../../features/spending/stores/three-ds.ts';
import { applyCardEvents } from './apply-card-events.ts';

const LIST = cardKeys.list({ filters: {}, sort: '-created_at', page: 1, pageSize: 20 });
const WALLET_BALANCES = getAccountBalanceQueryOptions().queryKey;
const WALLET_STATUS = getBalanceStatusQueryOptions().queryKey;

function cacheWithCards() {
  const queryClient = new QueryClient();
  for (const key of [LIST, cardKeys.summary(), cardKeys.openedAvailable(), cardKeys.detail('c-1'), cardKeys.detail('c-2'), WALLET_BALANCES, WALLET_STATUS, cardKeys.verification()]) {
    queryClient.setQueryData(key, {});
  }
  const invalidated = () =>
    queryClient
      .getQueryCache()
      .getAll()
      .filter((query) => query.state.isInvalidated)
      .map((query) => JSON.stringify(query.queryKey))
      .sort();
  return { queryClient, invalidated };
}

const names = (...keys: (readonly unknown[])[]) => keys.map((key) => JSON.stringify(key)).sort();

describe('the stream’s events on the card screens', () => {
  it('CARD_STATUS reads that card, the list, the summary and the quotas again', () => {
    const { queryClient, invalidated } = cacheWithCards();
    applyCardEvents(queryClient, { type: 'CARD_STATUS', card_id: 'c-1', card_status: 'NORMAL' });
    expect(invalidated()).toEqual(
      names(LIST, cardKeys.summary(), cardKeys.openedAvailable(), cardKeys.detail('c-1'), WALLET_BALANCES, WALLET_STATUS),
    );
  });

  it('BALANCE_CHANGED reads every card’s balance again, and the wallet the screens pay from', () => {
    const { queryClient, invalidated } = cacheWithCards();
    applyCardEvents(queryClient, { type: 'BALANCE_CHANGED' });
    expect(invalidated()).toContain(JSON.stringify(cardKeys.detail('c-2')));
    expect(invalidated()).toContain(JSON.stringify(WALLET_BALANCES));
    expect(invalidated()).not.toContain(JSON.stringify(cardKeys.verification()));
  });

  it('FREEZE asks again whether the wallet can pay', () => {
    const { queryClient, invalidated } = cacheWithCards();
    applyCardEvents(queryClient, { type: 'FREEZE', id: 'm-1', status: 'fail' });
    expect(invalidated()).toEqual(names(WALLET_BALANCES, WALLET_STATUS));
  });

  it('CARD_TRANSACTION reads that card again with its transactions and controls, and the list’s figures', () => {
    const { queryClient, invalidated } = cacheWithCards();
    const transactions = cardKeys.transactions('c-1', { filters: {}, page: 1, pageSize: 20 });
    queryClient.setQueryData(transactions, {});
    queryClient.setQueryData(cardKeys.controls('c-1'), {});
    applyCardEvents(queryClient, { type: 'CARD_TRANSACTION', card_id: 'c-1', transaction_id: 't-1', status: 'CLOSED', amount: '1.00', currency: 'USD' });
    expect(invalidated()).toEqual(
      names(LIST, cardKeys.summary(), cardKeys.openedAvailable(), cardKeys.detail('c-1'), transactions, cardKeys.controls('c-1'), WALLET_BALANCES, WALLET_STATUS),
    );
  });

  it('THREE_DS_OTP shows the code, and nothing of the cache moves', () => {
    const { queryClient, invalidated } = cacheWithCards();
    const otp = { card_id: 'c-1', last4: '4444', nickname: '卡', code: '123456', merchant_name: 'Shop', amount: '1.00', currency: 'USD', expires_at: '2026-03-01T08:05:00Z' };
    applyCardEvents(queryClient, { type: 'THREE_DS_OTP', ...otp });
    expect(useThreeDsStore.getState().codes).toEqual([{ ...otp, key: expect.any(String) }]);
    expect(invalidated()).toEqual([]);
    useThreeDsStore.getState().clear();
  });

  it('leaves the cards alone on other events', () => {
    const { queryClient, invalidated } = cacheWithCards();
    applyCardEvents(queryClient, { type: 'UNREAD_QUANTITY', unread_quantity: 3 });
    expect(invalidated()).toEqual([]);
  });
});
