import { TRC20_ADDRESS_PATTERN, USDT_NETWORK } from '@portal/contract/usdt';
import { type PostAnswer, PostFailed } from '../../lib/http-post.ts';
import { postSignedJson } from '../../lib/signed-json-http.ts';
import { GatewayUnavailable, type SimulatedCryptoGateway } from './port.ts';
import { addressAnswer, addressDepositsAnswer, GATEWAY_PATHS, GATEWAY_SIGNATURE_HEADER, gatewayDeposit, type SimulatedDepositAnswer } from './protocol.ts';

export interface HttpGatewayOptions {
  /** CRYPTO_GATEWAY_URL, or the built-in simulator's; a function is asked at each call */
  url: string | (() => string);
  /** CRYPTO_WEBHOOK_SECRET: requests are signed with it as the gateway signs its events */
  secret: string | (() => string);
  timeoutMs?: number;
  now?: () => Date;
}

/**
 * The crypto gateway over HTTP (protocol.ts): each call one signed POST. No answer, a status other
 * than 2xx or an answer that is not what was asked throws GatewayUnavailable. The same adapter reaches
 * a real gateway and the simulator.
 */
export function createHttpGateway(options: HttpGatewayOptions): SimulatedCryptoGateway {
  const url = typeof options.url === 'string' ? () => options.url as string : options.url;
  const secret = typeof options.secret === 'string' ? () => options.secret as string : options.secret;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const now = options.now ?? (() => new Date());

  async function post(path: string, payload: object, { again = false, absent = false }: { again?: boolean; absent?: boolean } = {}): Promise<unknown> {
    const target = `${url().replace(/\/+$/, '')}${path}`;
    let answer: PostAnswer;
    try {
      answer = await postSignedJson(target, payload, { header: GATEWAY_SIGNATURE_HEADER, secret: secret(), now: now(), timeoutMs });
    } catch (error) {
      // a kept-open connection the gateway closed as it was reused: a request that may be asked twice is asked once more
      if (again && error instanceof PostFailed && !error.timedOut && /ECONNRESET|EPIPE/.test(error.message)) return post(path, payload, { absent });
      const reason = error instanceof PostFailed ? error.message : (error as Error).message;
      throw new GatewayUnavailable(`the crypto gateway at ${target} did not answer: ${reason}`, { cause: error });
    }
    // a read of something the gateway does not have: an answer, not a failure
    if (absent && answer.status === 404) return null;
    if (answer.status < 200 || answer.status > 299) {
      throw new GatewayUnavailable(`the crypto gateway at ${target} answered ${answer.status}${answer.text ? `: ${answer.text.slice(0, 200)}` : ''}`);
    }
    try {
      return JSON.parse(answer.text);
    } catch {
      throw new GatewayUnavailable(`the crypto gateway at ${target} answered something that is not JSON`);
    }
  }

  return {
    async addressFor({ merchant_id, account_id }) {
      const answer = addressAnswer.safeParse(await post(GATEWAY_PATHS.addresses, { merchant_id, account_id, network: USDT_NETWORK }, { again: true }));
      if (!answer.success || !TRC20_ADDRESS_PATTERN.test(answer.data.address)) throw new GatewayUnavailable('the crypto gateway answered no TRC20 address');
      return answer.data.address;
    },
    async depositsTo(address) {
      const answer = addressDepositsAnswer.safeParse(await post(GATEWAY_PATHS.addressDeposits, { address, network: USDT_NETWORK }, { again: true }));
      if (!answer.success) throw new GatewayUnavailable(`the crypto gateway's deposits of ${address} are not a list of deposits`);
      // a deposit to another address tells nothing about this one
      return answer.data.items.filter((item) => item.address === address);
    },
    async depositOf(txId) {
      const body = await post(GATEWAY_PATHS.transaction(txId), { tx_id: txId }, { again: true, absent: true });
      if (body === null) return null;
      const answer = gatewayDeposit.safeParse(body);
      if (!answer.success || answer.data.tx_id !== txId) throw new GatewayUnavailable(`the crypto gateway's answer about transaction ${txId} is not that deposit`);
      return answer.data;
    },
    async simulateDeposit(request) {
      return (await post(GATEWAY_PATHS.simulatedDeposits, request)) as SimulatedDepositAnswer;
    },
    async raiseConfirmations(depositId, confirmations, { loseEvent }: { loseEvent?: boolean } = {}) {
      return (await post(GATEWAY_PATHS.simulatedDeposit(depositId), { deposit_id: depositId, confirmations, ...(loseEvent ? { lose_event: true } : {}) })) as SimulatedDepositAnswer;
    },
  };
}
