import { type PostAnswer, PostFailed } from '../../lib/http-post.ts';
import { ISSUER_SIGNATURE_HEADER } from '../../lib/issuer-signature.ts';
import { postSignedJson } from '../../lib/signed-json-http.ts';
import { type CardIssuer, type IssueRequest, IssuerUnavailable } from './port.ts';
import { type CardAction, cardStatusAnswer, type FollowUp, type FollowUpAnswer, ISSUER_PATHS, type PurchaseAnswer, type PurchaseRequest } from './protocol.ts';

export interface HttpIssuerOptions {
  /** the issuer's address (ISSUER_URL, or the built-in simulator's); a function is asked at each call */
  url: string | (() => string);
  /** ISSUER_WEBHOOK_SECRET: requests are signed with it as the issuer signs its events */
  secret: string | (() => string);
  /** how long the issuer may take to accept a request (5 s) */
  timeoutMs?: number;
  now?: () => Date;
}

/** The simulator's extra call, next to the port's: the next issuance fails with a reason. */
export interface SimulatedCardIssuer extends CardIssuer {
  /** answers how many issuances will now fail (null when the issuer did not say) */
  failNext(reason: string): Promise<{ pending_failures: number | null }>;
  /** a purchase on a card (protocol.ts purchaseBody): answers the authorisation's id, its decision and what followed */
  purchase(request: PurchaseRequest): Promise<PurchaseAnswer>;
  /** settles, reverses or refunds an earlier authorisation */
  followUp(authorizationId: string, then: FollowUp, options?: { wait?: boolean }): Promise<FollowUpAnswer>;
}

const DEFAULT_TIMEOUT_MS = 5_000;
/** a purchase waits for the portal's decision (2 s at most) and for the deliveries after it (3 s at most) */
const PURCHASE_TIMEOUT_MS = 15_000;

/**
 * The card issuer over HTTP (protocol.ts): each call is one signed POST, and it resolves once the
 * issuer has accepted (2xx). No answer, another status, or none within the timeout throws
 * IssuerUnavailable: the request was not accepted (shared/design/cards.md "The issuer port"). The
 * same adapter reaches a real issuer and the simulator.
 */
export function createHttpIssuer(options: HttpIssuerOptions): SimulatedCardIssuer {
  const url = typeof options.url === 'string' ? () => options.url as string : options.url;
  const secret = typeof options.secret === 'string' ? () => options.secret as string : options.secret;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const now = options.now ?? (() => new Date());

  async function post(path: string, payload: object, callTimeoutMs = timeoutMs): Promise<unknown> {
    const target = `${url().replace(/\/+$/, '')}${path}`;
    let answer: PostAnswer;
    try {
      answer = await postSignedJson(target, payload, { header: ISSUER_SIGNATURE_HEADER, secret: secret(), now: now(), timeoutMs: callTimeoutMs });
    } catch (error) {
      const reason = error instanceof PostFailed ? error.message : (error as Error).message;
      throw new IssuerUnavailable(`the card issuer at ${target} did not accept the request: ${reason}`, { cause: error });
    }
    const { status, text } = answer;
    if (status < 200 || status > 299) {
      throw new IssuerUnavailable(`the card issuer at ${target} answered ${status}${text ? `: ${text.slice(0, 200)}` : ''}`);
    }
    try {
      return text ? JSON.parse(text) : null;
    } catch {
      return null;
    }
  }

  const action = (name: CardAction) => async (cardId: string) => {
    await post(ISSUER_PATHS.cardAction(cardId, name), { card_id: cardId, action: name });
  };

  return {
    async openCard(request: IssueRequest) {
      await post(ISSUER_PATHS.cards, request);
    },
    freeze: action('freeze'),
    unfreeze: action('unfreeze'),
    close: action('close'),
    async getCard(cardId: string) {
      const answer = cardStatusAnswer.safeParse(await post(ISSUER_PATHS.cardStatus(cardId), { card_id: cardId }));
      // an answer about another card, or one that is not a status, tells nothing: as if there were none
      if (!answer.success || answer.data.card_id !== cardId) throw new IssuerUnavailable(`the card issuer's status of card ${cardId} is not one it may answer`);
      return answer.data;
    },
    async failNext(reason: string) {
      const answer = (await post(ISSUER_PATHS.failNext, { reason })) as { pending_failures?: unknown } | null;
      return { pending_failures: typeof answer?.pending_failures === 'number' ? answer.pending_failures : null };
    },
    async purchase(request: PurchaseRequest) {
      return (await post(ISSUER_PATHS.purchases, request, Math.max(timeoutMs, PURCHASE_TIMEOUT_MS))) as PurchaseAnswer;
    },
    async followUp(authorizationId: string, then: FollowUp, { wait }: { wait?: boolean } = {}) {
      const body = { authorization_id: authorizationId, follow_up: then, ...(wait === undefined ? {} : { wait }) };
      return (await post(ISSUER_PATHS.followUps, body, Math.max(timeoutMs, PURCHASE_TIMEOUT_MS))) as FollowUpAnswer;
    },
  };
}
