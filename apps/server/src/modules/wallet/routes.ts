import { envelope } from '@portal/contract/envelope';
import {
  accountBalanceAnswer,
  balanceStatusAnswer,
  cardAmountAnswer,
  walletTransactionExportQuery,
  walletTransactionPage,
  walletTransactionQuery,
  XLSX_CONTENT_TYPE,
} from '@portal/contract/wallet';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../http/envelope.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SessionService } from '../sessions/service.ts';
import { chinaDateTime } from '@portal/contract/date-time';
import type { WalletService } from './service.ts';

const tags = ['wallet'];
const security = [{ bearer: [] }];

/** The wallet calls of spec §7: every one reads the signed-in account's own wallet only. */
export const walletRoutes: FastifyPluginAsyncZod<{ wallet: WalletService; sessions: SessionService; clock: Clock }> = async (
  app,
  { wallet, sessions, clock },
) => {
  app.addHook('onRequest', sessions.guard());

  app.get(
    '/balance/account-balance',
    {
      schema: {
        tags,
        security,
        summary: 'Available and held (anew) per currency, as two-decimal strings',
        response: { 200: envelope(accountBalanceAnswer) },
      },
    },
    async (request) => ok(await wallet.balances(request.merchant.id, request.auth.account.id)),
  );

  app.get(
    '/balance/account-balance-status',
    {
      schema: {
        tags,
        security,
        summary: 'BALANCE_STATUS_AVAILABLE, or BALANCE_STATUS_FROZEN (nothing can leave the wallet) with the reason',
        response: { 200: envelope(balanceStatusAnswer) },
      },
    },
    async (request) => ok(await wallet.status(request.merchant.id, request.auth.account.id)),
  );

  app.get(
    '/balance/card-amount',
    {
      schema: {
        tags,
        security,
        summary: "The total on the account's cards, per currency",
        response: { 200: envelope(cardAmountAnswer) },
      },
    },
    async (request) => ok(await wallet.cardAmount(request.merchant.id, request.auth.account.id)),
  );

  app.get(
    '/balance/transactions',
    {
      schema: {
        tags,
        security,
        summary: 'Wallet transactions, newest first, paginated; filter by type, currency and date range (days in UTC+8)',
        querystring: walletTransactionQuery,
        response: { 200: envelope(walletTransactionPage) },
      },
    },
    async (request) => ok(await wallet.transactions(request.merchant.id, request.auth.account.id, request.query)),
  );

  app.get(
    '/balance/transactions/export',
    {
      schema: {
        tags,
        security,
        summary: 'The filtered wallet transactions as an .xlsx spreadsheet (the raw file, not an envelope)',
        querystring: walletTransactionExportQuery,
      },
    },
    async (request, reply) => {
      const { stream } = await wallet.exportTransactions(request.merchant.id, request.auth.account.id, request.query);
      const day = chinaDateTime(clock.now()).slice(0, 10).replaceAll('-', '');
      const name = `钱包流水-${day}.xlsx`;
      return reply
        .type(XLSX_CONTENT_TYPE)
        .header('content-disposition', `attachment; filename="wallet-transactions-${day}.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );
};
