import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { USDT_NETWORK } from '@portal/contract/usdt';
import { postText } from '../../lib/http-post.ts';
import { signIssuerPayload, verifyIssuerSignature } from '../../lib/issuer-signature.ts';
import { tronAddress } from './address.ts';
import {
  addressRequestBody,
  DEPOSIT_EVENT_TYPE,
  GATEWAY_PATHS,
  GATEWAY_SIGNATURE_HEADER,
  raiseConfirmationsBody,
  type SimulatedDepositAnswer,
  simulateDepositBody,
} from './protocol.ts';

/**
 * The simulated crypto gateway, an HTTP party of its own (protocol.ts): it makes each (merchant,
 * account) the same TRC20 address every time, and on the operator's word (crypto:simulate-deposit)
 * makes a deposit to one of its addresses or raises a deposit's confirmations, each time POSTing a
 * signed event to the portal's webhook. Confirmations change only when it is told. Started inside the
 * server when CRYPTO_GATEWAY_URL is unset (main.ts), or apart with `npm run crypto-sim` (standalone.ts).
 */
export interface StartGatewaySimulatorOptions {
  host?: string;
  /** 0: any free port (`url` says which) */
  port: number;
  /** the portal's POST /api/v1/crypto/webhook; may be given later with setWebhookUrl */
  webhookUrl?: string;
  secret: string | (() => string);
  /** a file that keeps its addresses and deposits across restarts */
  stateFile?: string;
  /** pauses between delivery tries of one event (three tries by default) */
  retryDelaysMs?: number[];
  log?: { info(details: object, message: string): void; warn(details: object, message: string): void };
  now?: () => Date;
}

export interface RunningGatewaySimulator {
  url: string;
  setWebhookUrl(url: string): void;
  close(): Promise<void>;
}

interface SimulatedDeposit {
  deposit_id: string;
  tx_id: string;
  address: string;
  amount: string;
  confirmations: number;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const MAX_BODY_BYTES = 16 * 1024;

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Refusal(413, `a request body is at most ${MAX_BODY_BYTES} bytes`));
        request.resume();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, status: number, body: object) {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/** The simulator's file: what it made and saw, written whole (a new file renamed over the old one). */
function stateStore(file: string | undefined) {
  const empty = { addresses: [] as string[], deposits: [] as SimulatedDeposit[] };
  return {
    load() {
      if (!file) return empty;
      try {
        return { ...empty, ...(JSON.parse(readFileSync(file, 'utf8')) as typeof empty) };
      } catch {
        return empty;
      }
    },
    save(state: typeof empty) {
      if (!file) return;
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(`${file}.next`, JSON.stringify(state));
      renameSync(`${file}.next`, file);
    },
  };
}

/** Where the built-in and the standalone simulator keep their state under DATA_DIR. */
export const gatewayStateFile = (dataDir: string) => path.join(dataDir, 'crypto-gateway', 'state.json');

export async function startGatewaySimulator(options: StartGatewaySimulatorOptions): Promise<RunningGatewaySimulator> {
  const host = options.host ?? '127.0.0.1';
  const secret = typeof options.secret === 'string' ? () => options.secret as string : options.secret;
  const now = options.now ?? (() => new Date());
  const retryDelays = options.retryDelaysMs ?? [200, 1_000];
  let webhookUrl = options.webhookUrl;
  const store = stateStore(options.stateFile);
  const loaded = store.load();
  const addresses = new Set(loaded.addresses);
  const deposits = new Map(loaded.deposits.map((deposit) => [deposit.deposit_id, deposit]));
  const save = () => store.save({ addresses: [...addresses], deposits: [...deposits.values()] });

  /** One signed event about the deposit, tried a few times; answers how it went. */
  async function notify(deposit: SimulatedDeposit): Promise<SimulatedDepositAnswer> {
    const eventId = `evt_${randomUUID()}`;
    const body = JSON.stringify({ id: eventId, type: DEPOSIT_EVENT_TYPE, data: { ...deposit, network: USDT_NETWORK } });
    let delivery: SimulatedDepositAnswer['delivery'] = { delivered: false, status: null, error: 'the portal has not given its webhook address yet' };
    for (let attempt = 0; attempt <= retryDelays.length && webhookUrl; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, retryDelays[attempt - 1]));
      try {
        const { status } = await postText(webhookUrl, body, { 'content-type': 'application/json', [GATEWAY_SIGNATURE_HEADER]: signIssuerPayload(secret(), body, now()) }, 5_000);
        delivery = { delivered: status >= 200 && status < 300, status, error: null };
      } catch (error) {
        delivery = { delivered: false, status: null, error: (error as Error).message };
      }
      if (delivery.delivered) break;
    }
    if (!delivery.delivered) options.log?.warn({ deposit_id: deposit.deposit_id, ...delivery }, 'crypto gateway simulator: the event was not taken');
    return { ...deposit, event_id: eventId, delivery };
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const { pathname } = new URL(request.url ?? '/', 'http://simulator');
    if (request.method !== 'POST') throw new Refusal(405, 'every call is a POST');
    const raw = await readBody(request);
    const header = request.headers[GATEWAY_SIGNATURE_HEADER];
    if (!verifyIssuerSignature({ secret: secret(), body: raw, header: Array.isArray(header) ? header[0] : header, now: now() })) {
      throw new Refusal(401, 'bad or missing Gateway-Signature');
    }
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new Refusal(400, 'the body is not JSON');
    }
    if (pathname === GATEWAY_PATHS.addresses) {
      const parsed = addressRequestBody.safeParse(body);
      if (!parsed.success) throw new Refusal(400, 'the body must be {merchant_id, account_id, network: "TRC20"}');
      const address = tronAddress(`${parsed.data.merchant_id}:${parsed.data.account_id}`);
      if (!addresses.has(address)) {
        addresses.add(address);
        save();
      }
      return send(response, 200, { address, network: USDT_NETWORK });
    }
    if (pathname === GATEWAY_PATHS.simulatedDeposits) {
      const parsed = simulateDepositBody.safeParse(body);
      if (!parsed.success) throw new Refusal(400, 'the body must be {address, amount (at most two decimals, above zero), confirmations (0–1000)}');
      if (!addresses.has(parsed.data.address)) throw new Refusal(400, `the address ${parsed.data.address} is none this gateway made`);
      const deposit = { deposit_id: `dep_${randomUUID()}`, tx_id: randomBytes(32).toString('hex'), ...parsed.data };
      deposits.set(deposit.deposit_id, deposit);
      save();
      options.log?.info({ deposit_id: deposit.deposit_id, amount: deposit.amount, confirmations: deposit.confirmations }, 'crypto gateway simulator: deposit made');
      return send(response, 200, await notify(deposit));
    }
    const one = /^\/v1\/simulator\/deposits\/([^/]+)$/.exec(pathname);
    if (one) {
      const parsed = raiseConfirmationsBody.safeParse(body);
      const depositId = decodeURIComponent(one[1] as string);
      if (!parsed.success || parsed.data.deposit_id !== depositId) throw new Refusal(400, `the body must be {"deposit_id": "${depositId}", "confirmations": 0–1000}`);
      const deposit = deposits.get(depositId);
      if (!deposit) throw new Refusal(404, `no deposit ${depositId}`);
      if (parsed.data.confirmations < deposit.confirmations) throw new Refusal(400, `confirmations only rise: ${depositId} has ${deposit.confirmations}`);
      deposit.confirmations = parsed.data.confirmations;
      save();
      return send(response, 200, await notify(deposit));
    }
    throw new Refusal(404, `no such call: ${pathname}`);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      const status = error instanceof Refusal ? error.status : 500;
      if (!response.headersSent) send(response, status, { error: (error as Error).message });
    });
  });
  // a caller keeps connections open between calls: they are closed well after its own idle limit, not while it reuses one
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException) => {
      const why = error.code === 'EADDRINUSE' ? 'the port is in use' : error.message;
      reject(Object.assign(new Error(`the crypto gateway simulator cannot listen on ${host}:${options.port}: ${why}`), { code: error.code }));
    };
    server.once('error', refused);
    server.listen(options.port, host, () => {
      server.off('error', refused);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    setWebhookUrl(next) {
      webhookUrl = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
