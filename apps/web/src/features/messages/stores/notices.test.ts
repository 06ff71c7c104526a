import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_NOTICES, type Notice, useNoticesStore } from './notices.ts';

const notice = (id: string): Notice => ({ id, kind: 'message', type: 'NOTICE', title: `消息${id}`, content: '', status: 'success' });

describe('the floating notices', () => {
  beforeEach(() => useNoticesStore.getState().clear());

  it('keeps the newest first and at most five', () => {
    for (const id of ['1', '2', '3', '4', '5', '6']) useNoticesStore.getState().show(notice(id));
    expect(MAX_NOTICES).toBe(5);
    expect(useNoticesStore.getState().notices.map((shown) => shown.id)).toEqual(['6', '5', '4', '3', '2']);
  });

  it('shows a message once, however often it arrives', () => {
    useNoticesStore.getState().show(notice('1'));
    useNoticesStore.getState().show(notice('2'));
    useNoticesStore.getState().show(notice('1'));
    expect(useNoticesStore.getState().notices.map((shown) => shown.id)).toEqual(['1', '2']);
  });

  it('dismisses one notice and leaves the others', () => {
    for (const id of ['1', '2', '3']) useNoticesStore.getState().show(notice(id));
    useNoticesStore.getState().dismiss('2');
    expect(useNoticesStore.getState().notices.map((shown) => shown.id)).toEqual(['3', '1']);
  });
});
