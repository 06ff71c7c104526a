import { CURRENCIES } from '@portal/contract/enums';
import type { AlertsAnswer, alertsBody } from '@portal/contract/balance-rules';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import type { z } from 'zod';
import { cardName } from '../cards/service.ts';
import { type BalanceRuleDeps, FUNDING_QUEUES, markOf, watchKeys } from './deps.ts';
import { balanceRuleNotices } from './notices.ts';
import { type AlertSettingsRow, addMarks, dropMark, findAlert, findAlertSettings, replaceMarks, saveAlertSettings, updateAlert } from './store.ts';

const answerOf = (row: AlertSettingsRow | undefined): AlertsAnswer => ({
  wallet: CURRENCIES.filter((currency) => row?.wallet[currency] !== undefined).map((currency) => ({ currency, threshold: fromMinorUnits(BigInt(row?.wallet[currency] ?? '0')) })),
  card_default_threshold: row?.cardDefault === null || row?.cardDefault === undefined ? null : fromMinorUnits(row.cardDefault),
});

/**
 * Low-balance alerts: the account's thresholds (a wallet currency's, and one for every card), watched by
 * the ledger; each crossing is written with the movement that made it (watch.ts), and a job posts its
 * station message and sends its e-mails once.
 */
export function alertsPart(deps: BalanceRuleDeps) {
  const { db, clock, ledger, books, cards, messages, team, jobs, log } = deps;

  async function settings(accountId: string) {
    return answerOf(await findAlertSettings(db, accountId));
  }

  /** PUT /account/alerts: a threshold new or changed and above what the balance is now alerts at the next movement. */
  async function save(merchantId: string, accountId: string, body: z.output<typeof alertsBody>) {
    const wallet: Record<string, string> = {};
    for (const item of body.wallet) wallet[item.currency] = toMinorUnits(item.threshold).toString();
    const cardDefault = body.card_default_threshold ? toMinorUnits(body.card_default_threshold) : null;
    const { balances } = await books.customerBalances(merchantId, accountId);
    return db.transaction(async (tx) => {
      const before = await findAlertSettings(tx, accountId);
      const saved = await saveAlertSettings(tx, { accountId, merchantId, wallet, cardDefault, updatedAt: clock.now() });
      for (const currency of CURRENCIES) {
        const threshold = wallet[currency] === undefined ? null : BigInt(wallet[currency]);
        await ledger.setWatch(tx, { merchantId, holderId: accountId, watchKey: watchKeys.wallet(currency), kind: 'WALLET', ownerId: null, currency, below: threshold });
        // an unchanged threshold keeps its mark (or none): saving the page again alerts nothing more
        if (before?.wallet[currency] === wallet[currency]) continue;
        await dropMark(tx, accountId, markOf.wallet(currency));
        const now = balances.find((one) => one.currency === currency);
        if (threshold !== null && now && toMinorUnits(now.available) < threshold) await addMarks(tx, accountId, [markOf.wallet(currency)]);
      }
      await ledger.setWatch(tx, { merchantId, holderId: accountId, watchKey: watchKeys.cards, kind: 'CARD', ownerId: null, currency: null, below: cardDefault });
      if ((before?.cardDefault ?? null) !== cardDefault) {
        await replaceMarks(tx, accountId, 'CARD:', cardDefault === null ? [] : (await books.cardsBelow(merchantId, accountId, cardDefault, tx)).map(markOf.card));
      }
      return answerOf(saved);
    });
  }

  /** An alert's station message (once, with the alert row locked), then its e-mails (once they went out). */
  async function deliver(data: { alert_id: string }) {
    const unlocked = await findAlert(db, data.alert_id);
    if (!unlocked) return;
    // read before the transaction: on the embedded database a read outside it would wait for it
    const card = unlocked.cardId ? await cards.find(unlocked.cardId) : undefined;
    const posted = await db.transaction(async (tx) => {
      const alert = await findAlert(tx, data.alert_id, { lock: true });
      if (!alert) return undefined;
      const words = { currency: alert.currency, balance: fromMinorUnits(alert.balance), threshold: fromMinorUnits(alert.threshold) };
      const notice = card ? balanceRuleNotices.cardLow({ ...words, card: cardName(card) }) : balanceRuleNotices.walletLow(words);
      if (alert.messagedAt === null) {
        await messages.post(tx, {
          merchantId: alert.merchantId,
          accountId: alert.accountId,
          type: card ? 'CARD_BALANCE_LOW' : 'BALANCE_LOW',
          status: 'warning',
          title: notice.title,
          content: notice.content,
          ...(card ? { holderMemberId: card.holderMemberId } : {}),
        });
        await updateAlert(tx, alert.id, { messagedAt: clock.now() });
        if (card) {
          await deps.webhooks?.emit(tx, {
            merchantId: alert.merchantId,
            accountId: alert.accountId,
            type: 'card.balance_low',
            cardId: card.id,
            data: { card_id: card.id, currency: alert.currency, balance: words.balance, threshold: words.threshold },
          });
        }
      }
      return { alert, notice, holder: card?.holderMemberId };
    });
    if (!posted || posted.alert.mailedAt !== null) return;
    const { alert, notice, holder } = posted;
    for (const to of await team.mailboxesOf(alert.accountId, ['OWNER', 'ADMIN', 'FINANCE'], holder ? [holder] : [])) {
      await deps.mail.send({ to, subject: notice.title, text: notice.text }).catch((error: unknown) => log.error({ err: error, alert_id: alert.id }, 'low-balance e-mail not sent'));
    }
    await updateAlert(db, alert.id, { mailedAt: clock.now() });
  }

  jobs.work<{ alert_id: string }>(FUNDING_QUEUES.alert, deliver, { concurrency: 2, retryLimit: 10 });

  return { settings, save };
}

