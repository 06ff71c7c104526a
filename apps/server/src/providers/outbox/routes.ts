import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/engine.ts';
import { listOutbox } from './store.ts';

/** Development only: what the development SMS and mail providers "sent", newest first. */
export const outboxRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/outbox',
    {
      schema: {
        tags: ['development'],
        summary: 'Development outbox (absent in production)',
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(500).default(50), to: z.string().optional() }),
      },
    },
    async (request) => {
      const rows = await listOutbox(db, request.query.limit, request.query.to);
      return rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }));
    },
  );
};
