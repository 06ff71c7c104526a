import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { ErrorCode } from '@portal/contract/errors';
import { messages } from '@portal/contract/validation';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyPluginAsync, type RawServerDefault } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { createServices, type Services } from './composition.ts';
import type { Config } from './config.ts';
import type { Database } from './db/engine.ts';
import { errorAnswer, sendError } from './http/error-handler.ts';
import { AppError } from './http/errors.ts';
import { loggerOptions, prettyLogStream } from './http/logging.ts';
import { fieldRefusal, RouteTable, refuseBadText, useDepthCheckedJson } from './http/request-checks.ts';
import { withRefusals } from './http/route-documentation.ts';
import { useKeyLimits } from './http/key-limits.ts';
import { OPEN_API_TAG, openApiDescription } from './http/open-api-section.ts';
import { platformRoutes } from './http/platform-routes.ts';
import { API_BASE } from '@portal/contract/api/call';
import { CONSOLE_API_BASE } from '@portal/contract/api/console';
import { consoleMoneyRoutes } from './modules/console-money/routes.ts';
import { consoleRoutes } from './modules/operators/routes.ts';
import { consoleAdminRoutes } from './modules/console-admin/routes.ts';
import { consoleCustomerRoutes } from './modules/customers/routes.ts';
import { registerConsoleApp } from './web/console-app.ts';
import type { Clock } from './lib/clock.ts';
import { systemClock } from './lib/clock.ts';
import { accountRoutes } from './modules/accounts/routes.ts';
import { securityRoutes } from './modules/security/routes.ts';
import { agreementRoutes } from './modules/agreements/routes.ts';
import { cardBatchRoutes } from './modules/batches/routes.ts';
import { cardBulkRoutes } from './modules/bulk/routes.ts';
import { cardProductRoutes } from './modules/card-products/routes.ts';
import { cardRevealRoutes } from './modules/card-reveal/routes.ts';
import { cardRoutes } from './modules/cards/routes.ts';
import { spendingRoutes } from './modules/spending/routes.ts';
import { issuerWebhookRoutes } from './modules/issuer/routes.ts';
import { EventHub } from './modules/events/hub.ts';
import { eventRoutes } from './modules/events/routes.ts';
import { BALANCE_FINISHER } from './modules/ledger/service.ts';
import { merchantRoutes } from './modules/merchants/routes.ts';
import { type MerchantRow, type MerchantService, normaliseHost, toMerchantView } from './modules/merchants/service.ts';
import { messageRoutes } from './modules/messages/routes.ts';
import { UNREAD_FINISHER } from './modules/messages/service.ts';
import { teamRoutes } from './modules/team/routes.ts';
import { statementRoutes } from './modules/statements/routes.ts';
import { apiKeyRoutes } from './modules/api-keys/routes.ts';
import { webhookRoutes } from './modules/webhooks/routes.ts';
import { balanceRuleRoutes } from './modules/balance-rules/routes.ts';
import { walletRoutes } from './modules/wallet/routes.ts';
import { fundingRoutes } from './modules/funding/routes.ts';
import { cryptoWebhookRoutes } from './modules/funding/usdt-routes.ts';
import { activityRoutes, callActivity } from './modules/activity/routes.ts';
import { appPrincipals } from './principals.ts';
import type { MailSender } from './providers/mail/port.ts';
import { outboxRoutes } from './providers/outbox/routes.ts';
import type { CardIssuer } from './providers/issuer/port.ts';
import type { SmsSender } from './providers/sms/port.ts';
import { loadDrawnPages } from './web/drawn-pages.ts';

export type ZodApp = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

declare module 'fastify' {
  interface FastifyRequest {
    merchant: MerchantRow;
  }
}

export interface BuildOptions {
  config: Config;
  database: Database;
  clock?: Clock;
  sms?: SmsSender;
  mail?: MailSender;
  /** the card issuer (by default the HTTP issuer the configuration names) */
  issuer?: CardIssuer;
  /** false: no logging; `{stream}`: the log lines as JSON, written to that stream; else stdout in config.logFormat */
  logger?: boolean | { stream: { write(line: string): void } };
  /** more plugins of routes that belong to no merchant, mounted in the platform context with raw bodies */
  webhooks?: FastifyPluginAsync[];
}

const notFound = () => new AppError(ErrorCode.NOT_FOUND);

/** Builds the server: plugins first, then one register() per module. */
export async function buildApp(options: BuildOptions) {
  const { config, database } = options;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : typeof options.logger === 'object'
          ? { ...loggerOptions(config.logLevel), stream: options.logger.stream }
          : config.logFormat === 'pretty'
            ? { ...loggerOptions(config.logLevel), stream: prettyLogStream() }
            : loggerOptions(config.logLevel),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    requestTimeout: 60_000,
    // a path whose escapes decode to no text ("%zz", half a character) is refused as any bad input is, in the envelope
    frameworkErrors: (error, request, reply) =>
      sendError(reply, error.code === 'FST_ERR_BAD_URL' ? fieldRefusal('path', messages.invalidCharacter) : errorAnswer(error, request)),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const services = createServices({
    config,
    database,
    clock: options.clock ?? systemClock,
    log: app.log,
    sms: options.sms,
    issuer: options.issuer,
    mail: options.mail,
  });
  // the key codes are hashed with is read (or, outside production, made) now: a DATA_DIR that cannot
  // hold it fails the start, not a customer's first code
  services.codeHashKey();
  // this process's open event streams; the modules complete the events that need it per stream
  const hub = new EventHub(database, app.log);
  hub.finish(BALANCE_FINISHER, services.books.balanceEvents);
  hub.finish(UNREAD_FINISHER, services.messages.withUnreadCounts);
  hub.followRoles(services.team.rolesOf);
  await hub.start();
  // a merchant changed elsewhere (the operator command line, another process) shows at once
  const stopFollowingMerchants = await services.merchants.followChanges();
  // callers (sessions, API keys) are kept in memory while every change to them is heard (decision 0012)
  const stopFollowingCallers = await services.sessions.followChanges(database);
  const stopFollowingKeys = await services.apiKeys.followChanges(database);
  // every process's committed webhook events wake this process's sender at once
  const stopFollowingWebhooks = await services.webhooks.followEvents(database);
  // the durable jobs (batches, exports) run in every server process; unfinished ones resume after a restart
  await services.jobs.start();
  app.addHook('onClose', async () => {
    services.webhooks.stop();
    await stopFollowingWebhooks().catch(() => {});
    await services.jobs.stop().catch((error: unknown) => app.log.warn({ err: error }, 'the job queue did not stop cleanly'));
    await stopFollowingMerchants().catch(() => {});
    await stopFollowingCallers().catch(() => {});
    await stopFollowingKeys().catch(() => {});
    await hub.stop().catch(() => {});
    services.mail.close?.();
  });

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => sendError(reply, errorAnswer(error, request)));
  useDepthCheckedJson(app);
  // before any route: the table learns every route's methods and query names as it is added
  const routes = new RouteTable();
  routes.install(app);

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // antd writes its styles at run time
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
    hsts: config.production,
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: '客户门户 API', version: '1.0.0', description: 'Answers are {code, message, data}; code 0 is success.' },
      // the calls open to API keys, with how to authenticate, the Idempotency-Key rule and the rate limit
      tags: [{ name: OPEN_API_TAG, description: openApiDescription() }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'A signed-in session’s token' },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'sk_…',
            description:
              'An API key (设置 → 开发者): the calls marked with a scope take it, within the key’s scopes and its member’s role; writes need an Idempotency-Key',
          },
          operatorBearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'op_…',
            description: 'A console operator’s token (/api/console/v1/auth/login, then /auth/totp): the console’s calls take it, and no other',
          },
        },
      },
    },
    transform: withRefusals(jsonSchemaTransform),
  });
  // the API's map is for developers: in production only when asked for
  if (config.apiDocs) await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  await app.register(platformRoutes, { database, webhooks: [issuerWebhookRoutes(services.issuer), cryptoWebhookRoutes(services.funding), ...(options.webhooks ?? [])] });

  await app.register(merchantApi, { prefix: API_BASE, services, hub, routes });
  await app.register(consoleApi, { prefix: CONSOLE_API_BASE, services, routes });
  if (!config.production) await app.register(outboxRoutes, { db: database.db, prefix: '/api/dev' });
  await registerConsoleApp(app, config.consoleDist, services.merchants);
  await registerWebApp(app, config.webDist, services.merchants, routes);

  return { app, services, hub, routes };
}

/** Every /api/v1 call belongs to the merchant that owns the request's host; each module gets its own services. */
const merchantApi: FastifyPluginAsync<{ services: Services; hub: EventHub; routes: RouteTable }> = async (api, { services, hub, routes }) => {
  api.decorateRequest('merchant', null as unknown as MerchantRow);
  // who is calling is resolved by each call from what its declaration admits (http/register-call.ts)
  api.decorate('principals', appPrincipals(services.sessions, services.apiKeys, services.operators));
  // the calls a team traces write the activity log once they have answered (modules/activity/notes.ts)
  api.decorate('activity', callActivity(services.activity));
  // a key's calls are held to its rate, and its writes to one answer per Idempotency-Key (http/key-limits.ts)
  await useKeyLimits(api, services.apiKeys);
  api.addHook('onRequest', async (request) => {
    const merchant = await services.merchants.byHost(normaliseHost(request.headers.host));
    if (!merchant) throw new AppError(ErrorCode.MERCHANT_UNKNOWN);
    request.merchant = merchant;
  });
  api.addHook('preValidation', refuseBadText);
  await api.register(merchantRoutes);
  await api.register(agreementRoutes, { agreements: services.agreements });
  await api.register(accountRoutes, { accounts: services.accounts });
  await api.register(securityRoutes, { security: services.security });
  await api.register(messageRoutes, { messages: services.messages });
  await api.register(eventRoutes, { hub, unreadCount: services.messages.unreadCount });
  await api.register(walletRoutes, { wallet: services.wallet, clock: services.clock });
  await api.register(fundingRoutes, { funding: services.funding });
  await api.register(statementRoutes, { statements: services.statements });
  await api.register(cardProductRoutes, { products: services.products });
  await api.register(cardRoutes, { cards: services.cards, tradePassword: services.security });
  await api.register(cardRevealRoutes, { reveals: services.reveals });
  await api.register(spendingRoutes, { spending: services.spending });
  await api.register(cardBatchRoutes, { batches: services.cardBatches, exports: services.cardExports, tradePassword: services.security });
  await api.register(cardBulkRoutes, { bulk: services.cardBulk, tradePassword: services.security });
  await api.register(balanceRuleRoutes, { rules: services.balanceRules });
  await api.register(apiKeyRoutes, { keys: services.apiKeys, tradePassword: services.security });
  await api.register(webhookRoutes, { webhooks: services.webhooks });
  await api.register(activityRoutes, { activity: services.activity, clock: services.clock, cards: services.cards });
  await api.register(teamRoutes, { team: services.team, invitations: services.invitations, tradePassword: services.security });
  api.setNotFoundHandler((request, reply) => routes.notFound(request, reply, notFound));
};

/**
 * /api/console/v1: the merchant's console, on the merchant's hosts alone; its calls take operators'
 * tokens only (decision 0015).
 */
const consoleApi: FastifyPluginAsync<{ services: Services; routes: RouteTable }> = async (api, { services, routes }) => {
  api.decorateRequest('merchant', null as unknown as MerchantRow);
  api.decorate('principals', appPrincipals(services.sessions, services.apiKeys, services.operators));
  api.addHook('onRequest', async (request) => {
    const merchant = await services.merchants.byHost(normaliseHost(request.headers.host));
    if (!merchant) throw new AppError(ErrorCode.MERCHANT_UNKNOWN);
    request.merchant = merchant;
  });
  api.addHook('preValidation', refuseBadText);
  await api.register(consoleRoutes, { operators: services.operators });
  await api.register(consoleAdminRoutes, { admin: services.consoleAdmin });
  await api.register(consoleMoneyRoutes, { money: services.consoleMoney });
  await api.register(consoleCustomerRoutes, { customers: services.customers });
  api.setNotFoundHandler((request, reply) => routes.notFound(request, reply, notFound));
};

/**
 * Serves the built portal: hashed assets cached for good, the pages the server draws (web/drawn-pages.ts)
 * for a known host, and index.html for every other page path.
 */
async function registerWebApp(app: ZodApp, webDist: string, merchants: Pick<MerchantService, 'byHost'>, routes: RouteTable) {
  const indexFile = path.join(webDist, 'index.html');
  const hasWeb = existsSync(indexFile);
  // the page renderer takes a moment to load: the server starts without waiting for it, and a page
  // request that comes sooner waits; a renderer that does not load leaves every page to the browser
  const drawnPagesReady = hasWeb
    ? loadDrawnPages(webDist, app.log).catch((error: unknown) => {
        app.log.error({ err: error }, 'the page renderer did not load: pages are drawn by the browser alone');
        return null;
      })
    : Promise.resolve(null);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      preCompressed: true,
      // setHeaders alone decides: send's own "public, max-age=0" would be set after it, over it
      cacheControl: false,
      setHeaders: (res, filePath) => {
        res.setHeader(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    const isPage = request.method === 'GET' && !request.url.startsWith('/api/') && !path.extname(pathname);
    if (isPage && hasWeb) {
      const drawnPath = pathname.replace(/\/+$/, '') || '/';
      const drawnPages = await drawnPagesReady;
      if (drawnPages?.paths.has(drawnPath)) {
        const merchant = await merchants.byHost(normaliseHost(request.headers.host));
        const page = merchant ? drawnPages.page(drawnPath, toMerchantView(merchant)) : null;
        // the page differs by host: a cache must not hand one merchant's page to another's host
        if (page) return reply.header('cache-control', 'no-cache').header('vary', 'host').type('text/html; charset=utf-8').send(page);
      }
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return routes.notFound(request, reply, notFound);
  });
}
