import type { IncomingMessage, ServerResponse } from 'node:http';
import { postText } from '../../lib/http-post.ts';
import { ISSUER_SIGNATURE_HEADER } from '../../lib/issuer-signature.ts';
import { HttpRefusal, pathOf, problemsOf as problems, readSignedJson, sendJson as send, startJsonServer } from '../../lib/signed-json-http.ts';
import { CARD_ACTIONS, type CardAction, cardActionBody, cardStatusBody, failNextBody, followUpBody, ISSUER_PATHS, issueRequestBody, purchaseBody } from './protocol.ts';
import type { SimulatorJournal } from './simulator-journal.ts';
import { createIssuerSimulator, type IssuerSimulator, type IssuerSimulatorOptions, type SimulatorLog, SimulatorRefusal } from './simulator.ts';

/**
 * The simulated issuer as an HTTP party of its own (protocol.ts): the portal reaches it the way it
 * would reach a real issuer, with signed requests, and it answers with signed events POSTed to the
 * portal's webhook. Started inside the server when ISSUER_URL is unset (main.ts), or apart with
 * `npm run issuer-sim` (standalone.ts).
 */
export interface StartIssuerSimulatorOptions {
  /** 127.0.0.1 unless said otherwise: the simulator is for this machine */
  host?: string;
  /** 0: any free port (`url` says which) */
  port: number;
  /** where events go: the portal's POST /api/v1/issuer/webhook; may be given later with setWebhookUrl */
  webhookUrl?: string;
  /** ISSUER_WEBHOOK_SECRET: checks the portal's requests and signs the events */
  secret: string | (() => string);
  delayMs: number;
  failRate: number;
  log?: SimulatorLog;
  /** how long one delivery may take before it counts as failed */
  deliveryTimeoutMs?: number;
  random?: IssuerSimulatorOptions['random'];
  retryDelaysMs?: IssuerSimulatorOptions['retryDelaysMs'];
  /** where what it accepted and has not delivered is kept across restarts (simulator-journal.ts) */
  journal?: SimulatorJournal;
  followUpWaitMs?: IssuerSimulatorOptions['followUpWaitMs'];
  authorizationTimeoutMs?: IssuerSimulatorOptions['authorizationTimeoutMs'];
  now?: () => Date;
}

export interface RunningIssuerSimulator {
  /** `http://127.0.0.1:<port>`: what ISSUER_URL would be set to */
  url: string;
  simulator: IssuerSimulator;
  /** where the events go from now on (the portal's port may be known only once it listens) */
  setWebhookUrl(url: string): void;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024;
const DEFAULT_DELIVERY_TIMEOUT_MS = 5_000;

/** What a request asks for, from its method and path; null when the simulator has no such call. */
function routeOf(method: string | undefined, pathname: string) {
  const action = /^\/v1\/cards\/([^/]+)\/([a-z]+)$/.exec(pathname);
  const route =
    action?.[2] === 'status'
      ? ({ call: 'status', cardId: decodeURIComponent(action[1] as string) } as const)
      : pathname === ISSUER_PATHS.cards
      ? ({ call: 'open' } as const)
      : pathname === ISSUER_PATHS.failNext
        ? ({ call: 'fail-next' } as const)
        : pathname === ISSUER_PATHS.purchases
          ? ({ call: 'purchase' } as const)
          : pathname === ISSUER_PATHS.followUps
            ? ({ call: 'follow-up' } as const)
            : action && (CARD_ACTIONS as readonly string[]).includes(action[2] as string)
          ? ({ call: 'action', cardId: decodeURIComponent(action[1] as string), action: action[2] as CardAction } as const)
          : null;
  if (!route) throw new HttpRefusal(404, `no such call: ${pathname}`);
  if (method !== 'POST') throw new HttpRefusal(405, `${pathname} takes POST only`);
  return route;
}

export async function startIssuerSimulator(options: StartIssuerSimulatorOptions): Promise<RunningIssuerSimulator> {
  const host = options.host ?? '127.0.0.1';
  const secret = typeof options.secret === 'string' ? () => options.secret as string : options.secret;
  const now = options.now ?? (() => new Date());
  const log = options.log;
  const timeoutMs = options.deliveryTimeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  let webhookUrl = options.webhookUrl;

  // made once it listens: a simulator whose port is taken must not take up (and deliver) the events its journal keeps
  const makeSimulator = () => createIssuerSimulator({
    secret,
    delayMs: options.delayMs,
    failRate: options.failRate,
    now,
    ...(log ? { log } : {}),
    ...(options.random ? { random: options.random } : {}),
    ...(options.retryDelaysMs ? { retryDelaysMs: options.retryDelaysMs } : {}),
    ...(options.journal ? { journal: options.journal } : {}),
    ...(options.followUpWaitMs !== undefined ? { followUpWaitMs: options.followUpWaitMs } : {}),
    ...(options.authorizationTimeoutMs !== undefined ? { authorizationTimeoutMs: options.authorizationTimeoutMs } : {}),
    async deliver(body, signature) {
      if (!webhookUrl) throw new Error('the portal has not given its webhook address yet');
      const { status } = await postText(webhookUrl, body, { 'content-type': 'application/json', [ISSUER_SIGNATURE_HEADER]: signature }, timeoutMs);
      return status;
    },
    // an authorisation request: the same POST, whose answer carries the decision
    async ask(body, signature, askTimeoutMs) {
      if (!webhookUrl) throw new Error('the portal has not given its webhook address yet');
      return postText(webhookUrl, body, { 'content-type': 'application/json', [ISSUER_SIGNATURE_HEADER]: signature }, askTimeoutMs);
    },
  });
  let simulator: IssuerSimulator | undefined;

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const route = routeOf(request.method, pathOf(request));
    const body = await readSignedJson(request, { header: ISSUER_SIGNATURE_HEADER, secret, now, maxBytes: MAX_BODY_BYTES });
    const started = simulator;
    if (!started) throw new HttpRefusal(503, 'the issuer simulator is starting');
    if (route.call === 'open') {
      const parsed = issueRequestBody.safeParse(body);
      if (!parsed.success) throw new HttpRefusal(400, `not an issue request: ${problems(parsed.error)}`);
      await started.openCard(parsed.data);
      log?.info({ card_id: parsed.data.card_id, bin: parsed.data.product.bin }, 'issuer simulator: issuance accepted');
      return send(response, 202, { accepted: true, card_id: parsed.data.card_id });
    }
    if (route.call === 'action') {
      const parsed = cardActionBody.safeParse(body);
      if (!parsed.success || parsed.data.card_id !== route.cardId || parsed.data.action !== route.action) {
        throw new HttpRefusal(400, `the body must be {"card_id": "${route.cardId}", "action": "${route.action}"}`);
      }
      await started[route.action](route.cardId);
      log?.info({ card_id: route.cardId, action: route.action }, 'issuer simulator: request accepted');
      return send(response, 202, { accepted: true, card_id: route.cardId });
    }
    if (route.call === 'status') {
      const parsed = cardStatusBody.safeParse(body);
      if (!parsed.success || parsed.data.card_id !== route.cardId) throw new HttpRefusal(400, `the body must be {"card_id": "${route.cardId}"}`);
      const answer = await started.getCard(route.cardId);
      log?.info({ card_id: route.cardId, status: answer.status }, 'issuer simulator: status asked');
      return send(response, 200, answer);
    }
    if (route.call === 'purchase') {
      const parsed = purchaseBody.safeParse(body);
      if (!parsed.success) throw new HttpRefusal(400, `not a purchase: ${problems(parsed.error)}`);
      return send(response, 200, await started.purchase(parsed.data));
    }
    if (route.call === 'follow-up') {
      const parsed = followUpBody.safeParse(body);
      if (!parsed.success) throw new HttpRefusal(400, `not a follow-up: ${problems(parsed.error)}`);
      return send(response, 200, await started.followUp(parsed.data.authorization_id, parsed.data.follow_up, { wait: parsed.data.wait !== false }));
    }
    const parsed = failNextBody.safeParse(body);
    if (!parsed.success) throw new HttpRefusal(400, 'the body must be {"reason": "<1 to 200 characters>"}');
    const pending = started.failNext(parsed.data.reason);
    log?.info({ reason: parsed.data.reason, pending_failures: pending }, 'issuer simulator: the next issuance will fail');
    return send(response, 200, { pending_failures: pending });
  }

  const listening = await startJsonServer(handle, {
    host,
    port: options.port,
    name: 'the issuer simulator',
    statusOf: (error) => (error instanceof SimulatorRefusal ? 400 : 503),
    onFailure: (error) => log?.error({ error: error.message }, 'issuer simulator: request failed'),
  });
  const url = listening.url;
  const started = makeSimulator();
  simulator = started;

  return {
    url,
    simulator: started,
    setWebhookUrl(next) {
      webhookUrl = next;
    },
    async close() {
      await started.stop();
      await listening.close();
    },
  };
}
