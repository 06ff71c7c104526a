import type { Currency } from '@portal/contract/enums';
import { fromMinorUnits } from '@portal/contract/money';
import type { Db, Tx } from '../../db/engine.ts';
import type { Clock } from '../../lib/clock.ts';
import type { LedgerService, OperationResult, WalletAmountRequest } from '../ledger/service.ts';
import type { MessageService } from '../messages/service.ts';
import type { WebhookService } from '../webhooks/service.ts';
import type { SpendingService } from '../spending/service.ts';
import type { MailSender } from '../../providers/mail/port.ts';
import { depositNotices } from './notices.ts';
import { claimMail, type DepositRow, markMailed, merchantNameOf, releaseMail, unmailed, updateDeposit } from './store.ts';

/** A deposit reached the wallet: the account's webhooks hear it in the same transaction. */
export async function depositCredited(
  { webhooks }: Pick<CreditDeps, 'webhooks'>,
  tx: Tx,
  deposit: Pick<DepositRow, 'id' | 'merchantId' | 'accountId' | 'currency' | 'amount' | 'creditedAmount' | 'payerName'>,
) {
  await webhooks?.emit(tx, {
    merchantId: deposit.merchantId,
    accountId: deposit.accountId,
    type: 'deposit.credited',
    data: {
      deposit_id: deposit.id,
      currency: deposit.currency,
      amount: fromMinorUnits(deposit.amount),
      credited_amount: fromMinorUnits(deposit.creditedAmount ?? deposit.amount),
      payer_name: deposit.payerName,
    },
  });
}

export interface CreditDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  spending: Pick<SpendingService, 'collectOwed' | 'collectOwedMany'>;
  messages: Pick<MessageService, 'post' | 'postMany'>;
  mail: MailSender;
  /** the e-mail addresses of an account's members in these roles (the accounts' directory) */
  directory: { emailsOf(accountId: string, roles: readonly string[]): Promise<string[]> };
  log: { warn(details: object, message: string): void };
  /** the account's webhooks hear of money credited to the wallet (deposit.credited) */
  webhooks?: Pick<WebhookService, 'emit'>;
  /** how long a sender holds a credit's e-mail before another may take it over (5 minutes unless told) */
  mailLeaseMs?: number;
}

/** The roles whose members are mailed when money reaches the wallet. */
const MAILED_ROLES = ['OWNER', 'ADMIN', 'FINANCE'] as const;

/**
 * Money into a wallet: the ADMIN_RECHARGE_IN and, in the same transaction, what the account owes in
 * that currency collected from it (spending's collectOwed). A replayed key moves nothing and collects
 * nothing again.
 */
export function creditPart(deps: CreditDeps) {
  const { db, clock, ledger, spending, messages, mail, directory, log, mailLeaseMs = 5 * 60_000 } = deps;
  async function moneyIn(tx: Tx, request: WalletAmountRequest): Promise<OperationResult & { collected: bigint }> {
    const result = await ledger.within(tx).recharge(request);
    if (result.replayed) return { ...result, collected: 0n };
    const { collected } = await spending.collectOwed(tx, {
      merchantId: request.merchantId,
      accountId: request.accountId,
      currency: request.currency,
      cameIn: request.amount,
    });
    return { ...result, collected };
  }

  /** Credits a deposit (locked by the caller, PENDING) with `amount` under `key`; its message rides on the same transaction. */
  async function creditDeposit(tx: Tx, deposit: DepositRow, amount: bigint, key: string, extra: Partial<DepositRow> = {}) {
    const moved = await moneyIn(tx, {
      merchantId: deposit.merchantId,
      accountId: deposit.accountId,
      currency: deposit.currency as Currency,
      amount,
      key,
      reference: `deposit:${deposit.id}`,
      memo: `银行转账充值（付款人：${deposit.payerName}）`,
    });
    const row = await updateDeposit(tx, deposit.id, {
      ...extra,
      status: 'CREDITED',
      creditedAmount: amount,
      ledgerTransactionId: moved.answer.transactionId,
      decidedAt: clock.now(),
    });
    await messages.post(tx, {
      merchantId: deposit.merchantId,
      accountId: deposit.accountId,
      type: 'DEPOSIT_CREDITED',
      status: 'success',
      ...depositNotices.credited({ amount: fromMinorUnits(amount), currency: deposit.currency, payer: deposit.payerName }),
    });
    await depositCredited(deps, tx, row);
    return { row, moved };
  }

  /**
   * Sends the e-mail of each credited deposit not mailed yet (the deposit row is the e-mail's outbox).
   * Each is taken on a lease first (mail_claimed_at), so two senders never send one at once, and marked
   * mailed only once it is sent: a sender that stops between the two leaves a lease that ends, and the
   * next round (the minute's job) sends it then. A failed send gives the lease back. Answers how many went out.
   */
  async function deliverMails(limit = 200) {
    let sent = 0;
    for (;;) {
      const staleBefore = new Date(clock.now().getTime() - mailLeaseMs);
      const rows = await unmailed(db, limit, staleBefore);
      let done = 0;
      for (const row of rows) {
        const claimedAt = clock.now();
        if (!(await claimMail(db, row.id, claimedAt, staleBefore))) continue;
        try {
          const to = await directory.emailsOf(row.accountId, MAILED_ROLES);
          const words = { amount: fromMinorUnits(row.creditedAmount ?? row.amount), currency: row.currency, payer: row.payerName, merchant: await merchantNameOf(db, row.merchantId) };
          for (const address of to) await mail.send({ to: address, ...depositNotices.creditedMail(words) });
        } catch (error) {
          await releaseMail(db, row.id, claimedAt);
          log.warn({ err: error, deposit: row.id }, 'the e-mail of a credited deposit did not go out; it is tried again later');
          continue;
        }
        await markMailed(db, row.id, clock.now());
        done += 1;
      }
      sent += done;
      if (rows.length < limit || done === 0) return sent;
    }
  }

  return { moneyIn, creditDeposit, deliverMails };
}
