import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { ErrorCode } from '@portal/contract/errors';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type RawServerDefault } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database } from './db/engine.ts';
import { AppError } from './http/errors.ts';
import { loggerOptions, prettyLogStream } from './http/logging.ts';
import type { Clock } from './lib/clock.ts';
import { systemClock } from './lib/clock.ts';
import { accountRoutes } from './modules/accounts/routes.ts';
import { agreementRoutes } from './modules/agreements/routes.ts';
import { devRoutes } from './modules/dev/routes.ts';
import { EventHub } from './modules/events/hub.ts';
import { eventRoutes } from './modules/events/routes.ts';
import { messageRoutes } from './modules/messages/routes.ts';
import { merchantRoutes } from './modules/merchants/routes.ts';
import {
  MERCHANTS_CHANGED_CHANNEL,
  type MerchantResolver,
  merchantResolver,
  normaliseHost,
  toMerchantView,
} from './modules/merchants/service.ts';
import type { MerchantRow } from './modules/merchants/store.ts';
import { walletRoutes } from './modules/wallet/routes.ts';
import { createWalletService } from './modules/wallet/service.ts';
import { createLedgerService } from './modules/ledger/service.ts';
import type { MailSender } from './providers/mail/port.ts';
import { mailSenderFor, smsSenderFor } from './providers/select.ts';
import type { SmsSender } from './providers/sms/port.ts';
import { loadDrawnPages } from './web/drawn-pages.ts';
import { developmentSecret } from './lib/secrets.ts';
import { controlCharacterField, messages } from '@portal/contract/validation';
import { BALANCE_SIGNAL, balanceEvent } from './modules/ledger/balances.ts';

export type ZodApp = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

export interface Deps {
  config: Config;
  database: Database;
  clock: Clock;
  sms: SmsSender;
  mail: MailSender;
  merchants: MerchantResolver;
  /** this process's open event streams */
  events: EventHub;
  /** server secrets: CODE_HASH_KEY, or outside production one made in DATA_DIR */
  secrets: { codeHashKey: string };
}

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
  /** false: no logging; `{stream}`: the log lines as JSON, written to that stream; else stdout in config.logFormat */
  logger?: boolean | { stream: { write(line: string): void } };
}

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
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const deps: Deps = {
    config,
    database,
    clock: options.clock ?? systemClock,
    sms: options.sms ?? smsSenderFor(config, database.db, app.log),
    mail: options.mail ?? mailSenderFor(config, database.db, app.log),
    merchants: merchantResolver(database.db),
    events: new EventHub(database, app.log, { [BALANCE_SIGNAL]: (merchantId, accountId) => balanceEvent(database.db, merchantId, accountId) }),
    secrets: { codeHashKey: config.codeHashKey ?? developmentSecret(config.dataDir, 'code-hash.key') },
  };
  await deps.events.start();
  // a merchant changed elsewhere (the operator command line, another process) shows at once
  const stopMerchantListener = await database.listen(MERCHANTS_CHANGED_CHANNEL, () => deps.merchants.forget());
  app.addHook('onClose', async () => {
    await stopMerchantListener().catch(() => {});
    await deps.events.stop().catch(() => {});
  });

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).send({ code: error.code, message: error.message, data: error.data });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = error.validation.map((issue) => ({
        field: issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || String(error.validationContext ?? ''),
        message: issue.message ?? '',
      }));
      return reply.status(400).send({
        code: ErrorCode.VALIDATION,
        message: fields[0]?.message || '请求参数有误',
        data: { fields },
      });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send({ code: ErrorCode.PAYLOAD_TOO_LARGE, message: '请求内容过大', data: null });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(400).send({ code: ErrorCode.VALIDATION, message: '请求参数有误', data: null });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ code: ErrorCode.INTERNAL, message: '服务繁忙，请稍后重试', data: null });
  });

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
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  // the API's map is for developers: in production only when asked for
  if (config.apiDocs) await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  // a load balancer's probe: 503 while the database does not answer, so traffic goes elsewhere
  app.get('/healthz', { schema: { hide: true } }, async (request, reply) => {
    try {
      await database.db.execute('select 1');
    } catch (error) {
      request.log.warn({ err: error }, 'health check: the database does not answer');
      return reply.status(503).send({ status: 'unavailable', database: database.kind });
    }
    return reply.send({ status: 'ok', database: database.kind });
  });

  // every /api/v1 call belongs to the merchant that owns the request's host
  await app.register(
    async (api) => {
      api.decorateRequest('merchant', null as unknown as MerchantRow);
      api.addHook('onRequest', async (request) => {
        const merchant = await deps.merchants.byHost(normaliseHost(request.headers.host));
        if (!merchant) throw new AppError(ErrorCode.MERCHANT_UNKNOWN);
        request.merchant = merchant;
      });
      // no text of any call may carry a control character (a NUL could not even be stored)
      api.addHook('preValidation', async (request) => {
        for (const [part, value] of [['body', request.body], ['query', request.query], ['params', request.params]] as const) {
          const field = controlCharacterField(value);
          if (field === null) continue;
          const message = messages.controlCharacter;
          throw new AppError(ErrorCode.VALIDATION, { message, data: { fields: [{ field: field || part, message }] } });
        }
      });
      await api.register(merchantRoutes, { deps });
      await api.register(agreementRoutes, { deps });
      await api.register(accountRoutes, { deps });
      await api.register(messageRoutes, { deps });
      await api.register(eventRoutes, { deps, hub: deps.events });
      const ledger = createLedgerService({ db: database.db, clock: deps.clock });
      await api.register(walletRoutes, { deps, wallet: createWalletService({ db: database.db, clock: deps.clock, ledger }) });
      api.setNotFoundHandler((_request, reply) =>
        reply.status(404).send({ code: ErrorCode.NOT_FOUND, message: '请求的内容不存在', data: null }),
      );
    },
    { prefix: '/api/v1' },
  );

  if (!config.production) await app.register(devRoutes, { deps, prefix: '/api/dev' });

  await registerWebApp(app, config.webDist, deps);

  app.addHook('onClose', async () => {
    if ('close' in deps.mail && typeof deps.mail.close === 'function') deps.mail.close();
  });

  return { app, deps };
}

/**
 * Serves the built portal: hashed assets cached for good, the pages the server draws (web/drawn-pages.ts)
 * for a known host, and index.html for every other page path.
 */
async function registerWebApp(app: ZodApp, webDist: string, deps: Deps) {
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
        const merchant = await deps.merchants.byHost(normaliseHost(request.headers.host));
        const page = merchant ? drawnPages.page(drawnPath, toMerchantView(merchant)) : null;
        // the page differs by host: a cache must not hand one merchant's page to another's host
        if (page) return reply.header('cache-control', 'no-cache').header('vary', 'host').type('text/html; charset=utf-8').send(page);
      }
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ code: ErrorCode.NOT_FOUND, message: '请求的内容不存在', data: null });
  });
}
