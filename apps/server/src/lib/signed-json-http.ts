import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type PostAnswer, postText } from './http-post.ts';
import { signIssuerPayload, verifyIssuerSignature } from './issuer-signature.ts';

/**
 * The request handling the simulated partners (the card issuer, the crypto gateway) share: each call a
 * POST whose JSON body is signed (`t=<unix seconds>,v1=<HMAC>` in a header, lib/issuer-signature.ts),
 * each answer JSON; a refusal answers its status and `{error}`. The callers' half (postSignedJson) is
 * what the portal's adapters of both use.
 */
export class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function sendJson(response: ServerResponse, status: number, body: object) {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(new HttpRefusal(413, `a request body is at most ${maxBytes} bytes`));
        request.resume();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export interface SignedBodyOptions {
  /** the header that carries the signature, lower case */
  header: string;
  secret: () => string;
  now: () => Date;
  maxBytes: number;
}

/** The request's body read whole, its signature checked over the exact bytes (401), then read as JSON (400). */
export async function readSignedJson(request: IncomingMessage, options: SignedBodyOptions): Promise<unknown> {
  const raw = await readBody(request, options.maxBytes);
  const header = request.headers[options.header];
  if (!verifyIssuerSignature({ secret: options.secret(), body: raw, header: Array.isArray(header) ? header[0] : header, now: options.now() })) {
    throw new HttpRefusal(401, `bad or missing ${options.header}`);
  }
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new HttpRefusal(400, 'the body is not JSON');
  }
}

/** The pathname of a request (no query). */
export const pathOf = (request: IncomingMessage) => new URL(request.url ?? '/', 'http://simulator').pathname;

/** The zod problems of a body, in one line. */
export const problemsOf = (error: { issues: Array<{ path: PropertyKey[]; message: string }> }) =>
  error.issues.map((issue) => `${issue.path.map(String).join('.')} ${issue.message}`).join('; ');

export interface JsonServerOptions {
  host: string;
  /** 0: any free port */
  port: number;
  /** what listens, for the message when it cannot: "the issuer simulator" */
  name: string;
  /** the status of an error that is no HttpRefusal (500 unless said otherwise) */
  statusOf?: (error: unknown) => number;
  /** told of each error answered with 5xx */
  onFailure?: (error: Error) => void;
}

export interface RunningJsonServer {
  server: Server;
  /** `http://host:port` */
  url: string;
  close(): Promise<void>;
}

/** An HTTP server of `handle`, listening once it resolves; what `handle` throws is answered as `{error}`. */
export async function startJsonServer(handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>, options: JsonServerOptions): Promise<RunningJsonServer> {
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      const status = error instanceof HttpRefusal ? error.status : (options.statusOf?.(error) ?? 500);
      if (status >= 500) options.onFailure?.(error as Error);
      if (!response.headersSent) sendJson(response, status, { error: (error as Error).message });
    });
  });
  // a caller keeps connections open between calls: they are closed well after its own idle limit, not while it reuses one
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException) => {
      const why = error.code === 'EADDRINUSE' ? 'the port is in use' : error.message;
      reject(Object.assign(new Error(`${options.name} cannot listen on ${options.host}:${options.port}: ${why}`), { code: error.code, cause: error }));
    };
    server.once('error', refused);
    server.listen(options.port, options.host, () => {
      server.off('error', refused);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The caller's half: `payload` as JSON, POSTed with its signature in `header`; rejects with PostFailed when no answer comes. */
export function postSignedJson(target: string, payload: object, options: { header: string; secret: string; now: Date; timeoutMs: number }): Promise<PostAnswer> {
  const body = JSON.stringify(payload);
  return postText(target, body, { 'content-type': 'application/json', [options.header]: signIssuerPayload(options.secret, body, options.now) }, options.timeoutMs);
}
