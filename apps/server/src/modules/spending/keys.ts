import { CardErrorCode } from '@portal/contract/card-errors';
import { toMinorUnits } from '@portal/contract/money';
import type { z } from 'zod';
import { AppError } from '../../http/errors.ts';
import type { IssuerEvent } from '../issuer/service.ts';

/** The ledger's idempotency keys of a card's spending: one per step of an authorisation or event. */
export const spendingKeys = {
  hold: (cardId: string, authorizationId: string) => `card:${cardId}:auth:${authorizationId}:hold`,
  settle: (cardId: string, authorizationId: string) => `card:${cardId}:auth:${authorizationId}:settle`,
  settleExtra: (cardId: string, authorizationId: string) => `card:${cardId}:auth:${authorizationId}:settle-extra`,
  release: (cardId: string, authorizationId: string) => `card:${cardId}:auth:${authorizationId}:release`,
  declineFee: (cardId: string, authorizationId: string) => `card:${cardId}:auth:${authorizationId}:decline-fee`,
  /** what an authorisation's end (settled, reversed, expired) left on a cancelled card, to the wallet */
  returned: (cardId: string, authorizationId: string) => `card:${cardId}:auth:${authorizationId}:returned`,
  /**
   * a refund or an adjustment, by the issuer's own id of it: the same credit sent again under another
   * event id moves nothing (and one of the same id with other figures is not applied)
   */
  credit: (kind: 'REFUND' | 'ADJUST_IN', objectId: string) => `card-credit:${kind}:${objectId}`,
  creditReturned: (cardId: string, kind: 'REFUND' | 'ADJUST_IN', objectId: string) => `card:${cardId}:credit:${kind}:${objectId}:returned`,
};

/** The ledger's transaction types of a card's own spending (card ↔ the merchant's CARD_NETWORK). */
export const LEDGER_TYPES = { consume: 'CARD_CONSUME', refund: 'CARD_REFUND', adjust: 'CARD_ADJUST_IN' } as const;

export const parse = <S extends z.ZodType>(schema: S, event: IssuerEvent): z.infer<S> => {
  const parsed = schema.safeParse(event.data);
  if (!parsed.success) throw new AppError(CardErrorCode.ISSUER_EVENT_INVALID);
  return parsed.data;
};

export const isRefusal = (error: unknown, code: number): error is AppError => error instanceof AppError && error.code === code;
export const availableIn = (error: AppError) => toMinorUnits(String((error.data as { available?: string } | null)?.available ?? '0'));
