import http from 'node:http';
import { sql } from 'drizzle-orm';
import type { Database } from '../../apps/server/src/db/engine.ts';
import { type apiCaller, dataOf } from './server.ts';

const GOAL_BULK_SECONDS = 20;

/** The cards bench's client side: an account's event stream, and phase D's bulk top-up. */

/**
 * One account's event stream (GET /api/v1/events): calls `onCardStatus` for each CARD_STATUS with
 * the moment it arrived; resolves once the stream has opened (its first event, the unread count).
 */
export function openStream(port: number, host: string, token: string, agent: http.Agent, onCardStatus: (cardId: string, status: string, at: number) => void) {
  return new Promise<http.ClientRequest>((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/api/v1/events', agent, headers: { host, authorization: `Bearer ${token}` } }, (response) => {
      if (response.statusCode !== 200) return reject(new Error(`event stream: HTTP ${response.statusCode}`));
      response.setEncoding('utf8');
      let buffer = '';
      let opened = false;
      response.on('data', (chunk: string) => {
        const at = performance.now();
        buffer += chunk;
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5))
            .join('\n');
          if (data) {
            const event = JSON.parse(data) as { type: string; card_id?: string; card_status?: string };
            if (event.type === 'CARD_STATUS' && event.card_id && event.card_status) onCardStatus(event.card_id, event.card_status, at);
            if (!opened) {
              opened = true;
              resolve(request);
            }
          }
          cut = buffer.indexOf('\n\n');
        }
      });
      response.on('error', () => {});
    });
    request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
  });
}

/**
 * Phase D of bench:cards: one bulk action tops up `count` of an account's NORMAL cards by 1.00 each. Prints the
 * time to accept it (the review, the whole cost held) and from the request to its end, as its durable job runs
 * it; answers whether every card succeeded within the goal.
 */
export async function bulkTopUp(call: ReturnType<typeof apiCaller>, database: Database, who: { id: string; token: string }, count: number) {
  const ids = (
    (await database.db.execute(sql`select id from cards where account_id = ${who.id} and status = 'NORMAL' order by created_at, id limit ${count}`)) as unknown as {
      rows: Array<{ id: string }>;
    }
  ).rows.map((row) => row.id);
  const started = performance.now();
  const accepted = dataOf(
    await call<{ id: string }>('POST', '/card/bulk-actions', who.token, { action: 'RECHARGE', card_ids: ids, params: { amount: '1.00' } }, { 'idempotency-key': `bench-bulk-${Date.now()}` }),
    'POST /card/bulk-actions',
  );
  const acceptedAt = performance.now();
  let ended: { status: string; succeeded: number; failed: number } = { status: 'PENDING', succeeded: 0, failed: 0 };
  while (ended.status !== 'DONE') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    ended = dataOf(await call<typeof ended>('GET', `/card/bulk-actions/${accepted.id}`, who.token), 'GET /card/bulk-actions/{id}');
    if (performance.now() - started > 600_000) throw new Error('the bulk action did not end in 10 minutes');
  }
  const wall = (performance.now() - started) / 1000;
  console.log(
    `\nphase D: one bulk action (POST /api/v1/card/bulk-actions, RECHARGE 1.00 each) on ${ids.length} cards of the big account: ` +
      `accepted (reviewed, the whole cost held) in ${((acceptedAt - started) / 1000).toFixed(1)} s; request → DONE ${wall.toFixed(1)} s ` +
      `(${Math.round(ids.length / wall)} cards/s); ${ended.succeeded} succeeded, ${ended.failed} failed`,
  );
  const pass = ended.failed === 0 && ended.succeeded === ids.length && wall <= GOAL_BULK_SECONDS;
  console.log(`goal: ${ids.length} cards topped up by one bulk action ≤ ${GOAL_BULK_SECONDS} s: ${wall.toFixed(1)} s — ${pass ? 'PASS' : 'FAIL'}`);
  return pass;
}
