import { type SQL, sql } from 'drizzle-orm';
import { readsOn, type Tx } from '../../db/engine.ts';
import { type Row, rowsOf } from '../../db/raw-rows.ts';

// The console's customer search reads the rows of several areas of one merchant (members, the card
// holder's verification, the deposit reference) in statements of its own, as the operators' overview
// does: a search across every customer that no module's service offers. Each term is the start of a
// kept value, read from its own prefix index (text_pattern_ops), and the hits are united by account.

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The sub-queries whose account ids a keyword finds; none for an empty keyword (every customer). */
function hitsOf(merchantId: string, keyword: string): SQL[] {
  const prefix = (text: string) => `${escapeLike(text)}%`;
  const parts: SQL[] = [];
  const digits = keyword.replace(/[\s-]/g, '').replace(/^\+?86(?=\d{11}$)/, '');
  if (/^\d{3,}$/.test(digits)) {
    parts.push(sql`select m.account_id from members m where m.merchant_id = ${merchantId} and m.status <> 'REMOVED' and m.phone like ${prefix(digits)}`);
  }
  if (!/\s/.test(keyword)) {
    parts.push(
      sql`select m.account_id from members m where m.merchant_id = ${merchantId} and m.status <> 'REMOVED' and m.email like ${prefix(keyword.toLowerCase())}`,
    );
  }
  parts.push(sql`select v.account_id from card_verifications v where v.merchant_id = ${merchantId} and v.real_name like ${prefix(keyword)}`);
  if (/^[A-Za-z0-9-]+$/.test(keyword)) {
    parts.push(sql`select r.account_id from deposit_references r where r.merchant_id = ${merchantId} and r.reference like ${prefix(keyword.toUpperCase())}`);
  }
  return parts;
}

export interface CustomerRow {
  accountId: string;
  accountName: string;
  createdAt: Date;
  phone: string;
  email: string | null;
  realName: string | null;
  reference: string | null;
  cards: number;
}

const customerRowOf = (row: Row): CustomerRow => ({
  accountId: String(row.id),
  accountName: String(row.name ?? ''),
  createdAt: new Date(row.created_at as string | Date),
  phone: String(row.phone ?? ''),
  email: row.email === null || row.email === undefined ? null : String(row.email),
  realName: row.real_name === null || row.real_name === undefined ? null : String(row.real_name),
  reference: row.reference === null || row.reference === undefined ? null : String(row.reference),
  cards: Number(row.cards ?? 0),
});

/** The page's accounts with their owner, verified name, reference and number of cards, in the page's order. */
const describedAccounts = (where: SQL, limit: number, offset: number) => sql`
  select a.id, a.name, a.created_at, o.phone, o.email, v.real_name, r.reference,
    (select count(*)::int from cards c where c.merchant_id = a.merchant_id and c.account_id = a.id) as cards
  from (select id, name, created_at, merchant_id from accounts a where ${where}
        order by a.created_at desc, a.id desc limit ${limit} offset ${offset}) a
  left join lateral (select m.phone, m.email from members m where m.account_id = a.id and m.role = 'OWNER' limit 1) o on true
  left join card_verifications v on v.account_id = a.id
  left join deposit_references r on r.account_id = a.id
  order by a.created_at desc, a.id desc`;

/** A page of the merchant's customers that `keyword` finds (every customer without one), newest first, and how many. */
export async function searchCustomers(tx: Tx, merchantId: string, keyword: string, limit: number, offset: number) {
  const parts = keyword === '' ? [] : hitsOf(merchantId, keyword);
  const hits = parts.length > 0 ? sql.join(parts, sql` union `) : null;
  const where = hits ? sql`a.merchant_id = ${merchantId} and a.id in (${hits})` : sql`a.merchant_id = ${merchantId}`;
  const counted = hits ? sql`select count(*)::int as n from (${hits}) h` : sql`select count(*)::int as n from accounts a where a.merchant_id = ${merchantId}`;
  const [rows, totals] = await readsOn(tx, [() => rowsOf(tx.execute(describedAccounts(where, limit, offset))), () => rowsOf(tx.execute(counted))]);
  return { rows: rows.map(customerRowOf), total: Number(totals[0]?.n ?? 0) };
}

/** One account of the merchant as the list shows it; undefined for none (or another merchant's). */
export async function findCustomer(tx: Tx, merchantId: string, accountId: string) {
  const rows = await rowsOf(tx.execute(describedAccounts(sql`a.merchant_id = ${merchantId} and a.id = ${accountId}`, 1, 0)));
  return rows[0] ? customerRowOf(rows[0]) : undefined;
}
