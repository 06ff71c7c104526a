import type { CardItem } from '@portal/contract/cards';
import {
  type ConsoleCardQuery,
  type ConsoleCardStatusBody,
  type ConsoleTransactionQuery,
  type CustomerDetail,
  type CustomerItem,
  customerLimits,
  type CustomerSearchQuery,
} from '@portal/contract/console-customers';
import type { CustomerAuditAction } from '@portal/contract/console-customers-audit';
import { ConsoleCustomerErrorCode } from '@portal/contract/console-customers-errors';
import { cardStatusLabel, type CardStatus } from '@portal/contract/enums';
import { depositListQuery } from '@portal/contract/funding';
import { messageListQuery } from '@portal/contract/messages';
import { walletTransactionQuery } from '@portal/contract/wallet';
import type { Db, Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import { maskPhone } from '../../lib/mask.ts';
import type { BooksService } from '../books/service.ts';
import type { CardProductService } from '../card-products/service.ts';
import type { CardRow, CardService, OperatorChange, OperatorRefusal } from '../cards/service.ts';
import type { FundingService } from '../funding/service.ts';
import type { MessageService } from '../messages/service.ts';
import type { ConsoleCaller, ConsoleMerchant, OperatorService, SignedInOperator } from '../operators/service.ts';
import type { SecurityService } from '../security/service.ts';
import type { SpendingService } from '../spending/service.ts';
import type { TeamService } from '../team/service.ts';
import type { WalletService } from '../wallet/service.ts';
import { type CustomerRow, findCustomer, searchCustomers } from './search-store.ts';

export interface CustomerServiceDeps {
  db: Db;
  operators: Pick<OperatorService, 'withActionCode' | 'record'>;
  books: Pick<BooksService, 'customersBalances'>;
  wallet: Pick<WalletService, 'balances' | 'status' | 'transactions' | 'freeze' | 'unfreeze'>;
  cards: Pick<CardService, 'forOperator' | 'operatorFreeze' | 'operatorUnfreeze' | 'listForMerchant'>;
  team: Pick<TeamService, 'membersOf'>;
  products: Pick<CardProductService, 'verification'>;
  security: Pick<SecurityService, 'loginHistoryOf'>;
  funding: Pick<FundingService, 'list'>;
  messages: Pick<MessageService, 'list' | 'post'>;
  spending: Pick<SpendingService, 'merchantTransactions'>;
  /** how many matches the search counts at most (CUSTOMER_SEARCH_COUNT_CAP) */
  countCap?: number;
}

/** An operator acting in the console: who, on whose behalf, from where. */
export interface ConsoleActor {
  merchant: ConsoleMerchant;
  signedIn: SignedInOperator;
  caller: ConsoleCaller;
}

const cardRefusal: Record<OperatorRefusal, number> = {
  NOT_FREEZABLE: ConsoleCustomerErrorCode.CARD_NOT_FREEZABLE,
  FROZEN_ALREADY: ConsoleCustomerErrorCode.CARD_FROZEN_ALREADY,
  NOT_FROZEN_BY_OPERATOR: ConsoleCustomerErrorCode.CARD_NOT_FROZEN_BY_PLATFORM,
  ISSUER_UNAVAILABLE: ConsoleCustomerErrorCode.ISSUER_UNAVAILABLE,
};

/** What an audit row keeps of a card: never its number, only its last four digits. */
const cardFacts = (card: CardRow) => ({ status: card.status, frozen_by: card.frozenBy, status_reason: card.statusReason });
const cardTarget = (card: CardRow) => `卡片 ${card.nickname}${card.last4 ? ` •••• ${card.last4}` : ''}（${card.id}）`;

/**
 * The merchant's customers as its console reads them and acts on them: the search (its own store, over
 * several areas' rows of the merchant), one customer read through each module's service, a card or a
 * wallet frozen with a reason the customer reads (the operator's code taken in the action's transaction,
 * its audit row written there too), a station message, and the cards and card transactions across customers.
 */
export function createCustomerService(deps: CustomerServiceDeps) {
  const { db, operators } = deps;

  async function itemsOf(merchantId: string, rows: CustomerRow[]): Promise<CustomerItem[]> {
    const balances = await deps.books.customersBalances(
      merchantId,
      rows.map((row) => row.accountId),
    );
    return rows.map((row) => ({
      account_id: row.accountId,
      phone_masked: maskPhone(row.phone),
      email: row.email,
      real_name: row.realName,
      reference: row.reference,
      created_at: row.createdAt.toISOString(),
      wallet: (balances.get(row.accountId)?.balances ?? []).map((balance) => ({ currency: balance.currency, available: balance.available })),
      cards: row.cards,
    }));
  }

  async function customerOf(merchantId: string, accountId: string) {
    const row = await findCustomer(db, merchantId, accountId);
    if (!row) throw new AppError(ConsoleCustomerErrorCode.CUSTOMER_NOT_FOUND);
    return row;
  }

  const actorOf = (actor: ConsoleActor) => ({ channel: 'CONSOLE' as const, operator: actor.signedIn.operator, ip: actor.caller.ip });
  const record = (tx: Tx, actor: ConsoleActor, action: CustomerAuditAction, values: { target: string; before?: Record<string, unknown>; after?: Record<string, unknown> }) =>
    operators.record(tx, actor.merchant.id, actorOf(actor), action, values);

  return {
    /** GET /customers */
    async search(merchantId: string, query: CustomerSearchQuery) {
      const keyword = query.keyword?.trim() ?? '';
      const cap = deps.countCap ?? customerLimits.countCap;
      const { rows, total, capped } = await searchCustomers(db, merchantId, keyword, { limit: query.page_size, offset: (query.page - 1) * query.page_size, cap });
      return { items: await itemsOf(merchantId, rows), total, total_capped: capped, page: query.page, page_size: query.page_size };
    },

    /** GET /customers/{id}: each part read through the service of the module that keeps it. */
    async detail(merchantId: string, accountId: string): Promise<CustomerDetail> {
      const row = await customerOf(merchantId, accountId);
      const members = await deps.team.membersOf(accountId);
      const owner = members.find((member) => member.role === 'OWNER') ?? members[0];
      const recent = customerLimits.recent;
      const [[item], status, balances, walletPage, cards, verification, signIns, deposits, messages] = await Promise.all([
        itemsOf(merchantId, [row]),
        deps.wallet.status(merchantId, accountId),
        deps.wallet.balances(merchantId, accountId),
        deps.wallet.transactions(merchantId, accountId, walletTransactionQuery.parse({ page_size: recent })),
        deps.cards.forOperator(merchantId, { accountId }),
        deps.products.verification(merchantId, accountId),
        deps.security.loginHistoryOf(
          members.map((member) => member.id),
          recent,
        ),
        deps.funding.list(merchantId, accountId, depositListQuery.parse({ page_size: recent })),
        owner
          ? deps.messages.list(merchantId, { accountId, memberId: owner.id, role: 'OWNER' }, messageListQuery.parse({ page_size: recent }))
          : Promise.resolve({ items: [] }),
      ]);
      return {
        customer: { ...(item as CustomerItem), account_name: row.accountName },
        wallet: { status, balances, recent: walletPage.items },
        cards: cards.items,
        members: members.map(({ id, phone_masked, email, role, status: memberStatus, joined_at }) => ({ id, phone_masked, email, role, status: memberStatus, joined_at })),
        verification,
        sign_ins: signIns,
        deposits: deposits.items,
        messages: messages.items,
      };
    },

    /** POST /customers/{id}/messages: the message and its audit row in one transaction. */
    async message(actor: ConsoleActor, accountId: string, body: { title: string; content: string }) {
      const row = await customerOf(actor.merchant.id, accountId);
      return db.transaction(async (tx) => {
        const posted = await deps.messages.post(tx, { merchantId: actor.merchant.id, accountId, title: body.title, content: body.content });
        await record(tx, actor, 'CUSTOMER_MESSAGED', {
          target: `客户 ${maskPhone(row.phone)}（${accountId}）`,
          after: { message_id: posted.id, title: body.title, content: body.content },
        });
        return { id: posted.id };
      });
    },

    /** PUT /cards/{id}/status: the operator's code taken, the card changed and the audit row written, in one transaction. */
    async cardStatus(actor: ConsoleActor, cardId: string, body: ConsoleCardStatusBody): Promise<CardItem> {
      const [found] = (await deps.cards.forOperator(actor.merchant.id, { id: cardId })).rows;
      if (!found) throw new AppError(ConsoleCustomerErrorCode.CARD_NOT_FOUND);
      const how: OperatorChange = {
        transact: (work) => operators.withActionCode(actor.merchant, actor.signedIn.operator, body.totp, actor.caller, work),
        recorded: (tx, before, after) =>
          record(tx, actor, body.action === 'FREEZE' ? 'CARD_FROZEN' : 'CARD_UNFROZEN', {
            target: cardTarget(before),
            before: cardFacts(before),
            after: { ...cardFacts(after), ...(body.reason ? { reason: body.reason } : {}) },
          }),
        refuse: (why, card) =>
          new AppError(cardRefusal[why], why === 'NOT_FREEZABLE' ? { params: { status: cardStatusLabel[card.status as CardStatus] }, data: { status: card.status } } : {}),
      };
      return body.action === 'FREEZE' ? deps.cards.operatorFreeze(found.card, body.reason, how) : deps.cards.operatorUnfreeze(found.card, how);
    },

    /** PUT /customers/{id}/wallet-status: the same for the customer's wallet. */
    async walletStatus(actor: ConsoleActor, accountId: string, body: ConsoleCardStatusBody) {
      const row = await customerOf(actor.merchant.id, accountId);
      const merchantId = actor.merchant.id;
      const before = await deps.wallet.status(merchantId, accountId);
      await operators.withActionCode(actor.merchant, actor.signedIn.operator, body.totp, actor.caller, async (tx) => {
        const changed =
          body.action === 'FREEZE'
            ? await deps.wallet.freeze({ merchantId, accountId, reason: body.reason }, tx)
            : await deps.wallet.unfreeze({ merchantId, accountId }, tx);
        if (!changed) throw new AppError(body.action === 'FREEZE' ? ConsoleCustomerErrorCode.WALLET_FROZEN_ALREADY : ConsoleCustomerErrorCode.WALLET_NOT_FROZEN);
        await record(tx, actor, body.action === 'FREEZE' ? 'WALLET_FROZEN' : 'WALLET_UNFROZEN', {
          target: `客户 ${maskPhone(row.phone)}（${accountId}）的钱包`,
          before: { status: before.status, reason: before.reason },
          after: body.action === 'FREEZE' ? { status: 'FROZEN', reason: body.reason } : { status: 'AVAILABLE', ...(body.reason ? { note: body.reason } : {}) },
        });
      });
      return deps.wallet.status(merchantId, accountId);
    },

    /** GET /cards */
    cards: (merchantId: string, query: ConsoleCardQuery) => deps.cards.listForMerchant(merchantId, query.account_id, query),

    /** GET /transactions */
    transactions: (merchantId: string, query: ConsoleTransactionQuery) => deps.spending.merchantTransactions(merchantId, query.account_id, query),
  };
}

export type CustomerService = ReturnType<typeof createCustomerService>;
