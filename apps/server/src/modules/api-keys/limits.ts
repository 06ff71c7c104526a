/**
 * What a key's calls are held to beyond its scopes: a rate (calls a second, leased from a count in
 * PostgreSQL that every server process shares) and, for its writes, one answer per Idempotency-Key.
 */
import { ErrorCode } from '@portal/contract/errors';
import { ApiKeyErrorCode } from '@portal/contract/developer-errors';
import type { Db } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { answerReplay, claimReplay, findReplay, releaseReplay, retakeReplay } from './limits-store.ts';
import { createKeyRate } from './rate.ts';

/** A claim older than this never answered (a request gives up after 60 s): another request may take it over. */
const CLAIM_ABANDONED_MS = 120_000;

/** The first answer of a key's write: its HTTP status and body as sent. */
export interface KeptReply {
  status: number;
  answer: string;
}

export function createKeyLimits({ db, clock }: { db: Db; clock: Clock }) {
  return {
    // the rate of a key's calls, leased from the count every process shares (rate.ts)
    ...createKeyRate({ db, clock }),

    /**
     * Claims the account's Idempotency-Key for a key's write of `fingerprint`: nothing when this
     * request is the first (it then answers or releases it), the first answer when the same request
     * was answered, a conflict (1006) when the key was used for another, 1212 while the first runs.
     */
    async claimWrite(accountId: string, apiKeyId: string, key: string, fingerprint: string): Promise<KeptReply | undefined> {
      // twice at most: a claim released between the insert and the read is claimed again
      for (let attempt = 0; attempt < 2; attempt++) {
        const now = clock.now();
        if (await claimReplay(db, { accountId, key, apiKeyId, fingerprint, claimedAt: now })) return undefined;
        const row = await findReplay(db, accountId, key);
        if (!row) continue;
        if (row.fingerprint !== fingerprint) throw new AppError(ErrorCode.IDEMPOTENCY_CONFLICT, { data: { key } });
        if (row.status !== null && row.answer !== null) return { status: row.status, answer: row.answer };
        if (now.getTime() - row.claimedAt.getTime() > CLAIM_ABANDONED_MS && (await retakeReplay(db, accountId, key, row.claimedAt, now))) return undefined;
        throw new AppError(ApiKeyErrorCode.KEY_REQUEST_IN_PROGRESS, { data: { key } });
      }
      throw new AppError(ApiKeyErrorCode.KEY_REQUEST_IN_PROGRESS, { data: { key } });
    },

    /** Keeps the claimed key's first answer. */
    keepAnswer: (accountId: string, key: string, reply: KeptReply) => answerReplay(db, accountId, key, reply.status, reply.answer, clock.now()),

    /** Lets go of the claimed key of a refused write: nothing was done, the key may be used again. */
    releaseWrite: (accountId: string, key: string) => releaseReplay(db, accountId, key),
  };
}

export type KeyLimits = ReturnType<typeof createKeyLimits>;
