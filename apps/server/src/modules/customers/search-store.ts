import { type SQL, sql } from 'drizzle-orm';
import { readsOn, type Tx } from '../../db/engine.ts';
import { type Row, rowsOf } from '../../db/raw-rows.ts';

// The console's customer search reads the rows of several areas of one merchant (members, the card
// holder's verification, the deposit reference) in statements of its own, as the operators' overview
// does: a search across every customer that no module's service offers. Each term is the start of a
// kept value, read with its account off its own prefix index (text_pattern_ops, the account id last).
//
// The count stops at the cap: each term reads at most cap + 1 entries, so a keyword matching tens of
// thousands costs what one matching a thousand does. The page is then found one of three ways:
// - few matches (all counted): they are read in full, each account by its key, and sorted;
// - more, up to a few tens of thousands: they are gathered into a hashed set, and the merchant's accounts
//   walked newest first on accounts_merchant_created (its index alone) until the page is complete;
// - very many (the terms reaching 20 times the cap): the newest accounts are walked and each is tested against
//   the terms by its key, which finds a page soon when so many match; when the stretch walked holds too
//   few (the matches are older), the hashed set is gathered after all. The first page of fewer matches
//   tries a short walk too.

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One term of a keyword: the table it is read from (as `t`) and the condition on its row. */
interface Term {
  table: SQL;
  matches: SQL;
}

/** The terms a keyword is matched by; none for an empty keyword (every customer). */
function termsOf(keyword: string): Term[] {
  const prefix = (text: string) => `${escapeLike(text)}%`;
  const members = sql`members`;
  const terms: Term[] = [];
  const digits = keyword.replace(/[\s-]/g, '').replace(/^\+?86(?=\d{11}$)/, '');
  if (/^\d{3,}$/.test(digits)) terms.push({ table: members, matches: sql`t.status <> 'REMOVED' and t.phone like ${prefix(digits)}` });
  if (!/\s/.test(keyword)) terms.push({ table: members, matches: sql`t.status <> 'REMOVED' and t.email like ${prefix(keyword.toLowerCase())}` });
  terms.push({ table: sql`card_verifications`, matches: sql`t.real_name like ${prefix(keyword)}` });
  if (/^[A-Za-z0-9-]+$/.test(keyword)) terms.push({ table: sql`deposit_references`, matches: sql`t.reference like ${prefix(keyword.toUpperCase())}` });
  return terms;
}

/** The accounts a term finds among the merchant's rows. */
const hitsOf = (merchantId: string, term: Term) => sql`select t.account_id from ${term.table} t where t.merchant_id = ${merchantId} and ${term.matches}`;

/** Every account the terms find (an account found twice is one entry of the hashed set it goes into). */
const allHits = (merchantId: string, terms: Term[]) =>
  sql.join(
    terms.map((term) => hitsOf(merchantId, term)),
    sql` union all `,
  );

/** At most `cap` + 1 hits of each term, tagged with the term, each term read off its index alone. */
const cappedHits = (merchantId: string, terms: Term[], cap: number) =>
  sql.join(
    terms.map((term, i) => sql`(select ${i}::int as term, h.account_id from (${hitsOf(merchantId, term)}) h limit ${cap + 1})`),
    sql` union all `,
  );

// Newest first is written `desc nulls last`, as accounts_merchant_created keeps it: a plain `desc` (nulls
// first) is another order to the planner, which then sorts every account of the merchant instead.

/** How many entries of each term the count reads to tell very many matches from a few tens of thousands (20,000 for the cap of 1,000). */
const denseOf = (cap: number) => 20 * cap;

/** How many of the newest accounts the walk tests before it gathers every match instead. */
const walkStretch = (end: number) => 2_000 + 5 * end;

/**
 * Below very many matches, the first page or two are still looked for among as many of the newest accounts
 * as the cap (1,000), found there when one account in 25 matches; a deeper page goes to the gathered set at once.
 */
const shortStretch = (end: number, cap: number) => (25 * end <= cap ? 25 * end : 0);

type Ids = string[];
const idsOf = (rows: Row[]): Ids => rows.map((row) => String(row.id));

/** The page of every customer and how many there are, up to the cap. */
async function everyCustomer(tx: Tx, merchantId: string, { limit, offset, cap }: PageAsked) {
  const [rows, counted] = await readsOn(tx, [
    () => rowsOf(tx.execute(sql`select a.id from accounts a where a.merchant_id = ${merchantId} order by a.created_at desc nulls last, a.id desc nulls last limit ${limit} offset ${offset}`)),
    () => rowsOf(tx.execute(sql`select count(*)::int as n from (select 1 from accounts a where a.merchant_id = ${merchantId} limit ${cap + 1}) a`)),
  ]);
  const n = Number(counted[0]?.n ?? 0);
  return { ids: idsOf(rows), total: Math.min(n, cap), capped: n > cap };
}

/** The page of the customers the terms find, and how many, up to the cap. */
async function matching(tx: Tx, merchantId: string, terms: Term[], { limit, offset, cap }: PageAsked) {
  const hits = cappedHits(merchantId, terms, cap);
  // how many entries the terms reach, up to 20 times the cap: tells very many matches from fewer
  const reach = sql.join(
    terms.map((term) => sql`(select 1 from (${hitsOf(merchantId, term)}) h limit ${denseOf(cap)})`),
    sql` union all `,
  );
  const [counted] = await rowsOf(
    tx.execute(sql`with h as (${hits}) select
      (select count(distinct account_id) from h)::int as n,
      coalesce((select max(c) from (select count(*) as c from h group by term) f), 0)::int as fullest,
      (select count(*) from (${reach}) r)::int as reach`),
  );
  const n = Number(counted?.n ?? 0);
  // a term that filled its cap + 1 may hold the same account twice (two members of it) and hide more
  const capped = n > cap || Number(counted?.fullest ?? 0) > cap;
  const total = capped ? cap : n;
  if (!capped) {
    // every hit is among those read: each account looked up by its key and the few sorted
    const rows = await rowsOf(
      tx.execute(sql`
        select a.id from (select distinct account_id from (${hits}) h) h
        cross join lateral (select a.id, a.created_at from accounts a where a.id = h.account_id and a.merchant_id = ${merchantId} offset 0) a
        order by a.created_at desc nulls last, a.id desc nulls last limit ${limit} offset ${offset}`),
    );
    return { ids: idsOf(rows), total, capped };
  }
  const gathered = async () =>
    idsOf(
      await rowsOf(
        // `is true` keeps the set a hashed filter on the walk in order (a join would sort every match)
        tx.execute(sql`
          select a.id from accounts a where a.merchant_id = ${merchantId} and (a.id in (${allHits(merchantId, terms)})) is true
          order by a.created_at desc nulls last, a.id desc nulls last limit ${limit} offset ${offset}`),
      ),
    );
  const end = offset + limit;
  const stretch = Number(counted?.reach ?? 0) >= denseOf(cap) ? walkStretch(end) : shortStretch(end, cap);
  if (stretch < end) return { ids: await gathered(), total, capped };
  const probes = sql.join(
    terms.map((term) => sql`select 1 from ${term.table} t where t.account_id = a.id and t.merchant_id = ${merchantId} and ${term.matches}`),
    sql` union all `,
  );
  const walked = await rowsOf(
    tx.execute(sql`
      select a.id from (select a.id, a.created_at from accounts a where a.merchant_id = ${merchantId}
                        order by a.created_at desc nulls last, a.id desc nulls last limit ${stretch}) a
      cross join lateral (${probes} limit 1) hit
      order by a.created_at desc nulls last, a.id desc nulls last limit ${limit} offset ${offset}`),
  );
  return { ids: walked.length === limit ? idsOf(walked) : await gathered(), total, capped };
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
        order by a.created_at desc nulls last, a.id desc nulls last limit ${limit} offset ${offset}) a
  left join lateral (select m.phone, m.email from members m where m.account_id = a.id and m.role = 'OWNER' limit 1) o on true
  left join card_verifications v on v.account_id = a.id
  left join deposit_references r on r.account_id = a.id
  order by a.created_at desc nulls last, a.id desc nulls last`;

export interface PageAsked {
  limit: number;
  offset: number;
  /** how many matches are counted at most */
  cap: number;
}

/**
 * A page of the merchant's customers that `keyword` finds (every customer without one), newest first, and
 * how many: exact up to `cap`; beyond, `cap` with `capped` true.
 */
export async function searchCustomers(tx: Tx, merchantId: string, keyword: string, asked: PageAsked) {
  const terms = keyword === '' ? [] : termsOf(keyword);
  const { ids, total, capped } = terms.length === 0 ? await everyCustomer(tx, merchantId, asked) : await matching(tx, merchantId, terms, asked);
  const rows =
    ids.length === 0
      ? []
      : await rowsOf(
          tx.execute(
            describedAccounts(
              sql`a.merchant_id = ${merchantId} and a.id in (${sql.join(
                ids.map((id) => sql`${id}`),
                sql`, `,
              )})`,
              ids.length,
              0,
            ),
          ),
        );
  return { rows: rows.map(customerRowOf), total, capped };
}

/** One account of the merchant as the list shows it; undefined for none (or another merchant's). */
export async function findCustomer(tx: Tx, merchantId: string, accountId: string) {
  const rows = await rowsOf(tx.execute(describedAccounts(sql`a.merchant_id = ${merchantId} and a.id = ${accountId}`, 1, 0)));
  return rows[0] ? customerRowOf(rows[0]) : undefined;
}
