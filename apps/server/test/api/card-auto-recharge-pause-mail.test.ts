import { randomUUID } from 'node:crypto';
import type { AutoRechargeRule } from '@portal/contract/balance-rules';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { PAUSE_MAIL_LEASE_SECONDS } from '../../src/modules/balance-rules/pause-mail.ts';
import { scriptedIssuerApp } from '../helpers/issuer.ts';
import { queryRows } from '../helpers/sql.ts';
import { issuedCard, readyForCards, type Teammate, teamOwner } from '../helpers/team.ts';
import { until } from '../helpers/until.ts';

const clock = new ManualClock(new Date('2026-11-24T08:00:00Z'));
const { t, issuer } = scriptedIssuerApp(clock);

async function owner() {
  const who = await teamOwner(t);
  await readyForCards(t, who);
  return who;
}
const merchantOf = async (who: Teammate) =>
  String((await queryRows<{ merchant_id: string }>(t.database.db, sql`select merchant_id from accounts where id = ${who.accountId}`))[0]?.merchant_id);
const mailsTo = (email: string | null, subject: string) =>
  queryRows<{ text: string }>(t.database.db, sql`select text from dev_outbox where channel = 'email' and "to" = ${email ?? ''} and subject = ${subject}`);
const pauseRows = (cardId: string) =>
  queryRows<{ recipient: string; mailed: boolean }>(t.database.db, sql`select recipient, mailed_at is not null as mailed from auto_recharge_pause_mails where card_id = ${cardId} order by recipient`);

describe('the e-mail of a paused auto top-up', () => {
  it('is written with the pause and sent after it commits, once, marked sent only then', async () => {
    const who = await owner();
    const card = await issuedCard(who, issuer, '暂停卡');
    const left = (await who.api.data<Array<{ currency: string; available: string }>>('GET', '/balance/account-balance')).find((one) => one.currency === 'USD')?.available;
    await t.services.ledger.deduct({ merchantId: await merchantOf(who), accountId: who.accountId, currency: 'USD', amount: BigInt(Math.round((Number(left) - 5) * 100)), key: `drain-${who.accountId}` });
    expect((await who.api.put<AutoRechargeRule>(`/card/${card.id}/auto-recharge`, { enabled: true, threshold: '10.00', target: '50.00', daily_max: '100.00' })).code).toBe(0);
    clock.advance(1000);
    await issuer.send('authorization.request', { id: `auth_${randomUUID()}`, card_id: card.id, amount: '15.00', currency: 'USD', merchant_name: 'Meta Ads', mcc: '7311', country: 'US' });
    await until('the rule paused', async () => (await who.api.data<AutoRechargeRule>('GET', `/card/${card.id}/auto-recharge`)).status === 'PAUSED');
    await until('its e-mail marked sent', async () => {
      const rows = await pauseRows(card.id);
      return rows.length > 0 && rows.every((row) => row.mailed) && rows;
    });
    expect((await pauseRows(card.id)).map((row) => row.recipient)).toEqual([who.email]);
    expect(await mailsTo(who.email, '自动充值已暂停')).toHaveLength(1);
    // another run finds nothing to send
    await t.services.balanceRules.sendPauseMails();
    expect(await mailsTo(who.email, '自动充值已暂停')).toHaveLength(1);
  });

  it('sends one a dead process claimed once its claim ran out, exactly once, and leaves one under a live claim alone', async () => {
    const who = await owner();
    const card = await issuedCard(who, issuer, '遗留卡');
    const merchantId = await merchantOf(who);
    const now = clock.now();
    const row = (recipient: string, claimedUntil: Date) => sql`(${randomUUID()}::uuid, ${merchantId}::uuid, ${who.accountId}::uuid, ${card.id}::uuid, ${randomUUID()}::uuid,
      ${recipient}, '自动充值已暂停', ${`卡片「遗留卡」的自动充值未能完成 ${recipient}`}, ${now.toISOString()}::timestamptz, ${claimedUntil.toISOString()}::timestamptz, null)`;
    const dead = `dead-${randomUUID().slice(0, 8)}@example.com`;
    const live = `live-${randomUUID().slice(0, 8)}@example.com`;
    // a process claimed the first and died before sending it (its claim ran out a second ago); another holds the second now
    await t.database.db.execute(sql`insert into auto_recharge_pause_mails (id, merchant_id, account_id, card_id, run_id, recipient, subject, body, created_at, claimed_until, mailed_at)
      values ${row(dead, new Date(now.getTime() - 1000))}, ${row(live, new Date(now.getTime() + PAUSE_MAIL_LEASE_SECONDS * 1000))}`);

    await t.services.balanceRules.sendPauseMails();
    await t.services.balanceRules.sendPauseMails();
    expect(await mailsTo(dead, '自动充值已暂停')).toHaveLength(1);
    expect(await mailsTo(live, '自动充值已暂停')).toHaveLength(0);
    expect(await pauseRows(card.id)).toEqual([
      { recipient: dead, mailed: true },
      { recipient: live, mailed: false },
    ]);

    // the live claim's holder died too: once its claim runs out, the next run sends it, once
    clock.advance((PAUSE_MAIL_LEASE_SECONDS + 1) * 1000);
    await t.services.balanceRules.sendPauseMails();
    await t.services.balanceRules.sendPauseMails();
    expect(await mailsTo(live, '自动充值已暂停')).toHaveLength(1);
    expect(await mailsTo(dead, '自动充值已暂停')).toHaveLength(1);
    expect((await pauseRows(card.id)).every((one) => one.mailed)).toBe(true);
  });
});
