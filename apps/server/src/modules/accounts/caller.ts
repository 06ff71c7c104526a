import type { FastifyBaseLogger } from 'fastify';

/** Where the request came from, as the services need it. */
export interface Caller {
  ip: string;
  userAgent: string;
  /** the request's log: what an operator must fix is told there */
  log: Pick<FastifyBaseLogger, 'error'>;
  deviceSecret?: string | undefined;
}
