import {
  type CardControls,
  type cardControlsBody,
  chinaDayStart,
  chinaMonthStart,
  type MccCategory,
  riskOf,
  riskText,
} from '@portal/contract/card-spending';
import type { Currency } from '@portal/contract/enums';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import type { z } from 'zod';
import { spendingCalls } from '@portal/contract/api/spending';
import { figureMoment } from '../../db/card-figures.ts';
import type { Tx } from '../../db/engine.ts';
import { traceWithin } from '../../http/call-trace.ts';
import type { CardRow, SpendingFigures } from '../cards/service.ts';
import type { SpendingDeps } from './deps.ts';
import { findControls, saveControls, spendingFigures, spentSince } from './store.ts';

/** A card's controls (GET|PUT /card/{id}/controls) and the spending figures of a page of cards. */
export function controlsPart({ db, clock }: Pick<SpendingDeps, 'db' | 'clock'>) {
  async function answer(tx: Tx, card: CardRow): Promise<CardControls> {
    const controls = await findControls(tx, card.id);
    const now = clock.now();
    // one after another: `tx` may be a transaction, whose one connection takes one query at a time
    const today = await spentSince(tx, card.id, chinaDayStart(now));
    const month = await spentSince(tx, card.id, chinaMonthStart(now));
    const limit = (value: bigint | null | undefined) => (value === null || value === undefined ? null : fromMinorUnits(value));
    return {
      card_id: card.id,
      currency: card.currency as Currency,
      single_limit: limit(controls?.singleLimit),
      daily_limit: limit(controls?.dailyLimit),
      monthly_limit: limit(controls?.monthlyLimit),
      blocked_categories: (controls?.blockedCategories ?? []) as MccCategory[],
      allowed_countries: controls?.allowedCountries ?? [],
      spent_today: fromMinorUnits(today),
      spent_this_month: fromMinorUnits(month),
    };
  }

  return {
    controls: (card: CardRow) => answer(db, card),

    /** Replaces the card's controls with the body (checked by the contract's rules already). */
    async saveControls(card: CardRow, checked: z.output<typeof cardControlsBody>) {
      const minor = (value: string | null) => (value === null ? null : toMinorUnits(value));
      return db.transaction(async (tx) => {
        await saveControls(tx, {
          cardId: card.id,
          singleLimit: minor(checked.single_limit),
          dailyLimit: minor(checked.daily_limit),
          monthlyLimit: minor(checked.monthly_limit),
          blockedCategories: [...new Set(checked.blocked_categories)],
          allowedCountries: [...new Set(checked.allowed_countries)],
          updatedAt: clock.now(),
        });
        await traceWithin(tx, spendingCalls.saveControls, null);
        return answer(tx, card);
      });
    },

    /** The figures of each card of a page, in one grouped query. */
    async figures(cardIds: string[], tx?: Tx): Promise<Map<string, SpendingFigures>> {
      const now = clock.now();
      const rows = await spendingFigures(tx ?? db, cardIds, figureMoment(now));
      const figures = new Map<string, SpendingFigures>();
      for (const [cardId, row] of rows) {
        const risk = riskOf(row.declined, row.total);
        figures.set(cardId, {
          spentThisMonth: row.spentThisMonth,
          declineRate: row.total === 0 ? 0 : row.declined / row.total,
          risk,
          riskReason: risk === 'HIGH' ? riskText(row.declined, row.total) : null,
          lastUsedAt: row.lastUsedAt,
        });
      }
      return figures;
    },
  };
}
