import type { FastifyRequest } from 'fastify';
import pretty from 'pino-pretty';

/** Query parameters whose values never reach a log line: secrets, and who a customer is. */
const SECRET_PARAMS = /^(code|captcha|token|password|trx_password|ticket|secret|key|email|phone|to|account|invitation)$/i;
/** path segments that are secrets themselves: an invitation's token (GET /team/invitations/by-token/<token>) */
const SECRET_SEGMENTS = /(\/by-token\/)[^/?#]+/gi;

/** Phone numbers and e-mail addresses, wherever they stand in a text (an error's message, a failed query's parameters). */
const PERSONAL = [
  { pattern: /[\w.+-]+@[\w-]+(\.[\w-]+)+/g, mask: '***@***' },
  { pattern: /(?<!\d)1[3-9]\d{9}(?!\d)/g, mask: '1**********' },
];

export const withoutPersonalData = (text: string) => PERSONAL.reduce((result, { pattern, mask }) => result.replace(pattern, mask), text);

/**
 * An error as a log line shows it: its kind, code, message and stack, and its cause's, with phone
 * numbers and e-mail addresses masked and a failed query's parameters left out.
 */
export function errorSerializer(error: unknown, depth = 0): { [key: string]: unknown; type: string; message: string; stack: string } {
  if (!(error instanceof Error)) return { type: typeof error, message: withoutPersonalData(String(error)), stack: '' };
  const clean = (text: string | undefined) => withoutPersonalData((text ?? '').replace(/\nparams: [\s\S]*$/, '\nparams: (left out)'));
  const { code } = error as { code?: unknown };
  return {
    type: error.name,
    ...(code !== undefined ? { code } : {}),
    message: clean(error.message),
    stack: clean(error.stack),
    ...(error.cause !== undefined && depth < 3 ? { cause: errorSerializer(error.cause, depth + 1) } : {}),
  };
}

/** The path with secrets masked: "/reset-password?email=***&code=***", "/team/invitations/by-token/***". */
export function safeUrl(given: string) {
  const url = given.replace(SECRET_SEGMENTS, '$1***');
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
  serializers: { req: requestSerializer, err: (error: Error) => errorSerializer(error) },
});

/**
 * Readable log lines for development: time, level, the message, other fields on the same line.
 * A request is one line when it comes in and one when it is answered, tied by the request id:
 * "→ GET /api/v1/merchant (localhost)" and "← 200 in 3 ms".
 */
export function prettyLogStream(destination: number | NodeJS.WritableStream = 1) {
  return pretty({
    destination,
    // written before the next line is taken, so nothing is lost when the process exits at once
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    singleLine: true,
    ignore: 'pid,hostname,reqId,req,res,responseTime',
    messageFormat: (log, messageKey) => {
      const id = log.reqId === undefined ? '' : `[${String(log.reqId)}] `;
      const message = String(log[messageKey] ?? '');
      const req = log.req as ReturnType<typeof requestSerializer> | undefined;
      const res = log.res as { statusCode?: number } | undefined;
      // Fastify's own two lines of every request
      if (message === 'incoming request' && req?.method) return `${id}→ ${req.method} ${req.url}${req.host ? ` (${req.host})` : ''}`;
      if (message === 'request completed' && res?.statusCode !== undefined && typeof log.responseTime === 'number') {
        return `${id}← ${res.statusCode} in ${Math.round(log.responseTime)} ms`;
      }
      return `${id}${message}`;
    },
  });
}
