import { CardErrorCode } from '@portal/contract/card-errors';
import { ErrorCode } from '@portal/contract/errors';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { type KeyedCall, type TradePasswordChecks, tradePasswordHook } from '../../src/http/trade-password-hook.ts';

/** The checks a member's trade password would answer, recording what the hook asked. */
function fakeChecks(bound: Map<string, KeyedCall> = new Map()) {
  const asked: { memberId: string; given: string | undefined; set: boolean }[] = [];
  const checks: TradePasswordChecks = {
    confirm: async (memberId, given, set) => {
      asked.push({ memberId, given, set });
    },
    boundCall: async (_accountId, key) => bound.get(key),
    bindCall: async (_accountId, call) => {
      if (bound.has(call.key)) return false;
      bound.set(call.key, call);
      return true;
    },
  };
  return { checks, asked, bound };
}

function request(body: Record<string, unknown>, options: { key?: string; url?: string; set?: boolean } = {}) {
  return {
    method: 'POST',
    routeOptions: { url: options.url ?? '/api/v1/card/recharge' },
    params: {},
    body,
    headers: options.key ? { 'idempotency-key': options.key } : {},
    // the trade password is the member's own
    principal: { account: { id: 'account-1' }, member: { id: 'member-1', trxPasswordSet: options.set ?? true } },
  } as unknown as FastifyRequest;
}

describe('the trade password preHandler', () => {
  it('hands the check what the session read: whether a trade password is set, and the one given', async () => {
    const { checks, asked } = fakeChecks();
    await tradePasswordHook(checks)(request({ trx_password: '123456' }, { set: false }));
    await tradePasswordHook(checks)(request({ trx_password: '654321' }, { set: true }));
    expect(asked).toEqual([
      { memberId: 'member-1', given: '123456', set: false },
      { memberId: 'member-1', given: '654321', set: true },
    ]);
  });

  it('asks nothing when the call says this body moves no money', async () => {
    const { checks, asked } = fakeChecks();
    await tradePasswordHook(checks, () => false)(request({ trx_password: '123456' }));
    expect(asked).toEqual([]);
  });

  it('binds a keyed call to its key, and refuses the key for another call (1006) before any check', async () => {
    const { checks, asked, bound } = fakeChecks();
    const answered = async () => false;
    await tradePasswordHook(checks, undefined, { answered })(request({ amount: '1' }, { key: 'key-0001' }));
    expect(bound.get('key-0001')?.operation).toBe('POST /api/v1/card/recharge');
    const other = tradePasswordHook(checks, undefined, { answered })(request({ amount: '1' }, { key: 'key-0001', url: '/api/v1/card/withdraw' }));
    await expect(other).rejects.toMatchObject({ code: ErrorCode.IDEMPOTENCY_CONFLICT });
    expect(asked).toHaveLength(1);
  });

  it('lets the same request again through without the trade password once its call kept the first answer', async () => {
    const { checks, asked } = fakeChecks();
    const hook = tradePasswordHook(checks, undefined, { answered: async () => true });
    await hook(request({ amount: '1', trx_password: '123456' }, { key: 'key-0002' }));
    await hook(request({ amount: '1', trx_password: 'wrong' }, { key: 'key-0002' }));
    expect(asked.map((a) => a.given)).toEqual(['123456']);
  });

  it('refuses a keyed call without an Idempotency-Key (1008), asking nothing', async () => {
    const { checks, asked } = fakeChecks();
    const hook = tradePasswordHook(checks, undefined, { answered: async () => true });
    await expect(hook(request({ amount: '1' }))).rejects.toMatchObject({ code: CardErrorCode.IDEMPOTENCY_KEY_MISSING });
    expect(asked).toEqual([]);
  });
});
