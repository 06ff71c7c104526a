import { consoleCalls } from '@portal/contract/api/console';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { registerCall } from '../../http/register-call.ts';
import type { CustomerService } from './service.ts';

/** The operator acting, as the customers' actions record them. */
const actorOf = (request: FastifyRequest) => ({
  merchant: { id: request.merchant.id, name: request.merchant.name },
  signedIn: request.operator,
  caller: { ip: request.ip, userAgent: String(request.headers['user-agent'] ?? '') },
});

/** /api/console/v1: the customers, one customer and what an operator does to them, the cards and transactions across customers. */
export const consoleCustomerRoutes: FastifyPluginAsync<{ customers: CustomerService }> = async (app, { customers }) => {
  registerCall(app, consoleCalls.customers, async (request) => ok(await customers.search(request.merchant.id, request.query)));
  registerCall(app, consoleCalls.customer, async (request) => ok(await customers.detail(request.merchant.id, request.params.id)));
  registerCall(app, consoleCalls.messageCustomer, async (request) => ok(await customers.message(actorOf(request), request.params.id, request.body)));
  registerCall(app, consoleCalls.customerWalletStatus, async (request) => ok(await customers.walletStatus(actorOf(request), request.params.id, request.body)));
  registerCall(app, consoleCalls.cardStatus, async (request) => ok(await customers.cardStatus(actorOf(request), request.params.id, request.body)));
  registerCall(app, consoleCalls.cards, async (request) => ok(await customers.cards(request.merchant.id, request.query)));
  registerCall(app, consoleCalls.transactions, async (request) => ok(await customers.transactions(request.merchant.id, request.query)));
};
