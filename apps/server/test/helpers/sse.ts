import http from 'node:http';
import type { StreamEvent } from '@portal/contract/messages';

/** A client of GET /api/v1/events on a listening server (node:http, which sends the Host given). */
export async function openEventStream(baseUrl: string, host: string, token: string) {
  const url = new URL('/api/v1/events', baseUrl);
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = http.get(url, { headers: { host, authorization: `Bearer ${token}` } }, resolve);
    request.on('error', reject);
  });
  const events: (StreamEvent & { receivedAt: number })[] = [];
  const waiters = new Set<() => void>();
  let ended = false;
  const done = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const value of response) {
        buffer += decoder.decode(value as Buffer, { stream: true });
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trim())
            .join('\n');
          if (data) events.push({ ...(JSON.parse(data) as StreamEvent), receivedAt: Date.now() });
          for (const wake of waiters) wake();
          cut = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // aborted
    } finally {
      ended = true;
      for (const wake of waiters) wake();
    }
  })();
  return {
    response,
    events,
    get ended() {
      return ended;
    },
    /** the first event (from `from` on) that matches, within the time limit */
    async next(match: (event: StreamEvent) => boolean, { timeoutMs = 5000, from = 0 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.slice(from).find(match);
        if (found) return found;
        if (ended) throw new Error(`the stream ended without the awaited event; got ${JSON.stringify(events)}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no awaited event within ${timeoutMs} ms; got ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
          setTimeout(wake, left);
        });
      }
    },
    /** resolves when the server has ended the stream */
    async untilEnded(timeoutMs = 5000) {
      await Promise.race([done, new Promise((_, reject) => setTimeout(() => reject(new Error('the stream did not end')), timeoutMs))]);
    },
    close() {
      response.destroy();
    },
  };
}
