import type { StreamEvent } from '@portal/contract/messages';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type EventStreamEnd, openEventStream } from './events.ts';

/** One connection the fake server answered: what was asked, and a handle to write to or end the stream. */
interface Connection {
  headers: Record<string, string>;
  send(event: object): void;
  end(): void;
}

/**
 * A fake fetch for the event stream. Each call takes the next planned answer: 'stream' opens an event
 * stream, 'offline' fails like a network error, a Response is answered as it is.
 */
function fakeServer(plan: Array<'stream' | 'offline' | (() => Response)>) {
  const connections: Connection[] = [];
  let calls = 0;
  const fetch = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const step = plan[Math.min(calls, plan.length - 1)];
    calls += 1;
    if (step === 'offline') throw new TypeError('Failed to fetch');
    if (typeof step === 'function') return step();
    const encoder = new TextEncoder();
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
    });
    init?.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
    connections.push({
      headers: { ...(init?.headers as Record<string, string>) },
      send: (event) => controller.enqueue(encoder.encode(`data: ${JSON.stringify(event)}\n\n`)),
      end: () => controller.close(),
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, connections, calls: () => calls };
}

const refusal = (status: number, code: number, message: string) => () =>
  new Response(JSON.stringify({ code, message, data: null }), { status, headers: { 'content-type': 'application/json' } });

describe('the event stream client', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    // the library clears its timers on window and its visibility listener on document
    vi.stubGlobal('window', globalThis);
    vi.stubGlobal('document', { addEventListener() {}, removeEventListener() {}, hidden: false });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('sends the bearer token and hands over every event but the heartbeat', async () => {
    const server = fakeServer(['stream']);
    const events: StreamEvent[] = [];
    const stream = openEventStream({ getToken: () => 'tok-1', onEvent: (event) => events.push(event), fetch: server.fetch });
    await vi.advanceTimersByTimeAsync(0);
    const [connection] = server.connections;
    expect(connection?.headers.Authorization).toBe('Bearer tok-1');
    connection?.send({ type: 'UNREAD_QUANTITY', unread_quantity: 3 });
    connection?.send({ type: 'HEARTBEAT' });
    connection?.send({ type: 'NOTICE', id: 'm1', title: '到账通知', unread_quantity: 4 });
    await vi.advanceTimersByTimeAsync(0);
    expect(events.map((event) => event.type)).toEqual(['UNREAD_QUANTITY', 'NOTICE']);
    expect(events[1]).toMatchObject({ id: 'm1', title: '到账通知', unread_quantity: 4 });
    stream.close();
  });

  it('retries a failed connection after 3 s, at most 5 times, then gives up', async () => {
    const server = fakeServer(['offline']);
    const ends: EventStreamEnd[] = [];
    openEventStream({ getToken: () => 't', onEvent: () => {}, onEnd: (end) => ends.push(end), fetch: server.fetch });
    await vi.advanceTimersByTimeAsync(0);
    expect(server.calls()).toBe(1);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(server.calls()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.calls()).toBe(2);
    await vi.advanceTimersByTimeAsync(4 * 3_000);
    expect(server.calls()).toBe(6);
    expect(ends).toEqual([{ reason: 'gave-up', error: expect.any(TypeError) }]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.calls()).toBe(6);
  });

  it('restart() after giving up tries again with a fresh count', async () => {
    const server = fakeServer(['offline', 'offline', 'offline', 'offline', 'offline', 'offline', 'stream']);
    const events: StreamEvent[] = [];
    const stream = openEventStream({ getToken: () => 't', onEvent: (event) => events.push(event), fetch: server.fetch });
    await vi.advanceTimersByTimeAsync(5 * 3_000);
    expect(server.calls()).toBe(6);
    stream.restart();
    await vi.advanceTimersByTimeAsync(0);
    expect(server.calls()).toBe(7);
    server.connections[0]?.send({ type: 'NOTICE', id: 'x' });
    await vi.advanceTimersByTimeAsync(0);
    expect(events).toHaveLength(1);
    stream.close();
  });

  it('takes a stream silent for 60 s as broken and opens a new one', async () => {
    const server = fakeServer(['stream']);
    const stream = openEventStream({ getToken: () => 't', onEvent: () => {}, fetch: server.fetch });
    await vi.advanceTimersByTimeAsync(0);
    server.connections[0]?.send({ type: 'UNREAD_QUANTITY', unread_quantity: 0 });
    await vi.advanceTimersByTimeAsync(59_000);
    // a heartbeat keeps it alive
    server.connections[0]?.send({ type: 'HEARTBEAT' });
    await vi.advanceTimersByTimeAsync(59_000);
    expect(server.calls()).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(server.calls()).toBe(1);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(server.calls()).toBe(2);
    stream.close();
  });

  it('reconnects when the server ends the stream, and a working stream starts the count over', async () => {
    const server = fakeServer(['stream']);
    const ends: EventStreamEnd[] = [];
    const stream = openEventStream({ getToken: () => 't', onEvent: () => {}, onEnd: (end) => ends.push(end), fetch: server.fetch });
    // ten times in a row: a stream that carried an event and then ended is not a failure that adds up
    for (let round = 0; round < 10; round++) {
      await vi.advanceTimersByTimeAsync(0);
      const connection = server.connections[round];
      connection?.send({ type: 'UNREAD_QUANTITY', unread_quantity: round });
      await vi.advanceTimersByTimeAsync(0);
      connection?.end();
      await vi.advanceTimersByTimeAsync(3_000);
    }
    expect(server.calls()).toBe(11);
    expect(ends).toEqual([]);
    stream.close();
  });

  it('stops for good when the server refuses the session, and says why', async () => {
    const server = fakeServer([refusal(401, 608, '登录已失效，请重新登录')]);
    const ends: EventStreamEnd[] = [];
    openEventStream({ getToken: () => 'old', onEvent: () => {}, onEnd: (end) => ends.push(end), fetch: server.fetch });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(server.calls()).toBe(1);
    expect(ends).toEqual([{ reason: 'session', code: 608, message: '登录已失效，请重新登录' }]);
  });

  it('stops at once when the server ends the session while the stream is open, and says why', async () => {
    const server = fakeServer(['stream']);
    const ends: EventStreamEnd[] = [];
    const events: unknown[] = [];
    openEventStream({ getToken: () => 't', onEvent: (event) => events.push(event), onEnd: (end) => ends.push(end), fetch: server.fetch });
    await vi.advanceTimersByTimeAsync(0);
    server.connections[0]?.send({ type: 'SESSION_ENDED', error_code: 608, message: '登录已失效，请重新登录' });
    await vi.advanceTimersByTimeAsync(0);
    expect(ends).toEqual([{ reason: 'session', code: 608, message: '登录已失效，请重新登录' }]);
    expect(events).toEqual([]);
    // nothing is tried again
    await vi.advanceTimersByTimeAsync(30_000);
    expect(server.calls()).toBe(1);
  });

  it('retries other refusals like network errors', async () => {
    const server = fakeServer([refusal(500, 1005, '服务繁忙，请稍后重试'), 'stream']);
    const stream = openEventStream({ getToken: () => 't', onEvent: () => {}, fetch: server.fetch });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(server.calls()).toBe(2);
    expect(server.connections).toHaveLength(1);
    stream.close();
  });

  it('reads the token again for every connection', async () => {
    const server = fakeServer(['stream']);
    let token = 'first';
    const stream = openEventStream({ getToken: () => token, onEvent: () => {}, fetch: server.fetch });
    await vi.advanceTimersByTimeAsync(0);
    token = 'second';
    server.connections[0]?.end();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(server.connections.map((connection) => connection.headers.Authorization)).toEqual(['Bearer first', 'Bearer second']);
    stream.close();
  });

  it('close() ends the connection and cancels a pending retry', async () => {
    const server = fakeServer(['offline']);
    const stream = openEventStream({ getToken: () => 't', onEvent: () => {}, fetch: server.fetch });
    await vi.advanceTimersByTimeAsync(0);
    stream.close();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.calls()).toBe(1);

    const live = fakeServer(['stream']);
    const events: StreamEvent[] = [];
    const open = openEventStream({ getToken: () => 't', onEvent: (event) => events.push(event), fetch: live.fetch });
    await vi.advanceTimersByTimeAsync(0);
    open.close();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(live.calls()).toBe(1);
    expect(events).toEqual([]);
  });
});
