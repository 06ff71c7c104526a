import { accountOfChange as accountOf } from './changes.ts';
import type { ChangeFollower } from './engine.ts';

export { PRINCIPAL_CHANGED_CHANNEL } from './changes.ts';

/** A caller resolved a moment ago is answered from memory for at most this long. */
const KEEP_MS = 30_000;
/** A change this process began and never heard committed (rolled back) stops holding its account after this. */
const HOLD_MS = 60_000;
const MAX_ENTRIES = 50_000;

interface Entry<T> {
  value: T;
  accountId: string;
  at: number;
}

/**
 * The callers this process resolved, by what their token is looked up by (a session's hash, an API
 * key's prefix), so a call need not read them again (decision 0012). Every change to a caller's
 * session or key, member or account empties that account's
 * entries: heard from any process once its transaction commits (`changed`), and, for a change written
 * on this process, already when the statement runs (`noticed`), so this process answers nothing from
 * memory about that account until it has heard the change commit. Nothing is kept while the channel is
 * not heard (before `resumed`, after `lapsed`): the caller is then read on every call.
 */
export class PrincipalCache<T> implements ChangeFollower {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly byAccount = new Map<string, Set<string>>();
  /** changes written here and not yet heard committed: `<account>:<transaction>` → until when */
  private readonly holds = new Map<string, number>();
  private heard = false;
  /** moves on every change: a read begun before it is not kept */
  private generation = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** The caller behind a token's hash, if this process read it a moment ago and nothing changed since. */
  get(tokenHash: string): T | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (this.now() - entry.at > KEEP_MS) {
      this.drop(tokenHash, entry.accountId);
      return undefined;
    }
    return entry.value;
  }

  /** Taken before reading a caller; `keep` stores the read only if nothing changed in between. */
  ticket() {
    return this.generation;
  }

  keep(ticket: number, tokenHash: string, accountId: string, value: T) {
    if (!this.heard || ticket !== this.generation || this.held(accountId)) return;
    if (this.entries.size >= MAX_ENTRIES) this.forgetAll();
    this.entries.set(tokenHash, { value, accountId, at: this.now() });
    let tokens = this.byAccount.get(accountId);
    if (!tokens) {
      tokens = new Set();
      this.byAccount.set(accountId, tokens);
    }
    tokens.add(tokenHash);
  }

  /** Replaces a kept caller's value (its session seen again), keeping its age. */
  update(tokenHash: string, value: T) {
    const entry = this.entries.get(tokenHash);
    if (entry) entry.value = value;
  }

  changed(payload: string) {
    this.holds.delete(payload);
    this.forgetAccount(accountOf(payload));
  }

  noticed(payload: string) {
    this.holds.set(payload, this.now() + HOLD_MS);
    this.forgetAccount(accountOf(payload));
  }

  lapsed() {
    this.heard = false;
    this.forgetAll();
  }

  resumed() {
    this.heard = true;
  }

  /** How many callers are kept (for tests and the operator's view). */
  get size() {
    return this.entries.size;
  }

  private held(accountId: string) {
    const now = this.now();
    for (const [key, until] of this.holds) {
      if (until <= now) this.holds.delete(key);
      else if (accountOf(key) === accountId) return true;
    }
    return false;
  }

  private forgetAccount(accountId: string) {
    this.generation += 1;
    for (const tokenHash of this.byAccount.get(accountId) ?? []) this.entries.delete(tokenHash);
    this.byAccount.delete(accountId);
  }

  private forgetAll() {
    this.generation += 1;
    this.entries.clear();
    this.byAccount.clear();
  }

  private drop(tokenHash: string, accountId: string) {
    this.entries.delete(tokenHash);
    const tokens = this.byAccount.get(accountId);
    tokens?.delete(tokenHash);
    if (tokens?.size === 0) this.byAccount.delete(accountId);
  }
}
