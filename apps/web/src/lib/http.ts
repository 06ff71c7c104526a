import type { Envelope } from '@portal/contract/envelope';
import { isSessionErrorCode } from '@portal/contract/errors';
import axios, {
  type AxiosError,
  type AxiosInstance,
  type AxiosRequestConfig,
  type AxiosResponse,
  type InternalAxiosRequestConfig,
} from 'axios';
import { httpText } from '../locales/zh-CN/http.ts';
import { useSessionStore } from '../stores/session.ts';
import { notifyError as notify } from './notify.ts';
import { tokenStorage } from './storage.ts';

/**
 * The one HTTP module. Every answer is an envelope {code, message, data}: code 0 resolves to data,
 * anything else becomes an ApiError, and the message is shown here and nowhere else (spec §8).
 */

export const REQUEST_TIMEOUT_MS = 50_000;
/** Session messages repeat for every call that fails at once; one a second is enough. */
export const SESSION_NOTICE_INTERVAL_MS = 1_000;

export interface FieldError {
  field: string;
  message: string;
}

/** How a call failed: the API answered a non-zero code, the HTTP exchange failed without an envelope, or no answer came. */
export type ApiErrorKind = 'api' | 'http' | 'network';

export class ApiError<T = unknown> extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  /** The envelope's code; null when there was no envelope. */
  readonly code: number | null;
  /** The HTTP status; null when no answer came. */
  readonly status: number | null;
  readonly data: T | null;

  constructor(init: { kind: ApiErrorKind; message: string; code?: number | null; status?: number | null; data?: T | null }) {
    super(init.message);
    this.kind = init.kind;
    this.code = init.code ?? null;
    this.status = init.status ?? null;
    this.data = init.data ?? null;
  }

  /** Server field errors (validation failures): data.fields. */
  get fields(): FieldError[] {
    const fields = (this.data as { fields?: unknown } | null)?.fields;
    if (!Array.isArray(fields)) return [];
    return fields.filter(
      (item): item is FieldError =>
        typeof item === 'object' && item !== null && typeof item.field === 'string' && typeof item.message === 'string',
    );
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

let lastSessionNoticeAt = Number.NEGATIVE_INFINITY;
/**
 * An outage fails every call made while it lasts: the save, the reads around it, and every poll of
 * a screen that keeps reading (batch progress, exports, cards in a changing state). It is told once,
 * on its first failure, and again only to answer a press; it ends when any call is answered (success or refusal) or the browser says
 * it is online again, and the next failure after that is a new outage.
 */
let inOutage = false;

const isEnvelope = (body: unknown): body is Envelope<unknown> =>
  typeof body === 'object' &&
  body !== null &&
  typeof (body as Envelope<unknown>).code === 'number' &&
  typeof (body as Envelope<unknown>).message === 'string' &&
  'data' in body;

const withCode = (message: string, code: number) => `${message}(${code})`;

const SPREADSHEET_TYPES = ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/octet-stream'];

function isSpreadsheet(response: AxiosResponse) {
  const responseType = response.config.responseType;
  if (responseType === 'blob' || responseType === 'arraybuffer') return true;
  const contentType = String(response.headers['content-type'] ?? '').toLowerCase();
  return SPREADSHEET_TYPES.some((type) => contentType.startsWith(type));
}

const shownOnField = new WeakSet<ApiError>();

/**
 * Says that a refusal is shown where it belongs (next to the form field it is about, or as the
 * screen's own message, or a dialog's line that the request did not go through), so it is not also
 * told as a toast. Call it where the failed call is caught,
 * in the same task (the toast waits for the next one).
 */
export function markShownInPlace(error: unknown) {
  if (isApiError(error)) shownOnField.add(error);
}

/**
 * A press (a click, a tap, a key) and the calls it starts: a failure is the answer to that press,
 * told even in an outage already told, but once for the press however many of its calls fail.
 */
export const PRESS_WINDOW_MS = 1_000;
let presses = 0;
let lastPressAt = Number.NEGATIVE_INFINITY;
let lastToldPress = 0;
let watchingPresses = false;
const pressOfCall = new WeakMap<object, number>();

function watchPresses() {
  if (watchingPresses || typeof window === 'undefined' || typeof window.addEventListener !== 'function') return;
  watchingPresses = true;
  const pressed = () => {
    presses += 1;
    lastPressAt = Date.now();
  };
  window.addEventListener('pointerdown', pressed, { capture: true });
  window.addEventListener('keydown', pressed, { capture: true });
}

/** The press a call was started by: one made within PRESS_WINDOW_MS of it. */
function notePress(config: InternalAxiosRequestConfig) {
  watchPresses();
  if (presses > 0 && Date.now() - lastPressAt <= PRESS_WINDOW_MS) pressOfCall.set(config, presses);
}

/**
 * The first failure of an outage is told (as a toast, unless its caller shows it in place, e.g. a
 * money dialog that keeps its values for a retry); the others of the same outage are not, but for
 * the first failure of each later press (刷新 pressed again, 导出): a press is always answered.
 */
function tellNetworkFailure(error: ApiError, config: object | undefined) {
  const press = config ? pressOfCall.get(config) : undefined;
  const newPress = press !== undefined && press !== lastToldPress;
  if (inOutage && !newPress) return;
  if (press !== undefined) lastToldPress = press;
  if (!inOutage) {
    inOutage = true;
    if (typeof window !== 'undefined' && typeof window.addEventListener === 'function') {
      window.addEventListener('online', endOutage, { once: true });
    }
  }
  tellUnlessShownInPlace(error, error.message);
}

function endOutage() {
  if (!inOutage) return;
  inOutage = false;
  if (typeof window !== 'undefined' && typeof window.removeEventListener === 'function') {
    window.removeEventListener('online', endOutage);
  }
}

/** Told once the caller has had its turn: a form or dialog that shows it in place says so first. */
function tellUnlessShownInPlace(error: ApiError, text: string) {
  setTimeout(() => {
    if (!shownOnField.has(error)) notify(text);
  }, 0);
}

function failWithEnvelope(envelope: Envelope<unknown>, status: number): never {
  const error = new ApiError({ kind: 'api', code: envelope.code, message: envelope.message, status, data: envelope.data });
  if (isSessionErrorCode(envelope.code)) {
    const now = Date.now();
    if (now - lastSessionNoticeAt >= SESSION_NOTICE_INTERVAL_MS) {
      lastSessionNoticeAt = now;
      notify(withCode(envelope.message, envelope.code));
    }
    useSessionStore.getState().logout();
  } else {
    tellUnlessShownInPlace(error, withCode(envelope.message, envelope.code));
  }
  throw error;
}

/** A download that failed answers its JSON envelope as a Blob or ArrayBuffer; read it back. */
async function bodyOf(response: AxiosResponse): Promise<unknown> {
  const body: unknown = response.data;
  const text =
    typeof Blob !== 'undefined' && body instanceof Blob
      ? await body.text()
      : body instanceof ArrayBuffer
        ? new TextDecoder().decode(body)
        : null;
  if (text === null) return body;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const SAVING_METHODS = new Set(['post', 'put']);

function onFulfilled(response: AxiosResponse) {
  endOutage();
  if (isSpreadsheet(response)) return response;
  const body: unknown = response.data;
  if (!isEnvelope(body)) return body;
  if (body.code === 0) return body.data;
  return failWithEnvelope(body, response.status);
}

async function onRejected(error: AxiosError) {
  if (axios.isCancel(error)) throw error;
  const response = error.response;
  if (!response) {
    const method = (error.config?.method ?? 'get').toLowerCase();
    const message = SAVING_METHODS.has(method) ? httpText.networkErrorOnSave : httpText.networkError;
    const failure = new ApiError({ kind: 'network', message });
    tellNetworkFailure(failure, error.config);
    throw failure;
  }
  endOutage();
  const body = await bodyOf(response);
  if (isEnvelope(body)) return failWithEnvelope(body, response.status);
  const bodyMessage = typeof (body as { message?: unknown } | null)?.message === 'string' ? (body as { message: string }).message : '';
  // axios' own text ("Request failed with status code 500") is English and says nothing to a customer
  const message = bodyMessage || httpText.unknownError;
  const failure = new ApiError({ kind: 'http', message, status: response.status, data: body });
  tellUnlessShownInPlace(failure, message);
  throw failure;
}

function attachToken(config: InternalAxiosRequestConfig) {
  notePress(config);
  const token = tokenStorage.get();
  if (token) config.headers.set('Authorization', `Bearer ${token}`);
  return config;
}

/**
 * An axios instance with the portal's token and envelope handling; baseURL defaults to this origin.
 * It uses the fetch adapter: the same code path in every browser and under Node in the tests.
 */
export function createApiClient(options: { baseURL?: string } = {}): AxiosInstance {
  const client = axios.create({ baseURL: options.baseURL ?? '', timeout: REQUEST_TIMEOUT_MS, adapter: 'fetch' });
  client.interceptors.request.use(attachToken);
  // the interceptor resolves to the envelope's data rather than the response; createHttp types each call's result
  client.interceptors.response.use((response) => onFulfilled(response) as AxiosResponse, onRejected);
  return client;
}

/** A raw answer: spreadsheets and other files, with the headers that name them. */
export type RawResponse = AxiosResponse<Blob>;

/** Typed calls over a client; each resolves to the envelope's data. */
export function createHttp(client: AxiosInstance) {
  return {
    client,
    get: <T>(url: string, config?: AxiosRequestConfig) => client.get<T, T>(url, config),
    delete: <T>(url: string, config?: AxiosRequestConfig) => client.delete<T, T>(url, config),
    post: <T>(url: string, body?: unknown, config?: AxiosRequestConfig) => client.post<T, T>(url, body, config),
    put: <T>(url: string, body?: unknown, config?: AxiosRequestConfig) => client.put<T, T>(url, body, config),
    patch: <T>(url: string, body?: unknown, config?: AxiosRequestConfig) => client.patch<T, T>(url, body, config),
    /** A file answer (e.g. an .xlsx export), returned raw. */
    download: (url: string, config?: AxiosRequestConfig) =>
      client.request<Blob, RawResponse>({ method: 'get', ...config, url, responseType: 'blob' }),
  };
}

export const http = createHttp(createApiClient());
