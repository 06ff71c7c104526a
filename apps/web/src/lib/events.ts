import { EVENT_TYPES, HEARTBEAT_TIMEOUT_SECONDS } from '@portal/contract/events';
import { ErrorCode, isSessionErrorCode } from '@portal/contract/errors';
import type { StreamEvent } from '@portal/contract/messages';
import { type EventSourceMessage, fetchEventSource } from '@microsoft/fetch-event-source';
import { urlOf } from './api-client.ts';
import * as eventCalls from './generated/events-calls.ts';

/**
 * The client of the account's event stream, GET /events (spec §4, §7, §9). It sends the
 * session token as a bearer header, which the browser's own EventSource cannot, so it is built on
 * @microsoft/fetch-event-source. A connection that fails, ends, or stays silent for 60 s is closed
 * and opened again 3 s later, at most 5 times in a row; an answered connection starts the count
 * over. When the server refuses the session itself, or ends it while the stream is open (its last
 * event, SESSION_ENDED), nothing is retried.
 */

const EVENTS_URL = urlOf(eventCalls.stream);
const RETRY_DELAY_MS = 3_000;
const MAX_RETRIES = 5;
const HEARTBEAT_TIMEOUT_MS = HEARTBEAT_TIMEOUT_SECONDS * 1000;

/** Why the stream stopped for good. */
export type EventStreamEnd =
  | { reason: 'session'; code: number; message: string }
  | { reason: 'gave-up'; error: unknown };

export interface EventStreamOptions {
  /** the token of the session; read again for every connection */
  getToken: () => string | null;
  /** every event except heartbeats */
  onEvent: (event: StreamEvent) => void;
  /** the stream stopped and will not come back by itself */
  onEnd?: (end: EventStreamEnd) => void;
  url?: string;
  retryDelayMs?: number;
  maxRetries?: number;
  heartbeatTimeoutMs?: number;
  /** the fetch to use; tests hand in their own */
  fetch?: typeof fetch;
}

export interface EventStream {
  /** stops the stream; nothing is retried afterwards */
  close(): void;
  /** after the stream gave up: try again, with a fresh count of retries */
  restart(): void;
}

/** The server answered something other than a stream: an envelope {code, message} or a bare HTTP error. */
class StreamRefused extends Error {
  override readonly name = 'StreamRefused';
  constructor(
    readonly status: number,
    readonly code: number | null,
    message: string,
  ) {
    super(message);
  }
}

class StreamSilent extends Error {
  override readonly name = 'StreamSilent';
}

class StreamEnded extends Error {
  override readonly name = 'StreamEnded';
}

async function refusalOf(response: Response): Promise<StreamRefused> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // not JSON: only the HTTP status tells what happened
  }
  const envelope = body as { code?: unknown; message?: unknown } | null;
  const code = typeof envelope?.code === 'number' ? envelope.code : null;
  const message = typeof envelope?.message === 'string' ? envelope.message : `HTTP ${response.status}`;
  return new StreamRefused(response.status, code, message);
}

function parseEvent(data: string): StreamEvent | null {
  try {
    const value: unknown = JSON.parse(data);
    if (typeof value === 'object' && value !== null && typeof (value as StreamEvent).type === 'string') return value as StreamEvent;
  } catch {
    // a line that is not JSON carries nothing the portal understands
  }
  return null;
}

export function openEventStream(options: EventStreamOptions): EventStream {
  const retryDelayMs = options.retryDelayMs ?? RETRY_DELAY_MS;
  const maxRetries = options.maxRetries ?? MAX_RETRIES;
  const heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS;

  let closed = false;
  let gaveUp = false;
  let failures = 0;
  let current: AbortController | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  async function connect() {
    if (closed) return;
    const token = options.getToken();
    const controller = new AbortController();
    current = controller;
    let failure: unknown = null;
    let silenceTimer: ReturnType<typeof setTimeout> | undefined;
    const watchSilence = () => {
      clearTimeout(silenceTimer);
      silenceTimer = setTimeout(() => {
        failure = new StreamSilent(`no event for ${heartbeatTimeoutMs} ms`);
        controller.abort();
      }, heartbeatTimeoutMs);
    };

    try {
      await fetchEventSource(options.url ?? EVENTS_URL, {
        signal: controller.signal,
        headers: token ? { Authorization: `Bearer ${token}` } : {},
        // the bell and the notices matter in a background tab too
        openWhenHidden: true,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        async onopen(response) {
          const type = response.headers.get('content-type') ?? '';
          if (!response.ok || !type.startsWith('text/event-stream')) throw await refusalOf(response);
          watchSilence();
        },
        onmessage(message: EventSourceMessage) {
          watchSilence();
          const event = parseEvent(message.data);
          if (!event) return;
          // a stream that carries events is a working one
          failures = 0;
          if (event.type === EVENT_TYPES.heartbeat) return;
          if (event.type === EVENT_TYPES.sessionEnded) {
            // the server ended this session: said now, as a call refused with the same code would say it
            failure = new StreamRefused(401, typeof event.error_code === 'number' ? event.error_code : ErrorCode.SESSION_REVOKED, event.message ?? '');
            controller.abort();
            return;
          }
          options.onEvent(event);
        },
        onclose() {
          throw new StreamEnded('the server ended the stream');
        },
        onerror(error: unknown) {
          // no retries inside the library: this function decides when and how often
          throw error;
        },
      });
    } catch (error) {
      failure = error;
    } finally {
      clearTimeout(silenceTimer);
      if (current === controller) current = null;
    }
    if (closed) return;

    if (failure instanceof StreamRefused && failure.code !== null && isSessionErrorCode(failure.code)) {
      closed = true;
      options.onEnd?.({ reason: 'session', code: failure.code, message: failure.message });
      return;
    }
    if (failures >= maxRetries) {
      gaveUp = true;
      options.onEnd?.({ reason: 'gave-up', error: failure });
      return;
    }
    failures += 1;
    retryTimer = setTimeout(() => void connect(), retryDelayMs);
  }

  void connect();

  return {
    close() {
      closed = true;
      clearTimeout(retryTimer);
      current?.abort();
    },
    restart() {
      if (closed || !gaveUp) return;
      gaveUp = false;
      failures = 0;
      void connect();
    },
  };
}
