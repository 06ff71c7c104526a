import { statementQuery } from '../statements.ts';
import { defineCalls, member } from './call.ts';

const tags = ['wallet'];

/** Monthly statements: the account's wallet and every card, one currency and China-time month, as a file. */
export const statementCalls = defineCalls({
  statement: {
    method: 'GET',
    path: '/statements',
    query: statementQuery,
    raw: 'file',
    summary:
      "The month's statement (China time) for one currency: opening balance, every movement of the wallet and of each card, fees, closing balance; `format` pdf (default) or xlsx; the raw file, not an envelope. A month not yet begun is refused",
    tags,
    who: member('wallet.history'),
  },
});
