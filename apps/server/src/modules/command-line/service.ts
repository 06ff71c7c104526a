import type { Currency } from '@portal/contract/enums';
import { fromMinorUnits } from '@portal/contract/money';
import type { Db, Tx } from '../../db/engine.ts';
import { maskPhone } from '../../lib/mask.ts';
import { type CardRow, type CardService, commandLineChange } from '../cards/service.ts';
import type { FundingService } from '../funding/service.ts';
import type { LedgerService, WalletAmountRequest } from '../ledger/service.ts';
import type { MessageService } from '../messages/service.ts';
import type { AuditActor, OperatorService } from '../operators/service.ts';
import type { WalletService } from '../wallet/service.ts';

type NewMessage = Parameters<MessageService['post']>[1];

/** The customer an action is on, as its audit row names them: masked phone and account id. */
export interface AuditedCustomer {
  id: string;
  phone: string;
}

export const customerTarget = (customer: AuditedCustomer) => `客户 ${maskPhone(customer.phone)}（${customer.id}）`;
/** What an audit row keeps of a card: never its number, only its last four digits. */
export const cardTarget = (card: CardRow) => `卡片 ${card.nickname}${card.last4 ? ` •••• ${card.last4}` : ''}（${card.id}）`;
export const cardFacts = (card: CardRow) => ({ status: card.status, frozen_by: card.frozenBy, status_reason: card.statusReason });

export type WalletMoneyKind = 'RECHARGE' | 'DEDUCT' | 'ADJUST';

/**
 * The operator command line's actions on customers' money, wallets, cards, deposits and messages, each
 * done by the same service as the console's and audit-logged in the same transaction as the change it
 * records, with the shell user as its actor (growing-customers.md §5: the CLI is not held for approval, yet
 * each of its actions is in the merchant's audit log). A repeat that changes nothing writes no row.
 */
export function createCommandLineService(deps: {
  db: Db;
  operators: Pick<OperatorService, 'record'>;
  ledger: Pick<LedgerService, 'within'>;
  funding: Pick<FundingService, 'rechargeWithin' | 'confirmWithin' | 'rejectWithin' | 'creditLineWithin' | 'deliverMails' | 'importStatement'>;
  wallet: Pick<WalletService, 'freeze' | 'unfreeze' | 'status'>;
  cards: Pick<CardService, 'operatorFreeze' | 'operatorUnfreeze'>;
  messages: Pick<MessageService, 'post'>;
}) {
  const { db, operators } = deps;
  const record = (tx: Tx, merchantId: string, actor: AuditActor, action: string, values: { target?: string; before?: Record<string, unknown>; after?: Record<string, unknown> }) =>
    operators.record(tx, merchantId, actor, action, values);

  return {
    /** wallet:recharge, wallet:deduct, wallet:adjust: the movement and its MONEY_APPLIED row; a replayed key moves and writes nothing. */
    async walletMoney(kind: WalletMoneyKind, request: WalletAmountRequest, customer: AuditedCustomer, actor: AuditActor) {
      const result = await db.transaction(async (tx) => {
        const done =
          kind === 'RECHARGE'
            ? await deps.funding.rechargeWithin(tx, request)
            : { ...(await (kind === 'DEDUCT' ? deps.ledger.within(tx).deduct(request) : deps.ledger.within(tx).adjustOut(request))), collected: 0n };
        if (!done.replayed) {
          await record(tx, request.merchantId, actor, 'MONEY_APPLIED', {
            target: customerTarget(customer),
            after: {
              kind,
              amount: fromMinorUnits(request.amount),
              currency: request.currency,
              account_id: request.accountId,
              note: request.memo ?? '',
              key: request.key,
              transaction_id: done.answer.transactionId,
              ...(done.collected > 0n ? { collected: fromMinorUnits(done.collected) } : {}),
            },
          });
        }
        return done;
      });
      if (kind === 'RECHARGE' && !result.replayed) await deps.funding.deliverMails();
      return result;
    },

    /** wallet:freeze and wallet:unfreeze: false when the wallet was so already (nothing changed, nothing written). */
    async walletStatus(action: 'FREEZE' | 'UNFREEZE', merchantId: string, customer: AuditedCustomer, reason: string, actor: AuditActor) {
      const before = await deps.wallet.status(merchantId, customer.id);
      return db.transaction(async (tx) => {
        const changed =
          action === 'FREEZE'
            ? await deps.wallet.freeze({ merchantId, accountId: customer.id, reason }, tx)
            : await deps.wallet.unfreeze({ merchantId, accountId: customer.id }, tx);
        if (changed) {
          await record(tx, merchantId, actor, action === 'FREEZE' ? 'WALLET_FROZEN' : 'WALLET_UNFROZEN', {
            target: `${customerTarget(customer)}的钱包`,
            before: { status: before.status, reason: before.reason },
            after: action === 'FREEZE' ? { status: 'FROZEN', reason } : { status: 'AVAILABLE' },
          });
        }
        return changed;
      });
    },

    /** card:freeze and card:unfreeze: the card's change and its row in one transaction, refusals in English. */
    cardStatus(action: 'FREEZE' | 'UNFREEZE', card: CardRow, reason: string, actor: AuditActor) {
      const how = {
        ...commandLineChange(db),
        recorded: (tx: Tx, before: CardRow, after: CardRow) =>
          record(tx, card.merchantId, actor, action === 'FREEZE' ? 'CARD_FROZEN' : 'CARD_UNFROZEN', {
            target: cardTarget(before),
            before: cardFacts(before),
            after: { ...cardFacts(after), ...(action === 'FREEZE' ? { reason } : {}) },
          }),
      };
      return action === 'FREEZE' ? deps.cards.operatorFreeze(card, reason, how) : deps.cards.operatorUnfreeze(card, how);
    },

    /** deposit:confirm */
    async confirmDeposit(request: { merchantId: string; depositId: string; amount?: bigint }, actor: AuditActor) {
      const result = await db.transaction(async (tx) => {
        const done = await deps.funding.confirmWithin(tx, request);
        if (!done.replayed) {
          await record(tx, request.merchantId, actor, 'DEPOSIT_CONFIRMED', {
            target: request.depositId,
            before: { status: 'PENDING', amount: fromMinorUnits(done.row.amount) },
            after: { status: 'CREDITED', account_id: done.row.accountId, currency: done.row.currency, credited_amount: fromMinorUnits(done.row.creditedAmount ?? done.row.amount) },
          });
        }
        return done;
      });
      if (!result.replayed) await deps.funding.deliverMails();
      return result;
    },

    /** deposit:reject */
    rejectDeposit(request: { merchantId: string; depositId: string; reason: string }, actor: AuditActor) {
      return db.transaction(async (tx) => {
        const done = await deps.funding.rejectWithin(tx, request);
        if (!done.replayed) {
          await record(tx, request.merchantId, actor, 'DEPOSIT_REJECTED', {
            target: request.depositId,
            before: { status: 'PENDING' },
            after: { status: 'REJECTED', account_id: done.row.accountId, reason: request.reason },
          });
        }
        return done;
      });
    },

    /** deposit:credit-line: an unmatched statement line credited to the account named, as MONEY_APPLIED of kind LINE_CREDIT. */
    async creditLine(request: Parameters<FundingService['creditLineWithin']>[1], actor: AuditActor) {
      const outcome = await db.transaction(async (tx) => {
        const done = await deps.funding.creditLineWithin(tx, request);
        if (done.outcome !== 'claimed') {
          await record(tx, request.merchantId, actor, 'MONEY_APPLIED', {
            target: request.bankTxnId,
            after: {
              kind: 'LINE_CREDIT',
              amount: fromMinorUnits(done.line.amount),
              currency: done.line.currency,
              account_id: request.account.accountId,
              reference: request.account.reference,
              deposit_id: done.depositId,
              by: request.by,
            },
          });
        }
        return done;
      });
      await deps.funding.deliverMails();
      return outcome;
    },

    /** deposit:import: the lines imported by the funding module (each line once), then what it did, in one row. */
    async importStatement(merchantId: string, currency: Currency, text: string, actor: AuditActor) {
      const result = await deps.funding.importStatement(merchantId, currency, text);
      if (result.missing.length === 0) {
        const count = (outcome: string) => result.outcomes.filter((row) => row.outcome === outcome).length;
        await db.transaction((tx) =>
          record(tx, merchantId, actor, 'STATEMENT_IMPORTED', {
            after: {
              currency,
              credited: count('credited'),
              already: count('already') + count('claimed'),
              unmatched: count('unmatched'),
              bad: result.bad.length + count('failed'),
            },
          }),
        );
      }
      return result;
    },

    /** message:send: the station message and its CUSTOMER_MESSAGED row. */
    sendMessage(message: NewMessage, customer: AuditedCustomer, actor: AuditActor) {
      return db.transaction(async (tx) => {
        const posted = await deps.messages.post(tx, message);
        await record(tx, message.merchantId, actor, 'CUSTOMER_MESSAGED', {
          target: customerTarget(customer),
          after: { message_id: posted.id, title: message.title, content: message.content, ...(message.type ? { type: message.type } : {}) },
        });
        return posted;
      });
    },
  };
}

export type CommandLineService = ReturnType<typeof createCommandLineService>;
