import { AsyncLocalStorage } from 'node:async_hooks';
import type { Call } from '@portal/contract/api/call';
import type { Tx } from '../db/engine.ts';

/**
 * The running call, carried with the request into whatever its handler runs, so that a module can have
 * the call's activity entry written inside the very transaction that makes the change (a crash after
 * the commit then cannot lose it, and a rollback takes it too). The module hands over what the call
 * will answer; who is calling, from where, and how the call is told stay with the activity log.
 */
export interface CallTrace {
  call: Call;
  /** writes the call's entry inside `tx` from what it answers */
  write(tx: Tx, answer: unknown): Promise<void>;
  /** takes the entry written back, inside `tx` (the change it told of was undone) */
  retract(tx: Tx): Promise<void>;
}

const running = new AsyncLocalStorage<CallTrace>();

/** Runs `work` as the call `trace` is of. */
export const withCallTrace = <T>(trace: CallTrace, work: () => Promise<T>) => running.run(trace, work);

/**
 * Inside the change's own transaction: writes the activity entry of `call` when the request running
 * is that call (nothing for another call that uses the same code, an operator's command or a job).
 * `answer` is what the call answers, or the part of it the entry names (a card's id, nickname, last4
 * and currency).
 */
export async function traceWithin(tx: Tx, call: Call, answer: unknown) {
  const trace = running.getStore();
  if (trace?.call === call) await trace.write(tx, answer);
}

/**
 * Inside the transaction that undoes a change already committed (the card issuer did not take the
 * request, the invitation could not be sent): takes back the entry `call` wrote, when the request
 * running is that call, so that the log tells only of what stands.
 */
export async function untraceWithin(tx: Tx, call: Call) {
  const trace = running.getStore();
  if (trace?.call === call) await trace.retract(tx);
}
