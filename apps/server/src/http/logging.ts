import type { FastifyRequest } from 'fastify';

/** Query parameters whose values never reach a log line. */
const SECRET_PARAMS = /^(code|captcha|token|password|trx_password|ticket|secret|key)$/i;

/** The path with secret query values masked: "/reset-password?email=a&code=***". */
export function safeUrl(url: string) {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of [...params.keys()]) if (SECRET_PARAMS.test(key)) params.set(key, '***');
  return `${url.slice(0, q)}?${params.toString()}`;
}

export const requestSerializer = (request: FastifyRequest) => ({
  method: request.method,
  url: safeUrl(request.url),
  host: request.headers.host,
  remoteAddress: request.ip,
});

export const loggerOptions = (level: string) => ({
  level,
  // the bearer token, cookies and any body field named like a secret stay out of the log
  redact: {
    paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'],
    censor: '***',
  },
  serializers: { req: requestSerializer },
});
