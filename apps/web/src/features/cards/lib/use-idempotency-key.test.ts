// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/http.ts';
import { createIdempotencyKeys, useIdempotencyKey } from './use-idempotency-key.ts';

const networkError = () => new ApiError({ kind: 'network', message: '当前网络异常，数据已保存，恢复后提交即可' });
const refusal = () => new ApiError({ kind: 'api', code: 3001, status: 400, message: '钱包可用余额不足（可用 1.00 USD）' });

function counter() {
  let next = 0;
  return () => {
    next += 1;
    return `key-${next}`;
  };
}

describe('idempotency keys', () => {
  it('send the same key again when the same submission is retried after the network failed', () => {
    const keys = createIdempotencyKeys(counter());
    const first = keys.keyFor({ product_id: 'p-1', amount: '10.00', nickname: '广告' });
    keys.settle(networkError());
    // the same values, written in another order, are the same submission
    expect(keys.keyFor({ nickname: '广告', amount: '10.00', product_id: 'p-1' })).toBe(first);
    keys.settle(networkError());
    expect(keys.keyFor({ product_id: 'p-1', amount: '10.00', nickname: '广告' })).toBe(first);
  });

  it('keep the key after a gateway error without an answer of the server', () => {
    const keys = createIdempotencyKeys(counter());
    const first = keys.keyFor({ amount: '5.00' });
    keys.settle(new ApiError({ kind: 'http', status: 502, message: '服务暂不可用' }));
    expect(keys.keyFor({ amount: '5.00' })).toBe(first);
  });

  it('make a new key after a success', () => {
    const keys = createIdempotencyKeys(counter());
    const first = keys.keyFor({ amount: '5.00' });
    keys.settle();
    expect(keys.keyFor({ amount: '5.00' })).not.toBe(first);
  });

  it('make a new key when the values change', () => {
    const keys = createIdempotencyKeys(counter());
    const first = keys.keyFor({ amount: '5.00' });
    keys.settle(networkError());
    expect(keys.keyFor({ amount: '6.00' })).not.toBe(first);
  });

  it('make a new key after a refusal, which moved nothing', () => {
    const keys = createIdempotencyKeys(counter());
    const first = keys.keyFor({ amount: '5.00' });
    keys.settle(refusal());
    expect(keys.keyFor({ amount: '5.00' })).not.toBe(first);
  });

  it('are random UUIDs, kept by the component across renders', () => {
    const { result, rerender } = renderHook(() => useIdempotencyKey());
    const keys = result.current;
    const first = keys.keyFor({ amount: '5.00' });
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    act(() => keys.settle(networkError()));
    rerender();
    expect(result.current).toBe(keys);
    expect(result.current.keyFor({ amount: '5.00' })).toBe(first);
    result.current.settle();
    expect(result.current.keyFor({ amount: '5.00' })).not.toBe(first);
  });
});
