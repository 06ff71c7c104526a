import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { USDT_NETWORK, usdtMessages } from '@portal/contract/usdt';
import { postText } from '../../lib/http-post.ts';
import { signIssuerPayload } from '../../lib/issuer-signature.ts';
import { HttpRefusal, pathOf, readSignedJson, sendJson as send, startJsonServer } from '../../lib/signed-json-http.ts';
import { tronAddress } from './address.ts';
import {
  addressDepositsBody,
  addressRequestBody,
  DEPOSIT_EVENT_TYPE,
  GATEWAY_PATHS,
  GATEWAY_SIGNATURE_HEADER,
  raiseConfirmationsBody,
  type SimulatedDepositAnswer,
  simulateDepositBody,
  transactionBody,
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

const MAX_BODY_BYTES = 16 * 1024;

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
  async function notify(deposit: SimulatedDeposit, { lose = false }: { lose?: boolean } = {}): Promise<SimulatedDepositAnswer> {
    const eventId = `evt_${randomUUID()}`;
    if (lose) {
      options.log?.info({ deposit_id: deposit.deposit_id }, 'crypto gateway simulator: the event is lost on purpose');
      return { ...deposit, event_id: eventId, delivery: { delivered: false, status: null, error: 'lost on purpose (--lose-event)', lost: true } };
    }
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
    const pathname = pathOf(request);
    if (request.method !== 'POST') throw new HttpRefusal(405, 'every call is a POST');
    const body = await readSignedJson(request, { header: GATEWAY_SIGNATURE_HEADER, secret, now, maxBytes: MAX_BODY_BYTES });
    if (pathname === GATEWAY_PATHS.addresses) {
      const parsed = addressRequestBody.safeParse(body);
      if (!parsed.success) throw new HttpRefusal(400, 'the body must be {merchant_id, account_id, network: "TRC20"}');
      const address = tronAddress(`${parsed.data.merchant_id}:${parsed.data.account_id}`);
      if (!addresses.has(address)) {
        addresses.add(address);
        save();
      }
      return send(response, 200, { address, network: USDT_NETWORK });
    }
    if (pathname === GATEWAY_PATHS.addressDeposits) {
      const parsed = addressDepositsBody.safeParse(body);
      if (!parsed.success) throw new HttpRefusal(400, 'the body must be {address, network: "TRC20"}');
      const items = [...deposits.values()].filter((deposit) => deposit.address === parsed.data.address).reverse();
      return send(response, 200, { items: items.map((deposit) => ({ ...deposit, network: USDT_NETWORK })) });
    }
    const transaction = /^\/v1\/transactions\/([^/]+)$/.exec(pathname);
    if (transaction) {
      const parsed = transactionBody.safeParse(body);
      const txId = decodeURIComponent(transaction[1] as string);
      if (!parsed.success || parsed.data.tx_id !== txId) throw new HttpRefusal(400, `the body must be {"tx_id": "${txId}"}`);
      const deposit = [...deposits.values()].find((item) => item.tx_id === txId);
      if (!deposit) throw new HttpRefusal(404, `no deposit of transaction ${txId}`);
      return send(response, 200, { ...deposit, network: USDT_NETWORK });
    }
    if (pathname === GATEWAY_PATHS.simulatedDeposits) {
      const parsed = simulateDepositBody.safeParse(body);
      if (!parsed.success) {
        const amountBad = parsed.error.issues.some((issue) => issue.path[0] === 'amount');
        throw new HttpRefusal(400, amountBad ? usdtMessages.amount : 'the body must be {address, amount, confirmations (0–1000), lose_event?}');
      }
      if (!addresses.has(parsed.data.address)) throw new HttpRefusal(400, `the address ${parsed.data.address} is none this gateway made`);
      const { lose_event: lose, ...made } = parsed.data;
      const deposit = { deposit_id: `dep_${randomUUID()}`, tx_id: randomBytes(32).toString('hex'), ...made };
      deposits.set(deposit.deposit_id, deposit);
      save();
      options.log?.info({ deposit_id: deposit.deposit_id, amount: deposit.amount, confirmations: deposit.confirmations }, 'crypto gateway simulator: deposit made');
      return send(response, 200, await notify(deposit, { lose: lose === true }));
    }
    const one = /^\/v1\/simulator\/deposits\/([^/]+)$/.exec(pathname);
    if (one) {
      const parsed = raiseConfirmationsBody.safeParse(body);
      const depositId = decodeURIComponent(one[1] as string);
      if (!parsed.success || parsed.data.deposit_id !== depositId) throw new HttpRefusal(400, `the body must be {"deposit_id": "${depositId}", "confirmations": 0–1000}`);
      const deposit = deposits.get(depositId);
      if (!deposit) throw new HttpRefusal(404, `no deposit ${depositId}`);
      if (parsed.data.confirmations < deposit.confirmations) throw new HttpRefusal(400, `confirmations only rise: ${depositId} has ${deposit.confirmations}`);
      deposit.confirmations = parsed.data.confirmations;
      save();
      return send(response, 200, await notify(deposit, { lose: parsed.data.lose_event === true }));
    }
    throw new HttpRefusal(404, `no such call: ${pathname}`);
  }

  const listening = await startJsonServer(handle, { host, port: options.port, name: 'the crypto gateway simulator' });
  return {
    url: listening.url,
    setWebhookUrl(next) {
      webhookUrl = next;
    },
    close: () => listening.close(),
  };
}
