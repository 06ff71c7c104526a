import { useState } from 'react';
import { isApiError, markShownInPlace } from '../../../lib/http.ts';
import { httpText } from '../../../locales/zh-CN/http.ts';

/** One submission: its key and the values it was made for. */
interface Submission {
  key: string;
  fingerprint: string;
}

/** The same values give the same text whatever order their fields were written in. */
function fingerprintOf(values: unknown): string {
  return JSON.stringify(values, (_, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}

/**
 * Whether a failed call may have moved money: no answer came (the network, a gateway's bare HTTP
 * error), so the server may have done it. A refusal with a code is a definite answer: nothing moved.
 */
export const outcomeUnknown = (error: unknown) => !isApiError(error) || error.kind !== 'api';

/**
 * What a dialog says in place of a toast when its call's outcome is unknown (the HTTP module's
 * message, spec §8), marking it shown there; null for a definite answer, told as usual.
 */
export function unansweredMessage(error: unknown): string | null {
  if (!outcomeUnknown(error)) return null;
  markShownInPlace(error);
  return isApiError(error) ? error.message : httpText.networkErrorOnSave;
}

export interface IdempotencyKeys {
  /**
   * The Idempotency-Key for a submission of `values`: the key of the last submission while its
   * outcome is unknown and the values are the same (a retry), else a new one.
   */
  keyFor: (values: unknown) => string;
  /** The submission answered: pass its error, or nothing on success. */
  settle: (error?: unknown) => void;
}

/**
 * The keys of one form's money-moving submissions (cards.md: every such call carries one). A retry
 * after the network failed ("当前网络异常，数据已保存，恢复后提交即可") sends the same key again, so the
 * server answers the first attempt's outcome instead of moving the money twice; a success, a
 * refusal, or other values make the next submission a new one.
 */
export function createIdempotencyKeys(newKey: () => string = () => crypto.randomUUID()): IdempotencyKeys {
  let pending: Submission | null = null;
  return {
    keyFor(values) {
      const fingerprint = fingerprintOf(values);
      if (pending?.fingerprint !== fingerprint) pending = { key: newKey(), fingerprint };
      return pending.key;
    },
    settle(error) {
      if (error === undefined || !outcomeUnknown(error)) pending = null;
    },
  };
}

/** A form's idempotency keys, kept for as long as the component that holds them is mounted. */
export function useIdempotencyKey(): IdempotencyKeys {
  const [keys] = useState(createIdempotencyKeys);
  return keys;
}
