import { afterEach, describe, expect, it, vi } from 'vitest';
import { verifyIssuerSignature } from '../../src/lib/issuer-signature.ts';
import { isLuhnValid, luhnCheckDigit } from '../../src/lib/luhn.ts';
import type { CardIssuer, IssueRequest } from '../../src/providers/issuer/port.ts';
import {
  createIssuerSimulator,
  type IssuerSimulatorOptions,
  RANDOM_FAILURE_REASON,
  type SimulatedEvent,
  SimulatorRefusal,
} from '../../src/providers/issuer/simulator.ts';

const SECRET = 'test-only-issuer-webhook-secret-of-32-chars';
const NOW = new Date('2026-11-24T08:00:00Z');

const request = (card_id: string, bin = '42424242'): IssueRequest => ({
  card_id,
  product: { bin, brand: 'VISA', currency: 'USD' },
  holder: { real_name: '张三', latin_name: 'ZHANG SAN' },
});

interface Attempt {
  event: SimulatedEvent;
  body: string;
  signature: string;
  /** the status the portal answered, or the network error */
  answer: number | string;
}

/**
 * A simulator whose deliveries are recorded instead of sent: `answers` are the statuses the portal
 * gives, in turn (a string throws, as a network error would), 200 once they run out.
 */
function recording(options: Partial<IssuerSimulatorOptions> & { answers?: (number | string)[] } = {}) {
  const attempts: Attempt[] = [];
  const answers = [...(options.answers ?? [])];
  const logged: { level: string; message: string; details: object }[] = [];
  const log = (level: string) => (details: object, message: string) => logged.push({ level, message, details });
  const simulator = createIssuerSimulator({
    secret: () => SECRET,
    delayMs: 0,
    failRate: 0,
    now: () => NOW,
    retryDelaysMs: [0, 0, 0],
    log: { info: log('info'), warn: log('warn'), error: log('error') },
    deliver: async (body, signature) => {
      const answer = answers.shift() ?? 200;
      attempts.push({ event: JSON.parse(body) as SimulatedEvent, body, signature, answer });
      if (typeof answer === 'string') throw new Error(answer);
      return answer;
    },
    ...options,
  });
  /** the events the portal took (answered 2xx), in order */
  const delivered = () => attempts.filter((attempt) => attempt.answer === 200).map((attempt) => attempt.event);
  return { simulator, attempts, delivered, logged };
}

let stoppers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stoppers.map((stop) => stop()));
  stoppers = [];
  vi.useRealTimers();
});
function started(options: Parameters<typeof recording>[0] = {}) {
  const made = recording(options);
  stoppers.push(() => made.simulator.stop());
  return made;
}

describe('the simulated issuer', () => {
  it('accepts an issuance at once and sends a signed card.issued with a valid new number in the BIN', async () => {
    const { simulator, attempts } = started();
    simulator.openCard(request('card_1'));
    expect(attempts).toHaveLength(0);
    await simulator.settled();
    expect(attempts).toHaveLength(1);
    const [{ event, body, signature }] = attempts as [Attempt];
    expect(event).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      type: 'card.issued',
      created_at: NOW.toISOString(),
      data: {
        card_id: 'card_1',
        pan: expect.stringMatching(/^42424242\d{8}$/),
        cvv: expect.stringMatching(/^\d{3}$/),
        exp_month: expect.stringMatching(/^(0[1-9]|1[0-2])$/),
        exp_year: '2029',
      },
    });
    expect(isLuhnValid(event.data.pan as string)).toBe(true);
    expect(verifyIssuerSignature({ secret: SECRET, body, header: signature, now: NOW })).toBe(true);
    expect(verifyIssuerSignature({ secret: `${SECRET}x`, body, header: signature, now: NOW })).toBe(false);
  });

  it('sends nothing before delayMs has passed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { simulator, attempts } = started({ delayMs: 800 });
    simulator.freeze('card_1');
    await vi.advanceTimersByTimeAsync(799);
    expect(attempts).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    await simulator.settled();
    expect(attempts.map((attempt) => attempt.event.type)).toEqual(['card.frozen']);
  });

  it('sends card.frozen, card.unfrozen and card.closed, each naming the card, in the order asked', async () => {
    const { simulator, delivered } = started();
    simulator.freeze('card_1');
    simulator.unfreeze('card_1');
    simulator.close('card_1');
    await simulator.settled();
    expect(delivered().map((event) => [event.type, event.data])).toEqual([
      ['card.frozen', { card_id: 'card_1' }],
      ['card.unfrozen', { card_id: 'card_1' }],
      ['card.closed', { card_id: 'card_1' }],
    ]);
    expect(new Set(delivered().map((event) => event.id)).size).toBe(3);
  });

  it('fails the next issuance only, with the reason given, then issues again', async () => {
    const { simulator, delivered } = started();
    expect(simulator.failNext('  发卡行维护中，请稍后重试 ')).toBe(1);
    simulator.openCard(request('card_1'));
    simulator.openCard(request('card_2'));
    await simulator.settled();
    expect(delivered().map((event) => [event.type, event.data.card_id])).toEqual([
      ['card.failed', 'card_1'],
      ['card.issued', 'card_2'],
    ]);
    expect(delivered()[0]?.data).toEqual({ card_id: 'card_1', reason: '发卡行维护中，请稍后重试' });
  });

  it('fails as many next issuances as fail-next was asked for, in the order asked', async () => {
    const { simulator, delivered } = started();
    simulator.failNext('第一个原因');
    expect(simulator.failNext('第二个原因')).toBe(2);
    for (const id of ['a', 'b', 'c']) simulator.openCard(request(id));
    await simulator.settled();
    expect(delivered().map((event) => event.data.reason ?? event.type)).toEqual(['第一个原因', '第二个原因', 'card.issued']);
  });

  it('refuses an empty or overlong fail-next reason', () => {
    const { simulator } = started();
    expect(() => simulator.failNext('  ')).toThrow(SimulatorRefusal);
    expect(() => simulator.failNext('长'.repeat(201))).toThrow(SimulatorRefusal);
  });

  it('fails every issuance at fail rate 1 and none at 0, whatever the draw', async () => {
    const always = started({ failRate: 1, random: () => 0.999_999 });
    const never = started({ failRate: 0, random: () => 0 });
    for (const id of ['a', 'b']) {
      always.simulator.openCard(request(id));
      never.simulator.openCard(request(id));
    }
    await Promise.all([always.simulator.settled(), never.simulator.settled()]);
    expect(always.delivered().map((event) => event.data)).toEqual([
      { card_id: 'a', reason: RANDOM_FAILURE_REASON },
      { card_id: 'b', reason: RANDOM_FAILURE_REASON },
    ]);
    expect(never.delivered().map((event) => event.type)).toEqual(['card.issued', 'card.issued']);
  });

  it('fails the share of issuances whose draw falls under the rate', async () => {
    const draws = [0.1, 0.5, 0.29, 0.3];
    const { simulator, delivered } = started({ failRate: 0.3, random: () => draws.shift() ?? 1 });
    for (const id of ['a', 'b', 'c', 'd']) simulator.openCard(request(id));
    await simulator.settled();
    expect(delivered().map((event) => event.type)).toEqual(['card.failed', 'card.issued', 'card.failed', 'card.issued']);
  });

  it('tries again after a 500 and a network error, the same event, and settles once it got through', async () => {
    const { simulator, attempts, logged } = started({ answers: [500, 'connect ECONNREFUSED'] });
    simulator.openCard(request('card_1'));
    await simulator.settled();
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((attempt) => attempt.body)).size).toBe(1);
    expect(logged.filter((line) => line.level === 'warn').map((line) => (line.details as { outcome: string }).outcome)).toEqual([
      'HTTP 500',
      'connect ECONNREFUSED',
    ]);
    expect(logged.at(-1)).toMatchObject({ level: 'info', message: 'issuer simulator: event delivered', details: { attempt: 3 } });
  });

  it("gives up after the last pause, logs it, and goes on with the card's next event", async () => {
    const { simulator, attempts, logged } = started({ answers: [503, 503, 503, 503] });
    simulator.freeze('card_1');
    simulator.close('card_1');
    await simulator.settled();
    expect(attempts.map((attempt) => [attempt.event.type, attempt.answer])).toEqual([
      ['card.frozen', 503],
      ['card.frozen', 503],
      ['card.frozen', 503],
      ['card.frozen', 503],
      ['card.closed', 200],
    ]);
    expect(logged.find((line) => line.level === 'error')).toMatchObject({
      message: 'issuer simulator: event not delivered, given up',
      details: { card_id: 'card_1', attempts: 4, outcome: 'HTTP 503' },
    });
  });

  it("delivers a card's later event only after its earlier one got through", async () => {
    const { simulator, attempts } = started({ answers: [500, 500] });
    simulator.openCard(request('card_1'));
    simulator.freeze('card_1');
    await simulator.settled();
    expect(attempts.map((attempt) => [attempt.event.type, attempt.answer])).toEqual([
      ['card.issued', 500],
      ['card.issued', 500],
      ['card.issued', 200],
      ['card.frozen', 200],
    ]);
  });

  it('never issues a number twice, even when the digits drawn repeat', async () => {
    const draws = ['0000000', '0000000', '0000000', '1234567'];
    const { simulator, delivered } = started({ randomDigits: (count) => (count === 7 ? (draws.shift() ?? '7654321') : '1'.repeat(count)) });
    simulator.openCard(request('a'));
    simulator.openCard(request('b'));
    await simulator.settled();
    const [first, second] = delivered().map((event) => event.data.pan);
    expect(first).toBe(`424242420000000${luhnCheckDigit('424242420000000')}`);
    expect(second).toBe(`424242421234567${luhnCheckDigit('424242421234567')}`);
  });

  it('issues many numbers, all different, all in their BIN and all valid', async () => {
    const { simulator, delivered } = started();
    const bins = ['42424242', '55555555', '400000'];
    for (let n = 0; n < 3000; n++) simulator.openCard(request(`card_${n}`, bins[n % 3]));
    await simulator.settled();
    const cards = delivered().map((event) => event.data as { card_id: string; pan: string });
    expect(cards).toHaveLength(3000);
    expect(new Set(cards.map((card) => card.pan)).size).toBe(3000);
    for (const [n, card] of cards.entries()) {
      expect(card.pan).toHaveLength(16);
      expect(card.pan.startsWith(bins[Number(card.card_id.slice(5)) % 3] as string), `${n}`).toBe(true);
      expect(isLuhnValid(card.pan)).toBe(true);
    }
  });

  it('sends the same card again when asked again to open a card it issued', async () => {
    const { simulator, delivered } = started();
    simulator.openCard(request('card_1'));
    simulator.openCard(request('card_1'));
    await simulator.settled();
    const [first, again] = delivered();
    expect(again?.data).toEqual(first?.data);
    expect(again?.id).not.toBe(first?.id);
  });

  it('refuses a request without a card id or with a BIN that is not 6 to 8 digits', async () => {
    const { simulator, attempts } = started();
    await expect(simulator.openCard(request(''))).rejects.toThrow(SimulatorRefusal);
    await expect(simulator.openCard(request('card_1', '4242'))).rejects.toThrow(SimulatorRefusal);
    await expect(simulator.openCard(request('card_1', '424242424'))).rejects.toThrow(SimulatorRefusal);
    await expect(simulator.freeze('')).rejects.toThrow(SimulatorRefusal);
    await simulator.settled();
    expect(attempts).toEqual([]);
  });

  it('is a CardIssuer: its calls resolve once accepted, before the outcome is delivered', async () => {
    const { simulator, attempts } = started();
    const issuer: CardIssuer = simulator;
    await issuer.openCard(request('card_1'));
    await issuer.close('card_1');
    expect(attempts).toHaveLength(0);
    await simulator.settled();
    expect(attempts.map((attempt) => attempt.event.type)).toEqual(['card.issued', 'card.closed']);
  });

  it('once stopped, accepts nothing and drops what was still waiting', async () => {
    const { simulator, attempts } = started({ delayMs: 60_000 });
    simulator.freeze('card_1');
    await simulator.stop();
    await simulator.settled();
    expect(attempts).toHaveLength(0);
    await expect(simulator.freeze('card_1')).rejects.toThrow(/stopped/);
  });
});
