import type { RouteObject } from 'react-router';
import { paths } from '../lib/paths.ts';

/** The customers' screens: the search, one customer, and the cards and transactions across customers. */
export const customerRoutes: RouteObject[] = [
  { path: paths.customers.path.slice(1), lazy: async () => ({ Component: (await import('../features/customers/customers-page.tsx')).CustomersPage }) },
  { path: paths.customer.path.slice(1), lazy: async () => ({ Component: (await import('../features/customers/customer-page.tsx')).CustomerPage }) },
  { path: paths.cards.path.slice(1), lazy: async () => ({ Component: (await import('../features/customers/cards-page.tsx')).CardsPage }) },
  { path: paths.transactions.path.slice(1), lazy: async () => ({ Component: (await import('../features/customers/transactions-page.tsx')).TransactionsPage }) },
];
