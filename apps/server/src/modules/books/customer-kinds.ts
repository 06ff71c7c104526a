import { sql } from 'drizzle-orm';
import { CUSTOMER_KINDS } from '../ledger/accounts.ts';

/** The customers' account kinds, as a list for `in (…)`. */
export const customerKindsSql = sql.join(
  CUSTOMER_KINDS.map((kind) => sql`${kind}`),
  sql`, `,
);
