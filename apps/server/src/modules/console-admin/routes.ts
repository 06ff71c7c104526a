import { consoleCalls } from '@portal/contract/api/console';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { registerCall } from '../../http/register-call.ts';
import type { AuditActor } from '../operators/service.ts';
import type { ConsoleAdminService } from './service.ts';

const actorOf = (request: FastifyRequest): AuditActor => ({ channel: 'CONSOLE', operator: request.operator.operator, ip: request.ip });

/** /api/console/v1: card products and fees, agreements and announcements (decision 0015: one registerCall a call). */
export const consoleAdminRoutes: FastifyPluginAsync<{ admin: ConsoleAdminService }> = async (app, { admin }) => {
  registerCall(app, consoleCalls.products, async (request) => ok(await admin.products(request.merchant.id)));
  registerCall(app, consoleCalls.createProduct, async (request) => ok(await admin.createProduct(request.merchant.id, request.body, actorOf(request))));
  registerCall(app, consoleCalls.changeProduct, async (request) =>
    ok(await admin.changeProduct(request.merchant.id, request.params.id, request.body, actorOf(request))),
  );
  registerCall(app, consoleCalls.agreements, async (request) => ok(await admin.agreements(request.merchant.id)));
  registerCall(app, consoleCalls.publishAgreement, async (request) => ok(await admin.publishAgreement(request.merchant.id, request.body, actorOf(request))));
  registerCall(app, consoleCalls.announcements, async (request) => ok(await admin.announcements(request.merchant.id, request.query)));
  registerCall(app, consoleCalls.publishAnnouncement, async (request) =>
    ok(await admin.publishAnnouncement(request.merchant.id, request.body, actorOf(request))),
  );
};
