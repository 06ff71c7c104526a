import type { Currency } from '@portal/contract/enums';
import { EVENT_TYPES } from '@portal/contract/events';
import type { DepositInstructions } from '@portal/contract/funding';
import { fromMinorUnits } from '@portal/contract/money';
import {
  formatFeePercent,
  formatRate,
  formatUsdt,
  toUsdtMicros,
  USDT_CONFIRMATIONS_REQUIRED,
  USDT_NETWORK,
  USDT_WALLET_CURRENCY,
  usdtCredit,
} from '@portal/contract/usdt';
import { UsdtErrorCode } from '@portal/contract/usdt-errors';
import type { Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import { verifyIssuerSignature } from '../../lib/issuer-signature.ts';
import type { EventPublisher } from '../events/publisher.ts';
import { type CryptoGateway, GatewayUnavailable } from '../../providers/crypto/port.ts';
import { DEPOSIT_EVENT_TYPE, type DepositEventData, depositEventData, gatewayEvent } from '../../providers/crypto/protocol.ts';
import { type CreditDeps, type creditPart, depositCredited } from './credit.ts';
import type { DepositRow } from './store.ts';
import { updateDeposit } from './store.ts';
import { addressOf, addressOwner, chainDepositForUpdate, findUsdtSettings, keepAddress, recordGatewayEvent, saveUsdtSettings } from './usdt-store.ts';

export interface UsdtDeps {
  /** the crypto gateway; null when none is configured (production without CRYPTO_GATEWAY_URL): no USDT is offered */
  gateway: CryptoGateway | null;
  /** CRYPTO_WEBHOOK_SECRET */
  secret: () => string;
  events: Pick<EventPublisher, 'toAccount'>;
}

/** What one gateway event did: nothing again (a replay), nothing of ours, or the deposit as it stands after it. */
export type GatewayOutcome =
  | { id: string; duplicate: true }
  | { id: string; duplicate: false; outcome: 'ignored' }
  | { id: string; duplicate: false; outcome: 'processed'; deposit_id: string; status: string; confirmations: number; credited: boolean };

const usdtNotices = {
  credited: (v: { usdt: string; credited: string; rate: string; fee: string }) => ({
    title: '充值已到账',
    content: `<p>您的 USDT（TRC20）充值 ${v.usdt} USDT 已确认，按 1 USDT = ${v.rate} USD、扣除手续费 ${v.fee} USD 后，钱包已入账 ${v.credited} USD。</p>`,
  }),
};

/**
 * Top-up in USDT (TRC20): the account's address, asked of the gateway once and kept; the gateway's
 * signed events, each id acted on once; a deposit PENDING with its confirmations (which only rise) and
 * credited once at 20, at the merchant's rate less its fee, through the same money-in path as a bank
 * transfer (ADMIN_RECHARGE_IN under the chain transaction's key, what is owed collected, message and e-mail).
 */
export function usdtPart(deps: CreditDeps & UsdtDeps, credits: ReturnType<typeof creditPart>) {
  const { db, clock, messages, gateway, secret, events } = deps;

  /**
   * The credit's e-mail goes out after the gateway has its answer, never on its way: one round of
   * sending at a time in this process, and one more after it when a credit came meanwhile (a failed
   * one is tried again by the minute's job).
   */
  const mails = (() => {
    let running: Promise<void> | null = null;
    let again = false;
    const round = (): Promise<void> =>
      credits
        .deliverMails()
        .then(
          () => undefined,
          (error: unknown) => deps.log.warn({ err: error }, 'the e-mails of credited USDT deposits did not go out; the minute job tries again'),
        )
        .then(() => {
          if (!again) {
            running = null;
            return;
          }
          again = false;
          return round();
        });
    return {
      soon() {
        if (running) {
          again = true;
          return;
        }
        running = round();
      },
    };
  })();

  async function addressFor(merchantId: string, accountId: string) {
    const kept = await addressOf(db, accountId);
    if (kept) return kept;
    if (!gateway) throw new AppError(UsdtErrorCode.GATEWAY_UNAVAILABLE);
    let address: string;
    try {
      address = await gateway.addressFor({ merchant_id: merchantId, account_id: accountId });
    } catch (error) {
      if (!(error instanceof GatewayUnavailable)) throw error;
      deps.log.warn({ err: error, account: accountId }, 'the crypto gateway gave no USDT address');
      throw new AppError(UsdtErrorCode.GATEWAY_UNAVAILABLE);
    }
    await keepAddress(db, { merchantId, accountId, address });
    return (await addressOf(db, accountId)) as string;
  }

  /** The merchant's offer, when it offers USDT and a gateway is there to take it. */
  async function offer(merchantId: string) {
    const settings = await findUsdtSettings(db, merchantId);
    return settings?.enabled && gateway ? settings : null;
  }

  async function credit(tx: Tx, deposit: DepositRow, txId: string) {
    const settings = await findUsdtSettings(tx, deposit.merchantId);
    // an offer withdrawn after the money was sent still pays at the last rate and fee the merchant set
    const rateMicros = settings?.rateMicros ?? 1_000_000n;
    const feeBps = settings?.feeBps ?? 0;
    const terms = { usdtRateMicros: rateMicros, usdtFeeBps: feeBps };
    const { fee, credited } = usdtCredit(deposit.amount, rateMicros, feeBps);
    if (credited <= 0n) {
      return updateDeposit(tx, deposit.id, { ...terms, status: 'REJECTED', reason: '扣除手续费后不足 0.01 USD，未入账', decidedAt: clock.now() });
    }
    const usdt = formatUsdt(deposit.amount);
    const words = { usdt, credited: fromMinorUnits(credited), rate: formatRate(rateMicros), fee: fromMinorUnits(fee) };
    const moved = await credits.moneyIn(tx, {
      merchantId: deposit.merchantId,
      accountId: deposit.accountId,
      currency: USDT_WALLET_CURRENCY,
      amount: credited,
      key: `trc20:${txId}`,
      reference: `deposit:${deposit.id}`,
      memo: `USDT（TRC20）充值 ${usdt} USDT，汇率 ${words.rate}，手续费 ${words.fee} USD（费率 ${formatFeePercent(feeBps)}%）`,
    });
    const row = await updateDeposit(tx, deposit.id, { ...terms, status: 'CREDITED', creditedAmount: credited, ledgerTransactionId: moved.answer.transactionId, decidedAt: clock.now() });
    await messages.post(tx, { merchantId: deposit.merchantId, accountId: deposit.accountId, type: 'DEPOSIT_CREDITED', status: 'success', ...usdtNotices.credited(words) });
    await depositCredited(deps, tx, row);
    return row;
  }

  async function apply(tx: Tx, event: { id: string; type: string }, data: DepositEventData): Promise<GatewayOutcome> {
    const owner = await addressOwner(tx, data.address);
    if (!owner) {
      if (!(await recordGatewayEvent(tx, { id: event.id, type: event.type, outcome: 'ignored' }))) return { id: event.id, duplicate: true };
      return { id: event.id, duplicate: false, outcome: 'ignored' };
    }
    if (!(await recordGatewayEvent(tx, { id: event.id, type: event.type, outcome: 'processed' }))) return { id: event.id, duplicate: true };
    const { row, fresh } = await chainDepositForUpdate(tx, {
      merchantId: owner.merchantId,
      accountId: owner.accountId,
      kind: 'USDT',
      source: 'CHAIN',
      currency: USDT_WALLET_CURRENCY,
      amount: toUsdtMicros(data.amount) as bigint,
      payerName: `USDT（${USDT_NETWORK}）`,
      transferredAt: clock.now(),
      chainTxId: data.tx_id,
      confirmations: data.confirmations,
      confirmationsRequired: USDT_CONFIRMATIONS_REQUIRED,
      chainSeenAt: clock.now(),
    });
    let after = row;
    // confirmations only rise: an event that says fewer than known (late, out of order) changes nothing
    if (row.status === 'PENDING' && data.confirmations > (row.confirmations ?? 0)) after = await updateDeposit(tx, row.id, { confirmations: data.confirmations, chainSeenAt: clock.now() });
    else if (row.status === 'PENDING' && !fresh) await updateDeposit(tx, row.id, { chainSeenAt: clock.now() });
    const changed = fresh || after !== row;
    if (after.status === 'PENDING' && (after.confirmations ?? 0) >= (after.confirmationsRequired ?? USDT_CONFIRMATIONS_REQUIRED)) after = await credit(tx, after, data.tx_id);
    const credited = after.status === 'CREDITED' && row.status === 'PENDING';
    if (changed || after.status !== row.status) {
      await events.toAccount(tx, after.merchantId, after.accountId, EVENT_TYPES.depositProgress, {
        deposit_id: after.id,
        confirmations: after.confirmations ?? 0,
        status: after.status,
      });
    }
    return { id: event.id, duplicate: false, outcome: 'processed', deposit_id: after.id, status: after.status, confirmations: after.confirmations ?? 0, credited };
  }

  /** One deposit as the gateway tells it, in one transaction with its event id: the webhook's path and the reconciliation's. */
  async function applyEvent(event: { id: string; type: string }, data: DepositEventData): Promise<GatewayOutcome> {
    const outcome = await db.transaction((tx) => apply(tx, event, data));
    if (!outcome.duplicate && outcome.outcome === 'processed' && outcome.credited) mails.soon();
    return outcome;
  }

  return {
    addressFor,

    /** The `usdt` of GET /wallet/deposit-instructions: null unless USD and the merchant offers USDT. */
    async instructions(merchantId: string, accountId: string, currency: Currency): Promise<DepositInstructions['usdt']> {
      if (currency !== USDT_WALLET_CURRENCY) return null;
      const settings = await offer(merchantId);
      if (!settings) return null;
      return {
        network: USDT_NETWORK,
        address: await addressFor(merchantId, accountId),
        confirmations_required: USDT_CONFIRMATIONS_REQUIRED,
        rate: formatRate(settings.rateMicros),
        fee_percent: formatFeePercent(settings.feeBps),
      };
    },

    /** merchant:set-usdt */
    setUsdt: (merchantId: string, settings: { enabled: boolean; rateMicros: bigint; feeBps: number }) => saveUsdtSettings(db, { merchantId, ...settings }),
    usdtSettings: (merchantId: string) => findUsdtSettings(db, merchantId),

    /**
     * POST /api/v1/crypto/webhook: the signature over the exact bytes first (a forged or stale one changes
     * nothing), then the event in one transaction with its id: a replayed id, or a handling that fails
     * and is retried, acts once.
     */
    async receiveGatewayEvent(rawBody: Buffer | undefined, signature: string | undefined, body: unknown): Promise<GatewayOutcome> {
      if (!verifyIssuerSignature({ secret: secret(), body: rawBody, header: signature, now: clock.now() })) throw new AppError(UsdtErrorCode.GATEWAY_SIGNATURE_INVALID);
      const event = gatewayEvent.safeParse(body);
      if (!event.success) throw new AppError(UsdtErrorCode.GATEWAY_EVENT_INVALID);
      if (event.data.type !== DEPOSIT_EVENT_TYPE) {
        const recorded = await recordGatewayEvent(db, { id: event.data.id, type: event.data.type, outcome: 'ignored' });
        return recorded ? { id: event.data.id, duplicate: false, outcome: 'ignored' } : { id: event.data.id, duplicate: true };
      }
      const data = depositEventData.safeParse(event.data.data);
      if (!data.success) {
        const amountOnly = data.error.issues.every((issue) => issue.path[0] === 'amount');
        throw new AppError(amountOnly ? UsdtErrorCode.GATEWAY_AMOUNT_INVALID : UsdtErrorCode.GATEWAY_EVENT_INVALID);
      }
      return applyEvent(event.data, data.data);
    },

    applyEvent,
  };
}
