import type { FastifyBaseLogger, FastifyRequest } from 'fastify';

/** Where the request came from, as the services need it. */
export interface Caller {
  ip: string;
  userAgent: string;
  /** the request's log: what an operator must fix is told there */
  log: Pick<FastifyBaseLogger, 'error'>;
  deviceSecret?: string | undefined;
}

/** The trusted-device secret travels in an HttpOnly cookie that only the account calls receive. */
export const DEVICE_COOKIE = 'portal_device';

function readCookie(request: FastifyRequest, name: string) {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/** The caller of a request, with the trusted-device secret its cookie carries. */
export const callerOf = (request: FastifyRequest): Caller => ({
  ip: request.ip,
  userAgent: String(request.headers['user-agent'] ?? ''),
  log: request.log,
  deviceSecret: readCookie(request, DEVICE_COOKIE),
});
