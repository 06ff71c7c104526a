import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { httpText } from '../locales/zh-CN/http.ts';
import { useSessionStore } from '../stores/session.ts';
import { applyFieldErrors } from './form-errors.ts';
import {
  ApiError,
  createApiClient,
  createHttp,
  REQUEST_TIMEOUT_MS,
  markShownInPlace,
  type RawResponse,
  SESSION_NOTICE_INTERVAL_MS,
} from './http.ts';
import { setNotifier } from './notify.ts';

/** Web Storage kept in memory, standing in for the browser's local and session storage. */
class MemoryStorage implements Storage {
  private readonly values = new Map<string, string>();
  get length() {
    return this.values.size;
  }
  clear() {
    this.values.clear();
  }
  getItem(key: string) {
    return this.values.get(key) ?? null;
  }
  key(index: number) {
    return [...this.values.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.values.delete(key);
  }
  setItem(key: string, value: string) {
    this.values.set(key, String(value));
  }
}

const localStorage = new MemoryStorage();
const sessionStorage = new MemoryStorage();
/** The window's own events (online, offline), which the tests raise themselves. */
const windowEvents = new EventTarget();
vi.stubGlobal('window', {
  localStorage,
  sessionStorage,
  addEventListener: windowEvents.addEventListener.bind(windowEvents),
  removeEventListener: windowEvents.removeEventListener.bind(windowEvents),
  dispatchEvent: windowEvents.dispatchEvent.bind(windowEvents),
});

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

let server: Server;
let baseURL: string;
let handler: Handler;
let lastRequest: { method?: string; url?: string; authorization?: string } = {};
const notices: string[] = [];

const sendJson = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
};

const answer = (status: number, body: unknown): Handler => (_request, response) => sendJson(response, status, body);

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      lastRequest = { method: request.method, url: request.url, authorization: request.headers.authorization };
      handler(request, response, Buffer.concat(chunks).toString('utf8'));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
});

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  useSessionStore.setState({ isLogin: false, token: null });
  notices.length = 0;
  setNotifier((text) => notices.push(text));
  handler = answer(200, { code: 0, message: 'success', data: null });
  lastRequest = {};
});

afterEach(() => {
  vi.useRealTimers();
});

const api = () => createHttp(createApiClient({ baseURL }));
/** A refusal's toast waits for the next task (so a form can claim it for a field first). */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** The rejection of a call, failing the test if the call resolved. */
async function rejectionOf(call: Promise<unknown>): Promise<ApiError> {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('the call resolved but was expected to fail');
}

/** A base URL where nothing listens: connections are refused. */
async function closedOrigin() {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  probe.close();
  await once(probe, 'close');
  return `http://127.0.0.1:${port}`;
}

describe('bearer token', () => {
  it('sends the token kept in local storage on every call', async () => {
    localStorage.setItem('token', 'tok-local');
    await api().get('/a');
    expect(lastRequest.authorization).toBe('Bearer tok-local');
    await api().post('/b', { x: 1 });
    expect(lastRequest.authorization).toBe('Bearer tok-local');
  });

  it('reads the token at call time, so a login between calls takes effect at once', async () => {
    await api().get('/a');
    expect(lastRequest.authorization).toBeUndefined();
    useSessionStore.getState().login('tok-new');
    await api().get('/a');
    expect(lastRequest.authorization).toBe('Bearer tok-new');
  });
});

describe('time-out', () => {
  it('allows 50 s per call', () => {
    expect(REQUEST_TIMEOUT_MS).toBe(50_000);
    expect(createApiClient().defaults.timeout).toBe(50_000);
  });

  it('treats a call that runs out of time as a network failure', async () => {
    handler = (_request, response) => {
      setTimeout(() => sendJson(response, 200, { code: 0, message: 'success', data: 'late' }), 400);
    };
    const error = await rejectionOf(api().get('/slow', { timeout: 50 }));
    expect(error.kind).toBe('network');
    await nextTask();
    expect(notices).toEqual([httpText.networkError]);
  });
});

describe('envelope', () => {
  it('resolves code 0 to the data', async () => {
    handler = answer(200, { code: 0, message: 'success', data: { id: 'm1', website: 'x.example' } });
    await expect(api().get('/merchant')).resolves.toEqual({ id: 'm1', website: 'x.example' });
    expect(notices).toEqual([]);
  });

  it('passes the body of the call', async () => {
    let received = '';
    handler = (_request, response, body) => {
      received = body;
      sendJson(response, 200, { code: 0, message: 'success', data: true });
    };
    await api().post('/login', { password: 'Abcdefg1', email: 'a@b.co' });
    expect(JSON.parse(received)).toEqual({ password: 'Abcdefg1', email: 'a@b.co' });
    expect(lastRequest.method).toBe('POST');
  });
});

describe('session codes 605, 606, 607, 608 and 1000', () => {
  const cases = [
    [605, '请先登录'],
    [606, '登录状态无效，请重新登录'],
    [607, '登录已过期，请重新登录'],
    [608, '登录已失效，请重新登录'],
    [1000, '账户已被停用，请联系客服'],
  ] as const;

  it.each(cases)('code %i shows the message with the code, logs out and rejects', async (code, message) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // each case starts a full interval after the last notice, so the throttle never hides it
    vi.setSystemTime(new Date(Date.UTC(2026, 0, 1) + code * 10_000));
    useSessionStore.getState().login('tok-old');
    expect(sessionStorage.getItem('token')).toBe('tok-old');
    handler = answer(401, { code, message, data: null });

    const error = await rejectionOf(api().get('/account/info'));

    expect(notices).toEqual([`${message}(${code})`]);
    expect(error.kind).toBe('api');
    expect(error.code).toBe(code);
    expect(error.message).toBe(message);
    expect(localStorage.getItem('token')).toBeNull();
    expect(sessionStorage.getItem('token')).toBeNull();
    expect(useSessionStore.getState()).toMatchObject({ isLogin: false, token: null });
  });

  it('logs out on a session code even when the HTTP status is 200', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(Date.UTC(2026, 1, 1)));
    useSessionStore.getState().login('tok-old');
    handler = answer(200, { code: 607, message: '登录已过期，请重新登录', data: null });
    const error = await rejectionOf(api().get('/x'));
    expect(error.code).toBe(607);
    expect(notices).toEqual(['登录已过期，请重新登录(607)']);
    expect(useSessionStore.getState().isLogin).toBe(false);
  });

  it('shows the session message at most once a second', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.UTC(2026, 2, 1);
    vi.setSystemTime(new Date(start));
    handler = answer(401, { code: 607, message: '登录已过期，请重新登录', data: null });

    const first = await Promise.allSettled([api().get('/a'), api().get('/b'), api().get('/c')]);
    expect(first.every((result) => result.status === 'rejected')).toBe(true);
    expect(notices).toEqual(['登录已过期，请重新登录(607)']);

    vi.setSystemTime(new Date(start + SESSION_NOTICE_INTERVAL_MS - 1));
    await rejectionOf(api().get('/d'));
    expect(notices).toHaveLength(1);

    vi.setSystemTime(new Date(start + SESSION_NOTICE_INTERVAL_MS));
    await rejectionOf(api().get('/e'));
    expect(notices).toEqual(['登录已过期，请重新登录(607)', '登录已过期，请重新登录(607)']);
  });
});

describe('other non-zero codes', () => {
  it('show the message with the code and reject with a typed error that carries the data', async () => {
    useSessionStore.getState().login('tok-kept');
    const fields = [
      { field: 'phone_info.phone', message: '手机号格式有误' },
      { field: 'password', message: '输入小于最小输入限制' },
    ];
    handler = answer(400, { code: 1001, message: '手机号格式有误', data: { fields } });

    const error = await rejectionOf(api().post('/account/login', {}));

    await nextTask();
    expect(notices).toEqual(['手机号格式有误(1001)']);
    expect(error.kind).toBe('api');
    expect(error.code).toBe(1001);
    expect(error.status).toBe(400);
    expect(error.message).toBe('手机号格式有误');
    expect(error.data).toEqual({ fields });
    expect(error.fields).toEqual(fields);
    // only the session codes end the session
    expect(useSessionStore.getState()).toMatchObject({ isLogin: true, token: 'tok-kept' });
    expect(localStorage.getItem('token')).toBe('tok-kept');
  });

  it('treat a non-zero code on HTTP 200 the same way', async () => {
    handler = answer(200, { code: 2009, message: '账号或密码错误', data: null });
    const error = await rejectionOf(api().post('/account/login', {}));
    await nextTask();
    expect(notices).toEqual(['账号或密码错误(2009)']);
    expect(error.code).toBe(2009);
    expect(error.fields).toEqual([]);
  });

  it('tell nothing as a toast that the caller shows on a field, in the task the call failed in', async () => {
    handler = answer(400, { code: 2013, message: '邀请码不存在', data: null });
    const error = await rejectionOf(api().post('/account/register', {}));
    markShownInPlace(error);
    await nextTask();
    expect(notices).toEqual([]);
    // another refusal, not put on a field, is told
    await rejectionOf(api().post('/account/register', {}));
    await nextTask();
    expect(notices).toEqual(['邀请码不存在(2013)']);
  });
});

describe('network failures', () => {
  // each test starts outside an outage: the answered call before it ends any earlier one
  beforeEach(async () => {
    await api().get('/answered');
  });

  it.each(['post', 'put'] as const)('on %s say the data is kept for later', async (method) => {
    const client = createHttp(createApiClient({ baseURL: await closedOrigin() }));
    const error = await rejectionOf(client[method]('/anything', { a: 1 }));
    expect(error.kind).toBe('network');
    expect(error.message).toBe('当前网络异常，数据已保存，恢复后提交即可');
    await nextTask();
    expect(notices).toEqual(['当前网络异常，数据已保存，恢复后提交即可']);
  });

  it.each(['get', 'delete'] as const)('on %s ask to check the network', async (method) => {
    const client = createHttp(createApiClient({ baseURL: await closedOrigin() }));
    const error = await rejectionOf(client[method]('/anything'));
    expect(error.kind).toBe('network');
    expect(error.message).toBe('当前网络异常，请检查网络设置后再次尝试操作');
    await nextTask();
    expect(notices).toEqual(['当前网络异常，请检查网络设置后再次尝试操作']);
  });

  it('are told once for every call that fails in the same outage, however long it lasts', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.UTC(2026, 3, 1);
    vi.setSystemTime(new Date(start));
    const client = createHttp(createApiClient({ baseURL: await closedOrigin() }));
    const failed = await Promise.allSettled([client.get('/a'), client.get('/b'), client.get('/c')]);
    expect(failed.every((result) => result.status === 'rejected')).toBe(true);
    await nextTask();
    expect(notices).toEqual(['当前网络异常，请检查网络设置后再次尝试操作']);

    // the screens keep polling while the network is down: every second for ten seconds, and a save
    for (let second = 1; second <= 10; second += 1) {
      vi.setSystemTime(new Date(start + second * 1_000));
      await rejectionOf(client.get(`/poll/${second}`));
      await nextTask();
    }
    await rejectionOf(client.post('/save', {}));
    await nextTask();
    expect(notices).toEqual(['当前网络异常，请检查网络设置后再次尝试操作']);
  });

  it('are told again after an answered call ended the outage, whether it succeeded or was refused', async () => {
    const client = createHttp(createApiClient({ baseURL: await closedOrigin() }));
    await rejectionOf(client.get('/a'));
    await nextTask();
    expect(notices).toHaveLength(1);

    await api().get('/answered');
    await rejectionOf(client.post('/b', {}));
    await nextTask();
    expect(notices).toEqual(['当前网络异常，请检查网络设置后再次尝试操作', '当前网络异常，数据已保存，恢复后提交即可']);

    handler = answer(400, { code: 2009, message: '账号或密码错误', data: null });
    markShownInPlace(await rejectionOf(api().post('/refused', {})));
    await rejectionOf(client.get('/c'));
    await nextTask();
    expect(notices).toEqual([
      '当前网络异常，请检查网络设置后再次尝试操作',
      '当前网络异常，数据已保存，恢复后提交即可',
      '当前网络异常，请检查网络设置后再次尝试操作',
    ]);
  });

  it('answer every press once, even in an outage already told, but not the polls after it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.UTC(2026, 3, 2);
    vi.setSystemTime(new Date(start));
    const client = createHttp(createApiClient({ baseURL: await closedOrigin() }));
    await rejectionOf(client.get('/poll'));
    await nextTask();
    expect(notices).toEqual(['当前网络异常，请检查网络设置后再次尝试操作']);

    // 刷新 pressed: its reads fail together and are told once
    vi.setSystemTime(new Date(start + 5_000));
    window.dispatchEvent(new Event('pointerdown'));
    await Promise.allSettled([client.get('/balances'), client.get('/transactions')]);
    await nextTask();
    expect(notices).toHaveLength(2);

    // the screen's polls later on are the same outage
    vi.setSystemTime(new Date(start + 9_000));
    await rejectionOf(client.get('/poll'));
    await nextTask();
    expect(notices).toHaveLength(2);

    // 导出 pressed from the keyboard: told again
    window.dispatchEvent(new Event('keydown'));
    await rejectionOf(client.get('/export'));
    await nextTask();
    expect(notices).toEqual(Array(3).fill('当前网络异常，请检查网络设置后再次尝试操作'));
  });

  it('are told again after the browser says it is online', async () => {
    const client = createHttp(createApiClient({ baseURL: await closedOrigin() }));
    await rejectionOf(client.get('/a'));
    await rejectionOf(client.get('/b'));
    await nextTask();
    expect(notices).toHaveLength(1);

    window.dispatchEvent(new Event('online'));
    await rejectionOf(client.get('/c'));
    await nextTask();
    expect(notices).toEqual(['当前网络异常，请检查网络设置后再次尝试操作', '当前网络异常，请检查网络设置后再次尝试操作']);
  });

  it('shown in place by the caller (a dialog kept open for a retry) make no toast, nor do the reads that fail with them', async () => {
    const client = createHttp(createApiClient({ baseURL: await closedOrigin() }));
    const error = await rejectionOf(client.post('/card/x/recharge', { amount: '10.00' }));
    markShownInPlace(error);
    // the screen reads the card again around the failed save: same outage
    await Promise.allSettled([client.get('/card/x'), client.get('/card')]);
    await nextTask();
    expect(notices).toEqual([]);
  });
});

describe('other HTTP errors without an envelope', () => {
  it("show the response's message", async () => {
    handler = answer(502, { message: '上游服务不可用' });
    const error = await rejectionOf(api().get('/x'));
    await nextTask();
    expect(notices).toEqual(['上游服务不可用']);
    expect(error.kind).toBe('http');
    expect(error.status).toBe(502);
    expect(error.code).toBeNull();
    expect(error.message).toBe('上游服务不可用');
  });

  it('show the Chinese fallback when the response has no message (a bare 5xx page)', async () => {
    handler = (_request, response) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end('boom');
    };
    const error = await rejectionOf(api().get('/x'));
    expect(error.kind).toBe('http');
    expect(error.status).toBe(500);
    await nextTask();
    expect(notices).toEqual([httpText.unknownError]);
    expect(httpText.unknownError).toBe('请求失败，请稍后重试');
  });

  it('make no toast when the caller shows the failure in place (a dialog line), in the task the call failed in', async () => {
    handler = answer(502, { message: '上游服务不可用' });
    markShownInPlace(await rejectionOf(api().post('/card/x/recharge', {})));
    await nextTask();
    expect(notices).toEqual([]);
    // the same failure not shown in place is told
    await rejectionOf(api().post('/card/x/recharge', {}));
    await nextTask();
    expect(notices).toEqual(['上游服务不可用']);
  });
});

describe('spreadsheet answers', () => {
  const workbook = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]);

  it.each([
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/octet-stream',
  ])('with content type %s come back raw', async (contentType) => {
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': contentType, 'content-disposition': 'attachment; filename="cards.xlsx"' });
      response.end(workbook);
    };
    const raw = await api().get<RawResponse>('/card/export.xlsx', { responseType: 'arraybuffer' });
    expect(raw.status).toBe(200);
    expect(raw.headers['content-disposition']).toBe('attachment; filename="cards.xlsx"');
    expect(Buffer.from(raw.data as unknown as ArrayBuffer)).toEqual(workbook);
    expect(notices).toEqual([]);
  });

  it('asked for as a blob come back raw, whatever the content type', async () => {
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ code: 0, message: 'success', data: 'not unwrapped' }));
    };
    const raw = await api().download('/card/export');
    expect(raw.status).toBe(200);
    expect(raw.data).toBeInstanceOf(Blob);
    expect(JSON.parse(await raw.data.text())).toEqual({ code: 0, message: 'success', data: 'not unwrapped' });
  });

  it('that fail still show the envelope message with its code', async () => {
    handler = answer(404, { code: 1002, message: '请求的内容不存在', data: null });
    const error = await rejectionOf(api().download('/card/export'));
    expect(error.code).toBe(1002);
    await nextTask();
    expect(notices).toEqual(['请求的内容不存在(1002)']);
  });
});

describe('server field errors on a form', () => {
  it('land on the named fields, mapped where the form names them differently', async () => {
    handler = answer(400, {
      code: 1001,
      message: '手机号格式有误',
      data: {
        fields: [
          { field: 'phone_info.phone', message: '手机号格式有误' },
          { field: 'password', message: '输入小于最小输入限制' },
          { field: 'password', message: '需包含大写字母、小写字母、数字，密码长度为8-16位' },
        ],
      },
    });
    const error = await rejectionOf(api().post('/account/login', {}));
    const setFields = vi.fn();

    expect(applyFieldErrors({ setFields }, error, { 'phone_info.phone': 'phone' })).toBe(true);
    expect(setFields).toHaveBeenCalledWith([
      { name: 'phone', errors: ['手机号格式有误'] },
      { name: ['password'], errors: ['输入小于最小输入限制', '需包含大写字母、小写字母、数字，密码长度为8-16位'] },
    ]);
  });

  it('leave the form alone when the failure has no field errors', async () => {
    handler = answer(400, { code: 2009, message: '账号或密码错误', data: null });
    const error = await rejectionOf(api().post('/account/login', {}));
    const setFields = vi.fn();
    expect(applyFieldErrors({ setFields }, error)).toBe(false);
    expect(applyFieldErrors({ setFields }, new Error('other'))).toBe(false);
    expect(setFields).not.toHaveBeenCalled();
  });
});
