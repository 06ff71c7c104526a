import type { Db } from '../../db/engine.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Sealer } from '../../lib/sealed.ts';
import type { CardService } from '../cards/service.ts';
import { type AccessCodeCheck, revealGate, revealPart } from './gate.ts';

export type { AccessCodeCheck, RevealCaller, RevealGate } from './gate.ts';

/**
 * What lets a card's full number out: a reveal (POST /card/{id}/reveal), and the gate it passes — an
 * access code in this session, the hourly and daily caps — which a bulk export with full numbers passes too.
 */
export function createCardRevealService(deps: { db: Db; clock: Clock; sealer: Sealer; useAccessCode: AccessCodeCheck; cards: Pick<CardService, 'ownCard'> }) {
  const gate = revealGate(deps);
  return { ...revealPart(deps, gate), gate };
}

export type CardRevealService = ReturnType<typeof createCardRevealService>;
