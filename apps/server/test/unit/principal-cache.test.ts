import { describe, expect, it } from 'vitest';
import { PrincipalCache } from '../../src/db/principal-cache.ts';

function cache() {
  let now = 1_000_000;
  const kept = new PrincipalCache<string>(() => now);
  return { kept, advance: (ms: number) => (now += ms) };
}

describe('the callers a process keeps', () => {
  it('keeps nothing until the changes are heard, and nothing after hearing them lapsed until heard again', () => {
    const { kept } = cache();
    kept.keep(kept.ticket(), 'h1', 'acc1', 'caller 1');
    expect(kept.get('h1')).toBeUndefined();
    kept.resumed();
    kept.keep(kept.ticket(), 'h1', 'acc1', 'caller 1');
    expect(kept.get('h1')).toBe('caller 1');
    kept.lapsed();
    expect(kept.get('h1')).toBeUndefined();
    kept.keep(kept.ticket(), 'h1', 'acc1', 'caller 1');
    expect(kept.size).toBe(0);
    kept.resumed();
    kept.keep(kept.ticket(), 'h1', 'acc1', 'caller 1');
    expect(kept.size).toBe(1);
  });

  it('answers a caller for 30 seconds after reading it, and keeps its age when it is updated', () => {
    const { kept, advance } = cache();
    kept.resumed();
    kept.keep(kept.ticket(), 'h1', 'acc1', 'caller 1');
    advance(20_000);
    kept.update('h1', 'caller 1 seen again');
    expect(kept.get('h1')).toBe('caller 1 seen again');
    advance(10_000);
    expect(kept.get('h1')).toBe('caller 1 seen again');
    advance(1);
    expect(kept.get('h1')).toBeUndefined();
    expect(kept.size).toBe(0);
  });

  it("a change to an account lets go of that account's callers only", () => {
    const { kept } = cache();
    kept.resumed();
    kept.keep(kept.ticket(), 'h1', 'acc1', 'caller 1');
    kept.keep(kept.ticket(), 'h2', 'acc1', 'caller 1, another session');
    kept.keep(kept.ticket(), 'h3', 'acc2', 'caller 2');
    kept.changed('acc1:901');
    expect(kept.get('h1')).toBeUndefined();
    expect(kept.get('h2')).toBeUndefined();
    expect(kept.get('h3')).toBe('caller 2');
  });

  it('does not keep a read begun before a change was heard', () => {
    const { kept } = cache();
    kept.resumed();
    const ticket = kept.ticket();
    kept.changed('acc1:901');
    kept.keep(ticket, 'h1', 'acc1', 'read before the change');
    expect(kept.get('h1')).toBeUndefined();
    kept.keep(kept.ticket(), 'h1', 'acc1', 'read after it');
    expect(kept.get('h1')).toBe('read after it');
  });

  it('keeps nothing of an account a change was written to here until that change is heard committed', () => {
    const { kept } = cache();
    kept.resumed();
    kept.keep(kept.ticket(), 'h1', 'acc1', 'before');
    kept.noticed('acc1:901');
    expect(kept.get('h1')).toBeUndefined();
    kept.keep(kept.ticket(), 'h1', 'acc1', 'read while it is being written');
    expect(kept.get('h1')).toBeUndefined();
    kept.keep(kept.ticket(), 'h2', 'acc2', 'another account');
    expect(kept.get('h2')).toBe('another account');
    // another transaction's change to the same account does not end this one's hold
    kept.noticed('acc1:902');
    kept.changed('acc1:901');
    kept.keep(kept.ticket(), 'h1', 'acc1', 'read before 902 committed');
    expect(kept.get('h1')).toBeUndefined();
    kept.changed('acc1:902');
    kept.keep(kept.ticket(), 'h1', 'acc1', 'read after both');
    expect(kept.get('h1')).toBe('read after both');
  });

  it('a change written here and never committed (rolled back) holds its account for a minute', () => {
    const { kept, advance } = cache();
    kept.resumed();
    kept.noticed('acc1:901');
    advance(59_000);
    kept.keep(kept.ticket(), 'h1', 'acc1', 'caller 1');
    expect(kept.get('h1')).toBeUndefined();
    advance(1_000);
    kept.keep(kept.ticket(), 'h1', 'acc1', 'caller 1');
    expect(kept.get('h1')).toBe('caller 1');
  });
});
