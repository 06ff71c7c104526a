import { appendFileSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IssueRequest } from '../../src/providers/issuer/port.ts';
import { fileJournal, simulatorJournalFile } from '../../src/providers/issuer/simulator-journal.ts';
import {
  createIssuerSimulator,
  DELIVERY_RETRY_DELAYS_MS,
  deliveryRetryDelays,
  type IssuerSimulatorOptions,
  type SimulatedEvent,
} from '../../src/providers/issuer/simulator.ts';

const SECRET = 'test-only-issuer-webhook-secret-of-32-chars';
const request = (card_id: string): IssueRequest => ({ card_id, product: { bin: '42424242', brand: 'VISA', currency: 'USD' }, holder: { real_name: '张三', latin_name: null } });

let dataDir: string;
let file: string;
const running: Array<{ stop(): Promise<void> }> = [];
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'issuer-journal-'));
  file = simulatorJournalFile(dataDir);
});
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(running.splice(0).map((simulator) => simulator.stop()));
  await rm(dataDir, { recursive: true, force: true });
});

/** A simulator on the journal in `file`, signing with `sharedSecret`; the portal answers `status` (a string: no answer at all) and approves every authorisation. */
function simulatorOn(options: { status?: number | string; sharedSecret?: string } & Partial<Omit<IssuerSimulatorOptions, 'secret'>> = {}) {
  const delivered: SimulatedEvent[] = [];
  const simulator = createIssuerSimulator({
    secret: () => options.sharedSecret ?? SECRET,
    delayMs: 0,
    failRate: 0,
    retryDelaysMs: [],
    journal: fileJournal(file, () => options.sharedSecret ?? SECRET),
    deliver: async (body) => {
      if (typeof options.status === 'string') throw new Error(options.status);
      const status = options.status ?? 200;
      if (status === 200) delivered.push(JSON.parse(body) as SimulatedEvent);
      return status;
    },
    ask: async () => ({ status: 200, text: JSON.stringify({ approved: true }) }),
    ...options,
  });
  running.push(simulator);
  return { simulator, delivered };
}

describe("the simulated issuer's journal", () => {
  it('survives a restart: the cards it opened keep their numbers, and the events the portal did not take are delivered after it, once', async () => {
    // the portal is down: with a long first pause nothing gets through before the stop
    const before = simulatorOn({ status: 'connection refused', retryDelaysMs: [3_600_000] });
    await before.simulator.openCard(request('card_a'));
    await before.simulator.freeze('card_a');
    const known = await before.simulator.getCard('card_a');
    expect(known).toMatchObject({ status: 'ISSUED', state: 'FROZEN' });
    await before.simulator.stop();

    const after = simulatorOn();
    await after.simulator.settled();
    expect(after.delivered.map((event) => event.type)).toEqual(['card.issued', 'card.frozen']);
    expect(after.delivered[0]?.data).toEqual({ card_id: 'card_a', pan: (known as { pan: string }).pan, cvv: (known as { cvv: string }).cvv, exp_month: (known as { exp_month: string }).exp_month, exp_year: (known as { exp_year: string }).exp_year });
    expect(await after.simulator.getCard('card_a')).toEqual(known);
    // asked again to open it, the same card, not a second one
    await after.simulator.openCard(request('card_a'));
    await after.simulator.settled();
    expect(after.delivered[2]?.data).toEqual(after.delivered[0]?.data);
    await after.simulator.stop();

    // delivered once: a third start has nothing left to send
    const third = simulatorOn();
    await third.simulator.settled();
    expect(third.delivered).toEqual([]);
  });

  it("keeps a closed card's open authorisation: settled, reversed or refunded after a restart, its events still go out", async () => {
    const before = simulatorOn();
    await before.simulator.openCard(request('card_c'));
    const settleLater = await before.simulator.purchase({ card_id: 'card_c', amount: '50.00', currency: 'USD', merchant_name: 'Meta Ads', mcc: '7311', country: 'US' });
    const reverseLater = await before.simulator.purchase({ card_id: 'card_c', amount: '20.00', currency: 'USD', merchant_name: 'Shopify', mcc: '5999', country: 'US' });
    expect([settleLater.approved, reverseLater.approved]).toEqual([true, true]);
    await before.simulator.close('card_c');
    await before.simulator.settled();
    await before.simulator.stop();

    const after = simulatorOn();
    const settled = await after.simulator.followUp(settleLater.authorization_id, { action: 'settle', amount: '48.00' });
    const refunded = await after.simulator.followUp(settleLater.authorization_id, { action: 'refund', amount: '8.00' });
    const reversed = await after.simulator.followUp(reverseLater.authorization_id, { action: 'reverse' });
    await after.simulator.settled();
    expect([...settled.followed, ...refunded.followed, ...reversed.followed].map((sent) => [sent.type, sent.delivery])).toEqual([
      ['transaction.settled', 'delivered'],
      ['transaction.refund', 'delivered'],
      ['authorization.reversed', 'delivered'],
    ]);
    expect(after.delivered.map((event) => [event.type, event.data.authorization_id ?? event.data.original_id])).toEqual([
      ['transaction.settled', settleLater.authorization_id],
      ['transaction.refund', settleLater.authorization_id],
      ['authorization.reversed', reverseLater.authorization_id],
    ]);
    // and what was done stays done across the next restart: settled once
    await after.simulator.stop();
    const third = simulatorOn();
    await expect(third.simulator.followUp(settleLater.authorization_id, { action: 'settle' })).rejects.toThrow(/settled already/);
  });

  it('keeps a fail-next across a restart', async () => {
    const before = simulatorOn();
    before.simulator.failNext('BIN 额度已满');
    await before.simulator.stop();
    const after = simulatorOn();
    await after.simulator.openCard(request('card_f'));
    expect(await after.simulator.getCard('card_f')).toEqual({ status: 'FAILED', card_id: 'card_f', reason: 'BIN 额度已满' });
  });

  it('holds no card number in clear, and skips a line cut short by a crash or sealed with another secret', async () => {
    const before = simulatorOn();
    await before.simulator.openCard(request('card_s'));
    await before.simulator.settled();
    const numbers = (await before.simulator.getCard('card_s')) as { pan: string; cvv: string };
    await before.simulator.stop();
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(numbers.pan);
    expect(text).not.toContain('card_s');
    appendFileSync(file, 'v1.cut-short');
    const after = simulatorOn();
    expect(await after.simulator.getCard('card_s')).toMatchObject({ status: 'ISSUED', pan: numbers.pan });
    await after.simulator.stop();
    const otherSecret = simulatorOn({ sharedSecret: 'another-issuer-webhook-secret-of-32-chars' });
    expect(await otherSecret.simulator.getCard('card_s')).toEqual({ status: 'UNKNOWN', card_id: 'card_s' });
  });
});

describe("the simulated issuer's delivery schedule", () => {
  it('tries again for a day: from 1 s, doubling up to 15 minutes, and only then gives up', () => {
    const delays = deliveryRetryDelays();
    expect(delays.slice(0, 6)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000]);
    for (const [index, delay] of delays.entries()) if (index > 0) expect(delay).toBeGreaterThanOrEqual(delays[index - 1] as number);
    expect(Math.max(...delays)).toBe(15 * 60_000);
    const total = delays.reduce((sum, delay) => sum + delay, 0);
    expect(total).toBeGreaterThanOrEqual(24 * 60 * 60_000);
    expect(total).toBeLessThan(24 * 60 * 60_000 + 15 * 60_000);
    expect(DELIVERY_RETRY_DELAYS_MS).toEqual(delays);
  });

  it('is what a simulator uses unless told otherwise: a portal down for 20 s, or for an hour, still gets its events', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const start = Date.now();
    let downUntil = start + 20_000;
    const delivered: string[] = [];
    const simulator = createIssuerSimulator({
      secret: () => SECRET,
      delayMs: 0,
      failRate: 0,
      deliver: async (body) => {
        if (Date.now() < downUntil) return 503;
        delivered.push((JSON.parse(body) as SimulatedEvent).data.card_id as string);
        return 200;
      },
    });
    running.push(simulator);
    await simulator.openCard(request('card_d'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(delivered).toEqual(['card_d']);
    downUntil = Date.now() + 3_600_000;
    await simulator.openCard(request('card_e'));
    await vi.advanceTimersByTimeAsync(3_600_000 + 16 * 60_000);
    expect(delivered).toEqual(['card_d', 'card_e']);
  });
});
