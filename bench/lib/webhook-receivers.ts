// The webhook bench's receivers, in a process of their own (so the bench's own CPU is the sender's and
// the writers'): ENDPOINTS local HTTP servers answering 204. Tells the parent their addresses, then every
// 200 ms how many deliveries arrived (each event once an endpoint); on 'report' sends each first arrival's
// time (ms since the epoch, sub-millisecond) with its event's seq, the count of a card's events that
// arrived at an endpoint after a later one of the same card, and its own CPU seconds.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const ENDPOINTS = Number(process.argv[2] ?? 10);
const now = () => performance.timeOrigin + performance.now();
const seen = new Set<string>();
const lastSeq = new Map<string, number>();
const arrivals: Array<[number, number]> = [];
let outOfOrder = 0;

const servers = await Promise.all(
  Array.from({ length: ENDPOINTS }, async (_, n) => {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const at = now();
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; data: { seq: number; card_id: string } };
        const key = `${n}:${body.id}`;
        if (!seen.has(key)) {
          seen.add(key);
          arrivals.push([body.data.seq, at]);
          const card = `${n}:${body.data.card_id}`;
          if ((lastSeq.get(card) ?? -1) > body.data.seq) outOfOrder += 1;
          else lastSeq.set(card, body.data.seq);
        }
        response.writeHead(204);
        response.end();
      });
    });
    server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return server;
  }),
);

const send = (message: object) => process.send?.(message);
const cpuAtStart = process.cpuUsage();
send({ urls: servers.map((server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`) });
const ticker = setInterval(() => send({ delivered: seen.size }), 200);
process.on('message', (message: { report?: boolean }) => {
  if (!message.report) return;
  clearInterval(ticker);
  const cpu = process.cpuUsage(cpuAtStart);
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  // a large message is still being written when send returns: the channel is closed once it is out
  process.send?.({ arrivals, outOfOrder, cpuSeconds: (cpu.user + cpu.system) / 1e6 }, undefined, {}, () => process.disconnect());
});
