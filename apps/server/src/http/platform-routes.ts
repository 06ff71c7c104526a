import { jsonDeeperThan } from '@portal/contract/validation';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../db/engine.ts';
import { refuseBadText, tooDeep } from './request-checks.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** the body's bytes as they arrived, for routes that check a signature over them (platform routes only) */
    rawBody?: Buffer;
  }
}

/**
 * Routes that belong to no merchant: a load balancer's health probe, and the card issuer's webhooks
 * (`webhooks`, each plugin naming its own paths). They live in a context of their own, outside the
 * merchant-by-Host hook of /api/v1, and a JSON body there keeps its raw bytes (request.rawBody), since
 * a signature is computed over exactly what was sent, not over a parsed and re-serialised object.
 */
export const platformRoutes: FastifyPluginAsync<{ database: Pick<Database, 'db' | 'kind'>; webhooks?: FastifyPluginAsync[] }> = async (
  app,
  { database, webhooks = [] },
) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    request.rawBody = body;
    if (body.length === 0) return done(null, undefined);
    const text = body.toString('utf8');
    if (jsonDeeperThan(text)) return done(tooDeep(), undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      const error = new Error('the body is not JSON') as Error & { statusCode: number };
      error.statusCode = 400;
      done(error, undefined);
    }
  });

  // an issuer's event is text a database stores: the same refusal of control characters and lone surrogates as every call's
  app.addHook('preValidation', refuseBadText);

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

  for (const webhook of webhooks) await app.register(webhook);
};
