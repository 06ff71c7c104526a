import type { CardTransactionExportQuery, CardTransactionPage, CardTransactionQuery } from '@portal/contract/cards';
import type { cardControlsBody } from '@portal/contract/card-spending';
import type { z } from 'zod';
import { ISSUER_SPENDING_EVENTS } from '../../providers/issuer/port.ts';
import type { CardScope } from '../cards/service.ts';
import type { IssuerEventHandling } from '../issuer/service.ts';
import type { AcrossTransactionExportQuery, AcrossTransactionQuery, SpendingSummaryQuery } from '@portal/contract/card-spending-across';
import { acrossPart } from './across.ts';
import { authorisationsPart } from './authorisations.ts';
import { controlsPart } from './controls.ts';
import { creditsPart } from './credits.ts';
import type { SpendingDeps } from './deps.ts';
import { expiryPart } from './expiry.ts';
import { moneyTakenPart } from './money-taken.ts';
import { settlementPart } from './settlement.ts';
import { owedPart } from './owed.ts';
import { threeDsPart } from './three-ds.ts';
import { transactionsPart } from './transactions.ts';

export type { CardsForSpending, SpendingDeps } from './deps.ts';
export { HOLD_EXPIRY_QUEUE, holdExpiryPart } from './expiry.ts';

/**
 * The spending figures of a page of cards (this month's, the decline rate, the risk), for the card
 * list: built from the database alone, so the card service can be handed it before spending exists.
 */
export const createSpendingFigures = (deps: Pick<SpendingDeps, 'db' | 'clock'>) => controlsPart(deps).figures;

/**
 * A card's spending (shared/design/cards.md "Spending"): authorisations decided on our books, their
 * settlement, reversal or expiry, refunds, adjustments and 3-D Secure codes from the issuer's events;
 * the card's controls, and its transactions as a page or a spreadsheet.
 */
export function createSpendingService(deps: SpendingDeps) {
  const { cards } = deps;
  const taken = moneyTakenPart(deps);
  const authorisations = authorisationsPart(deps, taken);
  const settlement = settlementPart(deps, taken);
  const expiry = expiryPart(deps, settlement);
  const credits = creditsPart(deps);
  const threeDs = threeDsPart(deps);
  const controls = controlsPart(deps);
  const transactions = transactionsPart(deps);
  const across = acrossPart(deps);
  const owed = owedPart(deps);

  return {
    /** GET /card/transactions: every card's movements the caller may see, newest first. */
    acrossTransactions: async (merchantId: string, scope: CardScope, query: AcrossTransactionQuery) => {
      const { accountIds: _accounts, ...page } = await across.page(merchantId, scope, query);
      return page;
    },

    /** The console's card transactions across every customer of the merchant (or one account's), newest first, with the account of each. */
    async merchantTransactions(merchantId: string, accountId: string | undefined, query: AcrossTransactionQuery) {
      const page = await across.page(merchantId, accountId ? { accountId } : { accountId: undefined }, query);
      return { ...page, items: page.items.map((item, index) => ({ ...item, account_id: page.accountIds[index] as string })) };
    },

    /** GET /card/transactions/export: the same, every page, as an .xlsx stream. */
    exportAcrossTransactions: (merchantId: string, scope: CardScope, query: AcrossTransactionExportQuery) => across.export(merchantId, scope, query),

    /** GET /card/spending-summary: what the cards spent, grouped. */
    spendingSummary: (merchantId: string, scope: CardScope, query: SpendingSummaryQuery) => across.summary(merchantId, scope, query),

    /** GET /card/{id}/transactions: the card's movements, newest first. */
    async transactions(merchantId: string, scope: CardScope, id: string, query: CardTransactionQuery): Promise<CardTransactionPage> {
      return transactions.page(await cards.ownCard(merchantId, scope, id), query);
    },

    /** GET /card/{id}/transactions/export: the same, every page, as an .xlsx stream. */
    async exportTransactions(merchantId: string, scope: CardScope, id: string, query: CardTransactionExportQuery) {
      const card = await cards.ownCard(merchantId, scope, id);
      return { card, stream: await transactions.export(card, query) };
    },

    /** GET /card/{id}/controls */
    async controls(merchantId: string, scope: CardScope, id: string) {
      return controls.controls(await cards.ownCard(merchantId, scope, id));
    },

    /** PUT /card/{id}/controls: the whole set replaced. */
    async saveControls(merchantId: string, scope: CardScope, id: string, body: z.output<typeof cardControlsBody>) {
      return controls.saveControls(await cards.ownCard(merchantId, scope, id), body);
    },

    /**
     * Collects what the account owes in a currency from money that has just come into its wallet,
     * inside that money's transaction (owed.ts); answers what was collected.
     */
    collectOwed: owed.collectOwed,
    /** collectOwed for many credits of one merchant and currency at once, in a few statements (owed.ts). */
    collectOwedMany: owed.collectOwedMany,

    /** Releases the holds of authorisations pending longer than `expiryDays` (the hourly job, expiry.ts). */
    expireHolds: (expiryDays: number) => expiry.expireHolds(expiryDays),

    /** The handlers of the issuer's spending events, by type (registered with the issuer's event service). */
    issuerHandlers(): Record<string, IssuerEventHandling> {
      return {
        [ISSUER_SPENDING_EVENTS.authorizationRequest]: { decide: authorisations.authorize, repeat: authorisations.repeatAuthorization },
        [ISSUER_SPENDING_EVENTS.settled]: settlement.settle,
        [ISSUER_SPENDING_EVENTS.reversed]: settlement.reverse,
        [ISSUER_SPENDING_EVENTS.refund]: (tx, event) => credits.credit(tx, event, 'REFUND'),
        [ISSUER_SPENDING_EVENTS.adjust]: (tx, event) => credits.credit(tx, event, 'ADJUST_IN'),
        [ISSUER_SPENDING_EVENTS.threeDsOtp]: threeDs.threeDs,
      };
    },
  };
}

export type SpendingService = ReturnType<typeof createSpendingService>;
