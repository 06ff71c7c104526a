import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A local HTTP endpoint that records every POST it receives; `answer` decides each reply (status,
 * and an optional wait before it), so a test can make it fail, recover or hang.
 */
export async function webhookReceiver() {
  const received: Received[] = [];
  let answer: (request: Received) => { status: number; waitMs?: number; body?: string } = () => ({ status: 200, body: 'ok' });
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const one: Received = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(one);
      const reply = answer(one);
      const send = () => {
        if (response.destroyed) return;
        response.writeHead(reply.status, { 'content-type': 'text/plain' });
        response.end(reply.body ?? `status ${reply.status}`);
      };
      if (reply.waitMs) setTimeout(send, reply.waitMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** the bodies received, parsed */
    bodies: () => received.map((one) => JSON.parse(one.body) as { id: string; type: string; created_at: string; data: Record<string, unknown> }),
    answerWith(next: typeof answer) {
      answer = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
