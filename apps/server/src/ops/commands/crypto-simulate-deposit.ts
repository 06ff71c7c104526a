import { usdtAmountRule } from '@portal/contract/usdt';
import { cryptoWebhookSecretFor } from '../../lib/secrets.ts';
import { Refused } from '../../lib/refused.ts';
import { gatewayUrlFor } from '../../providers/crypto/built-in.ts';
import { createHttpGateway } from '../../providers/crypto/http.ts';
import { GatewayUnavailable } from '../../providers/crypto/port.ts';
import type { SimulatedDepositAnswer } from '../../providers/crypto/protocol.ts';
import { defineCommand, OpsError } from '../command.ts';
import * as input from '../input.ts';
import { accountOf, merchantByHost } from '../lookup.ts';
import { count } from '../simulated-issuer.ts';

const NAME = 'crypto:simulate-deposit';

/** A USDT amount by the contract's rule (above zero, at most 6 decimals), sent exactly as typed. */
function usdtAmount(value: string) {
  const problem = usdtAmountRule(value);
  if (problem) throw new OpsError(`--amount：${problem}，例如 100.00 或 12.345678，而不是 "${value}"`);
  return value.trim();
}

/** What the operator should check, from how the call on the simulated gateway failed. */
function gatewayProblem(message: string, url: string, configured: boolean) {
  if (/answered 401/.test(message)) return `${url} 的加密货币网关模拟器不接受请求签名：请使用与服务器相同的 CRYPTO_WEBHOOK_SECRET 或 DATA_DIR`;
  if (/answered 404/.test(message)) return `${url} 没有这笔模拟充值（或不是模拟网关）`;
  if (/answered 400/.test(message)) return `加密货币网关模拟器拒绝了请求：${/"error":"((?:[^"\\]|\\.)*)"/.exec(message)?.[1] ?? message}`;
  return configured
    ? `无法连接 CRYPTO_GATEWAY_URL 指定的加密货币网关 ${url}：它是否在运行？`
    : `${url} 上没有加密货币网关模拟器在运行：请先启动服务器（npm start，未设置 CRYPTO_GATEWAY_URL 时会启动内置模拟器）或 npm run crypto-sim；端口不同时请设置 CRYPTO_SIM_PORT 或 CRYPTO_GATEWAY_URL`;
}

function report(answer: SimulatedDepositAnswer, verb: string) {
  const { delivery } = answer;
  return [
    `${verb} USDT deposit ${answer.deposit_id}`,
    `  deposit        ${answer.deposit_id}`,
    `  transaction    ${answer.tx_id}`,
    `  address        ${answer.address}`,
    `  amount         ${answer.amount} USDT`,
    `  confirmations  ${answer.confirmations}`,
    `  event          ${answer.event_id} ${delivery.delivered ? `delivered to the portal (${delivery.status})` : delivery.lost ? 'lost on purpose: the reconciliation (crypto:reconcile, or the job each minute) finds it' : `NOT delivered (${delivery.error ?? delivery.status})`}`,
    `Raise its confirmations with: ${NAME} --deposit ${answer.deposit_id} --confirmations N`,
  ].join('\n');
}

export const cryptoSimulateDeposit = defineCommand({
  name: NAME,
  summary: "Make a USDT (TRC20) deposit to an account's address on the simulated crypto gateway, or raise a deposit's confirmations",
  usage: [`${NAME} --host HOST --account PHONE|EMAIL --amount USDT --confirmations N [--lose-event]`, `${NAME} --deposit ID --confirmations N [--lose-event]`],
  description: [
    "The amount is USDT with up to 6 decimals (TRC20's), kept exactly. The simulated gateway sends the portal a signed event for it, as a real gateway would (--lose-event: it sends none, as if the event were lost, for the reconciliation to find): the deposit shows as 确认中 (n/20) on 钱包充值, and is credited once into the USD wallet, at the merchant's rate less its fee, when it has 20 confirmations. Confirmations change only when this command says so, and only rise.",
    '',
    'The gateway asked is CRYPTO_GATEWAY_URL, or else the built-in simulator the server starts on http://127.0.0.1:CRYPTO_SIM_PORT (4200); requests are signed with CRYPTO_WEBHOOK_SECRET, or else the development secret in DATA_DIR, so run it with the server\'s DATA_DIR.',
  ].join('\n'),
  flags: {
    host: { type: 'string', value: 'HOST', description: 'the merchant, by one of its hosts' },
    account: { type: 'string', value: 'PHONE|EMAIL', description: 'the account whose address receives the deposit' },
    amount: { type: 'string', value: 'USDT', description: 'how many USDT, above zero, at most 6 decimals, e.g. 100.00 or 12.345678' },
    'lose-event': { type: 'boolean', description: 'send the portal no event this time, as if it were lost' },
    confirmations: { type: 'string', value: 'N', description: 'the confirmations it has now (0–1000)' },
    deposit: { type: 'string', value: 'ID', description: 'a deposit this command made before (its id was printed): its confirmations rise to --confirmations' },
  },
  examples: [`${NAME} --host localhost --account 13800138000 --amount 100.00 --confirmations 3`, `${NAME} --deposit dep_… --confirmations 20`, `${NAME} --host localhost --account 13800138000 --amount 12.345678 --confirmations 20 --lose-event`],
  async run(flags, { services, config }) {
    const confirmations = count(input.requireFlag(flags.confirmations, 'confirmations', NAME), 'confirmations', { min: 0, max: 1000 });
    const url = gatewayUrlFor(config);
    const gateway = createHttpGateway({ url, secret: cryptoWebhookSecretFor(config) });
    const ask = async (call: () => Promise<SimulatedDepositAnswer>) => {
      try {
        return await call();
      } catch (error) {
        if (!(error instanceof GatewayUnavailable)) throw error;
        throw new Refused(`${gatewayProblem(error.message, url, config.crypto.url !== undefined)}（${error.message}）`);
      }
    };
    if (flags.deposit !== undefined) {
      if (flags.host !== undefined || flags.account !== undefined || flags.amount !== undefined) throw new OpsError('--deposit takes only --confirmations (the deposit knows its address and amount)');
      const depositId = input.text(flags.deposit, 'deposit', { max: 100 });
      return report(await ask(() => gateway.raiseConfirmations(depositId, confirmations, { loseEvent: flags['lose-event'] === true })), 'Raised');
    }
    const amount = usdtAmount(input.requireFlag(flags.amount, 'amount', NAME));
    const merchant = await merchantByHost(services, input.requireFlag(flags.host, 'host', NAME));
    const account = await accountOf(services, merchant, input.requireFlag(flags.account, 'account', NAME));
    const address = await services.funding.usdtAddress(merchant.id, account.id);
    return report(await ask(() => gateway.simulateDeposit({ address, amount, confirmations, ...(flags['lose-event'] ? { lose_event: true } : {}) })), 'Made');
  },
});
