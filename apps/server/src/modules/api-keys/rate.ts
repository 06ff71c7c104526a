/**
 * A key's rate (calls a second) shared by every server process, counted in PostgreSQL a lease at a
 * time: a process takes up to `API_KEY_RATE_LEASE` calls of the key's second from the shared count in one
 * statement and answers them from memory, then takes more. The shared count is the sum of every
 * process's leases, never more than the limit, so the processes together never admit more calls in a
 * second than the limit; a process that stops getting the key's calls mid-second leaves what it leased
 * and did not use (at most `API_KEY_RATE_LEASE - 1` calls), which the others cannot take that second.
 */
import { API_KEY_RATE_LEASE } from '@portal/contract/developer';
import type { Db } from '../../db/engine.ts';
import type { Clock } from '../../lib/clock.ts';
import { leaseKeyCalls } from './limits-store.ts';

/** Windows kept before those of past seconds are swept. */
const SWEEP_FROM = 10_000;

/** A count as @fastify/rate-limit reads it: the calls of the window so far, this one in; the milliseconds left of it. */
export interface Counted {
  current: number;
  ttl: number;
}

/** What this process holds of one key's current window. */
interface Window {
  start: number;
  /** calls leased and not used yet */
  left: number;
  /** the shared count as of this process's last lease, up to the limit */
  counted: number;
  /** the shared count reached the limit: nothing more to lease this window */
  full: boolean;
  /** the lease being asked for: other calls of the key wait for it instead of asking too */
  pending: Promise<void> | undefined;
}

export function createKeyRate({ db, clock }: { db: Db; clock: Clock }) {
  const windows = new Map<string, Window>();
  let sweepAt = SWEEP_FROM;

  function windowOf(keyId: string, now: number, windowMs: number) {
    const start = now - (now % windowMs);
    let window = windows.get(keyId);
    if (window?.start !== start) {
      if (windows.size >= sweepAt) sweep(start);
      window = { start, left: 0, counted: 0, full: false, pending: undefined };
      windows.set(keyId, window);
    }
    return window;
  }

  /** Forgets the windows of seconds gone by, and sweeps again when twice as many are held. */
  function sweep(start: number) {
    for (const [keyId, window] of windows) if (window.start !== start && !window.pending) windows.delete(keyId);
    sweepAt = Math.max(SWEEP_FROM, windows.size * 2);
  }

  /** A call counted from what the window holds, or nothing when a lease must be asked for first. */
  function take(window: Window, now: number, windowMs: number, max: number): Counted | undefined {
    const ttl = Math.max(1, window.start + windowMs - now);
    if (window.left > 0) {
      window.left -= 1;
      return { current: window.counted - window.left, ttl };
    }
    if (window.full) return { current: max + 1, ttl };
    return undefined;
  }

  async function lease(keyId: string, window: Window, max: number) {
    const asked = Math.min(API_KEY_RATE_LEASE, max);
    const row = await leaseKeyCalls(db, keyId, new Date(window.start), asked);
    const before = row.calls - asked;
    const granted = Math.max(0, Math.min(asked, max - before));
    window.left += granted;
    window.counted = before + granted;
    if (window.counted >= max) window.full = true;
  }

  async function countLater(keyId: string, windowMs: number, max: number): Promise<Counted> {
    for (;;) {
      const now = clock.now().getTime();
      const window = windowOf(keyId, now, windowMs);
      const counted = take(window, now, windowMs, max);
      if (counted) return counted;
      window.pending ??= lease(keyId, window, max).finally(() => {
        window.pending = undefined;
      });
      await window.pending;
    }
  }

  return {
    /**
     * Counts a call of the key in the current window of `windowMs` (windows start on multiples of it)
     * against `max`: at once when this process holds a leased call of it (or knows the window full),
     * after one statement otherwise.
     */
    countCall(keyId: string, windowMs: number, max: number): Counted | Promise<Counted> {
      const now = clock.now().getTime();
      return take(windowOf(keyId, now, windowMs), now, windowMs, max) ?? countLater(keyId, windowMs, max);
    },
  };
}
