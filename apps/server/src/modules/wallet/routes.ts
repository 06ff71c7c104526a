import { walletCalls } from '@portal/contract/api/wallet';
import { chinaDateTime } from '@portal/contract/date-time';
import { XLSX_CONTENT_TYPE } from '@portal/contract/wallet';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { registerCall } from '../../http/register-call.ts';
import type { Clock } from '../../lib/clock.ts';
import { cardScopeOf } from '../cards/service.ts';
import type { WalletService } from './service.ts';

/** The wallet calls of spec §7: every one reads the signed-in account's own wallet only. */
export const walletRoutes: FastifyPluginAsync<{ wallet: WalletService; clock: Clock }> = async (app, { wallet, clock }) => {
  registerCall(app, walletCalls.balances, async (request) => ok(await wallet.balances(request.merchant.id, request.principal.account.id)));

  registerCall(app, walletCalls.status, async (request) => ok(await wallet.status(request.merchant.id, request.principal.account.id)));

  registerCall(app, walletCalls.cardAmount, async (request) => {
    const { accountId, heldBy } = cardScopeOf(request.principal);
    return ok(await wallet.cardAmount(request.merchant.id, accountId, heldBy));
  });

  registerCall(app, walletCalls.transactions, async (request) =>
    ok(await wallet.transactions(request.merchant.id, request.principal.account.id, request.query)),
  );

  registerCall(app, walletCalls.exportTransactions, async (request, reply) => {
    const { stream } = await wallet.exportTransactions(request.merchant.id, request.principal.account.id, request.query);
    const day = chinaDateTime(clock.now()).slice(0, 10).replaceAll('-', '');
    const name = `钱包流水-${day}.xlsx`;
    return reply
      .type(XLSX_CONTENT_TYPE)
      .header('content-disposition', `attachment; filename="wallet-transactions-${day}.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`)
      .header('cache-control', 'no-store')
      .send(stream);
  });
};
