import http from 'node:http';
import https from 'node:https';

/** Why a POST got no answer: none within the time allowed, or the network's code (ECONNREFUSED, …). */
export class PostFailed extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface PostAnswer {
  status: number;
  text: string;
}

// connections are kept open between calls: a party called often (the card issuer, the portal's
// webhook) is not made to open a connection per call
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

/**
 * One POST of `body` to `url`, answered with the status and the whole body as text. Resolves for any
 * status; rejects with PostFailed when there is no answer within `timeoutMs` or the connection fails.
 */
export function postText(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<PostAnswer> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : target.protocol === 'http:' ? http : undefined;
  if (!client) return Promise.reject(new PostFailed(`not an http(s) address: ${url}`, false));
  return new Promise((resolve, reject) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        agent: agents[target.protocol as keyof typeof agents],
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        timeout: timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', (error) => reject(new PostFailed(error.message, false, { cause: error })));
      },
    );
    // the whole exchange, not only the idle time between packets, is bounded
    const timer = setTimeout(() => request.destroy(new PostFailed(`no answer within ${timeoutMs} ms`, true)), timeoutMs);
    request.on('close', () => clearTimeout(timer));
    request.on('timeout', () => request.destroy(new PostFailed(`no answer within ${timeoutMs} ms`, true)));
    request.on('error', (error) => {
      reject(error instanceof PostFailed ? error : new PostFailed((error as NodeJS.ErrnoException).code ?? error.message, false, { cause: error }));
    });
    request.end(body);
  });
}
