import { CardErrorCode } from '@portal/contract/card-errors';
import { z } from 'zod';
import type { Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import { isLuhnValid } from '../../lib/luhn.ts';
import { ISSUER_CARD_EVENTS } from '../../providers/issuer/port.ts';
import type { IssuerEvent, IssuerEventHandler, IssuerEventHandling } from '../issuer/service.ts';
import { isUuid } from './card-view.ts';
import type { lifecyclePart } from './lifecycle.ts';
import type { openingPart } from './opening.ts';
import { type CardRow, lockCardById } from './store.ts';

/** What card.issued must carry; anything else is refused (400) and the issuer sends it again, corrected. */
const issuedData = z.object({
  card_id: z.string(),
  pan: z.string().regex(/^\d{12,19}$/).refine(isLuhnValid),
  cvv: z.string().regex(/^\d{3,4}$/),
  exp_month: z.string().regex(/^(0[1-9]|1[0-2])$/),
  exp_year: z.string().regex(/^20\d{2}$/),
});

/** An issuer's event about one card: the card locked, or nothing for an id the portal never made. */
export const aboutCard =
  (handle: (tx: Tx, card: CardRow, event: IssuerEvent) => Promise<unknown>): IssuerEventHandler =>
  async (tx, event) => {
    const id = event.data.card_id;
    if (typeof id !== 'string' || !isUuid(id)) throw new AppError(CardErrorCode.ISSUER_EVENT_INVALID);
    const card = await lockCardById(tx, id);
    if (!card) return;
    await handle(tx, card, event);
  };

/** The handlers of the issuer's events about a card's own life (opened, failed, frozen, unfrozen, closed), by type. */
export function cardEventHandlers(
  opening: Pick<ReturnType<typeof openingPart>, 'completeOpening' | 'failOpening'>,
  lifecycle: Pick<ReturnType<typeof lifecyclePart>, 'frozen' | 'unfrozen' | 'close'>,
): Record<string, IssuerEventHandling> {
  return {
    [ISSUER_CARD_EVENTS.issued]: aboutCard(async (tx, card, event) => {
      const parsed = issuedData.safeParse(event.data);
      if (!parsed.success) throw new AppError(CardErrorCode.ISSUER_EVENT_INVALID);
      if (card.status !== 'CARD_STATUS_INIT') return;
      const { pan, cvv, exp_month, exp_year } = parsed.data;
      await opening.completeOpening(tx, card, { pan, cvv, exp_month, exp_year });
    }),
    [ISSUER_CARD_EVENTS.failed]: aboutCard(async (tx, card, event) => {
      if (card.status !== 'CARD_STATUS_INIT') return;
      const reason = typeof event.data.reason === 'string' && event.data.reason.trim() ? event.data.reason.trim().slice(0, 200) : '发卡机构拒绝了开卡申请';
      await opening.failOpening(tx, card, reason);
    }),
    [ISSUER_CARD_EVENTS.frozen]: aboutCard((tx, card, event) => lifecycle.frozen(tx, card, event.data)),
    [ISSUER_CARD_EVENTS.unfrozen]: aboutCard((tx, card, event) => lifecycle.unfrozen(tx, card, event.data)),
    [ISSUER_CARD_EVENTS.closed]: aboutCard(async (tx, card) => {
      if (card.status === 'DELETE' || card.status === 'FAIL') return;
      if (card.status === 'CARD_STATUS_INIT') {
        await opening.failOpening(tx, card, '发卡机构未能开通此卡');
        return;
      }
      await lifecycle.close(tx, card);
    }),
  };
}
