import {
  type ConsoleAgreement,
  type ConsoleAnnouncement,
  type ConsoleProduct,
  type ProductChangeBody,
  type ProductCreateBody,
  productConflict,
} from '@portal/contract/console-admin';
import { ConsoleAdminErrorCode } from '@portal/contract/console-admin-errors';
import { toMinorUnits } from '@portal/contract/money';
import type { Db, Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { AgreementService } from '../agreements/service.ts';
import { type ProductRow, type ProductValues, productView, type CardProductService } from '../card-products/service.ts';
import type { MessageService } from '../messages/service.ts';
import type { AuditActor, OperatorService } from '../operators/service.ts';

/** The product's fields as the console shows them: what the portal shows, and when it last changed. */
const consoleProduct = (row: ProductRow): ConsoleProduct => ({ ...productView(row), updated_at: row.updatedAt.toISOString() });

const units = (text: string) => toMinorUnits(text);
const boundUnits = (text: string | null) => (text === null ? null : toMinorUnits(text));

/** The body's fields as the product's columns (minor units); fields not given are left out. */
function productChanges(body: ProductChangeBody): Partial<ProductValues> {
  const changes: Partial<ProductValues> = {};
  if (body.name !== undefined) changes.name = body.name;
  if (body.status !== undefined) changes.status = body.status;
  if (body.open_fee !== undefined) changes.openFee = units(body.open_fee);
  if (body.topup_fee_rate !== undefined) changes.topupFeeRate = body.topup_fee_rate;
  if (body.topup_fee_fixed !== undefined) changes.topupFeeFixed = units(body.topup_fee_fixed);
  if (body.topup_fee_min !== undefined) changes.topupFeeMin = boundUnits(body.topup_fee_min);
  if (body.topup_fee_max !== undefined) changes.topupFeeMax = boundUnits(body.topup_fee_max);
  if (body.min_first_load !== undefined) changes.minFirstLoad = units(body.min_first_load);
  if (body.max_balance !== undefined) changes.maxBalance = units(body.max_balance);
  if (body.decline_fee !== undefined) changes.declineFee = units(body.decline_fee);
  if (body.per_account_limit !== undefined) changes.perAccountLimit = body.per_account_limit;
  if (body.max_per_batch !== undefined) changes.maxPerBatch = body.max_per_batch;
  if (body.needs_secondary !== undefined) changes.needsSecondary = body.needs_secondary;
  return changes;
}

/** A new product's fields as its columns (minor units). */
function productValues(body: Required<ProductCreateBody>): ProductValues {
  return {
    name: body.name,
    brand: body.brand,
    bin: body.bin,
    currency: body.currency,
    status: body.status,
    openFee: units(body.open_fee),
    topupFeeRate: body.topup_fee_rate,
    topupFeeFixed: units(body.topup_fee_fixed),
    topupFeeMin: boundUnits(body.topup_fee_min),
    topupFeeMax: boundUnits(body.topup_fee_max),
    minFirstLoad: units(body.min_first_load),
    maxBalance: units(body.max_balance),
    declineFee: units(body.decline_fee),
    perAccountLimit: body.per_account_limit,
    maxPerBatch: body.max_per_batch,
    needsSecondary: body.needs_secondary,
  };
}

/** The product's fields as the audit row keeps them (the console's view without its times). */
function auditedProduct(view: ConsoleProduct) {
  const { updated_at: _updatedAt, ...fields } = view;
  return fields;
}

/** The fields whose values differ between two views of a product, each side's value (the audit row's before and after). */
function differences(before: ConsoleProduct, after: ConsoleProduct) {
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const key of Object.keys(after) as Array<keyof ConsoleProduct>) {
    if (key === 'updated_at' || before[key] === after[key]) continue;
    was[key] = before[key];
    now[key] = after[key];
  }
  return { was, now };
}

/**
 * The audit rows of a product's change, written in the change's own transaction, by the console and the
 * command line alike: PRODUCT_CREATED with the product's fields, PRODUCT_UPDATED with the fields that
 * changed on each side (a change that changed nothing writes no row).
 */
export function productAudit(operators: Pick<OperatorService, 'record'>, merchantId: string, actor: AuditActor) {
  return {
    created: async (tx: Tx, row: ProductRow) => {
      await operators.record(tx, merchantId, actor, 'PRODUCT_CREATED', { target: row.name, after: auditedProduct(consoleProduct(row)) });
    },
    changed: async (tx: Tx, change: { before: ProductRow; after: ProductRow }) => {
      const { was, now } = differences(consoleProduct(change.before), consoleProduct(change.after));
      if (Object.keys(was).length === 0) return;
      await operators.record(tx, merchantId, actor, 'PRODUCT_UPDATED', { target: change.after.name, before: was, after: now });
    },
  };
}

/**
 * What a merchant's ADMIN keeps in the console: its card products and fees, its user agreements and its
 * announcements. Each change goes through the service that owns it and writes its audit row in the
 * change's own transaction.
 */
export function createConsoleAdminService({
  db,
  products,
  agreements,
  messages,
  operators,
}: {
  db: Db;
  products: CardProductService;
  agreements: AgreementService;
  messages: MessageService;
  operators: Pick<OperatorService, 'record'>;
}) {
  return {
    async products(merchantId: string) {
      return { items: (await products.list(merchantId)).map(consoleProduct) };
    },

    /**
     * Adds a product to the merchant through the catalogue (the command line's product:set --create), with
     * its audit row in the insert's transaction. The fields have passed the contract's rules; the rules
     * between them (productConflict) and a name the merchant uses already are refused in 中文, writing nothing.
     */
    async createProduct(merchantId: string, body: Required<ProductCreateBody>, actor: AuditActor): Promise<ConsoleProduct> {
      const conflict = productConflict(body);
      if (conflict !== null) throw new AppError(conflict);
      const created = await products.create(merchantId, productValues(body), {
        nameTaken: () => new AppError(ConsoleAdminErrorCode.PRODUCT_NAME_TAKEN),
        within: productAudit(operators, merchantId, actor).created,
      });
      return consoleProduct(created);
    },

    /**
     * Changes a product's fields; cards opened afterwards are charged its new fees, cards already opened
     * keep the fee terms they were opened under. A change that changes nothing is refused and writes nothing.
     */
    async changeProduct(merchantId: string, id: string, body: ProductChangeBody, actor: AuditActor): Promise<ConsoleProduct> {
      const { after } = await products.update(merchantId, { id }, productChanges(body), {
        notFound: () => new AppError(ConsoleAdminErrorCode.PRODUCT_NOT_FOUND),
        nameTaken: () => new AppError(ConsoleAdminErrorCode.PRODUCT_NAME_TAKEN),
        check: (before, merged) => {
          const wouldBe = consoleProduct({ ...before, ...merged });
          const conflict = productConflict(wouldBe);
          if (conflict !== null) throw new AppError(conflict);
          const { was } = differences(consoleProduct(before), wouldBe);
          if (Object.keys(was).length === 0) throw new AppError(ConsoleAdminErrorCode.PRODUCT_UNCHANGED);
        },
        within: productAudit(operators, merchantId, actor).changed,
      });
      return consoleProduct(after);
    },

    async agreements(merchantId: string) {
      const rows = await agreements.list(merchantId);
      return { items: rows.map((row) => ({ id: row.id, title: row.title, published_at: row.publishedAt.toISOString(), characters: row.characters })) };
    },

    /** Publishes an agreement, the one customers are shown from now on. */
    async publishAgreement(merchantId: string, body: { title: string; text: string }, actor: AuditActor): Promise<ConsoleAgreement> {
      const row = await db.transaction(async (tx) => {
        const published = await agreements.publish({ merchantId, title: body.title, text: body.text }, tx);
        await operators.record(tx, merchantId, actor, 'AGREEMENT_PUBLISHED', {
          target: published.title,
          after: { id: published.id, title: published.title, characters: [...body.text].length },
        });
        return published;
      });
      return { id: row.id, title: row.title, published_at: row.publishedAt.toISOString(), characters: [...body.text].length };
    },

    async announcements(merchantId: string, query: { page: number; page_size: number }) {
      const { rows, total } = await messages.announcementsOf(merchantId, query.page_size, (query.page - 1) * query.page_size);
      return { items: rows.map(announcementView), total, page: query.page, page_size: query.page_size };
    },

    /** Publishes an announcement to every customer of the merchant; their open portal tabs hear of it when it commits. */
    async publishAnnouncement(merchantId: string, body: { title: string; content: string }, actor: AuditActor): Promise<ConsoleAnnouncement> {
      const row = await db.transaction(async (tx) => {
        const published = await messages.announce(tx, { merchantId, title: body.title, content: body.content });
        await operators.record(tx, merchantId, actor, 'ANNOUNCEMENT_PUBLISHED', {
          target: published.title,
          after: { id: published.id, title: published.title, characters: [...body.content].length },
        });
        return published;
      });
      return announcementView(row);
    },
  };
}

const announcementView = (row: { id: string; title: string; content: string; publishedAt: Date }): ConsoleAnnouncement => ({
  id: row.id,
  title: row.title,
  content: row.content,
  published_at: row.publishedAt.toISOString(),
});

export type ConsoleAdminService = ReturnType<typeof createConsoleAdminService>;
