import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { CODE_PURPOSES } from '@portal/contract/enums';
import { MACHINE_TIME_PATTERN } from '@portal/contract/date-time';
import { describe, expect, it } from 'vitest';
import { codeMail, codeSms, resetLinkMail } from '../../src/modules/accounts/notices.ts';
import { SECURITY_CHANGES, securityChangeNotice } from '../../src/modules/security/security-notice.ts';
import { cardNotices } from '../../src/modules/cards/service.ts';
import { walletNotices } from '../../src/modules/wallet/service.ts';

/** An instant whose UTC day differs from China's: a text in UTC would show the 28th at 00:40, China time reads 08:40. */
const AT = new Date('2026-11-28T00:40:48.507Z');
const CARD = 'Meta 广告投放（尾号 4242）';

/** Sample data for every card notice: a notice added without one fails the type check and the test below. */
const cardSamples: { [K in keyof typeof cardNotices]: Parameters<(typeof cardNotices)[K]>[0] } = {
  declined: { card: CARD, merchant: 'Meta Ads', amount: '12.34', currency: 'USD', reason: '卡片余额不足', fix: '请为卡片充值后重试', fee: '0.50', owed: '0.20', feeCurrency: 'USD' },
  holdExpired: { card: CARD, merchant: 'Meta Ads', amount: '12.34', currency: 'USD', days: 7 },
  threeDs: { card: CARD, merchant: 'Meta Ads', amount: '12.34', currency: 'USD', code: '493817', expiresAt: AT },
  fundsReturned: { card: CARD, what: '退款', amount: '5.00', currency: 'USD' },
  openFailed: { nickname: 'Meta 广告投放', reason: '发卡机构拒绝', total: '215.00', currency: 'USD' },
  frozenByPlatform: { card: CARD, reason: '风险排查' },
  unfrozenByPlatform: { card: CARD },
  batchResult: { quantity: 3, prefix: 'EX', success: 2, fail: 1, failed: [{ nickname: 'EX-003', reason: '发卡机构拒绝' }], currency: 'USD' },
};

/** Every text a customer reads from the server's templates, by name. */
function everyTemplate(): Array<[string, string]> {
  const texts: Array<[string, string]> = [];
  const add = (name: string, parts: Record<string, string | undefined>) => {
    for (const [part, text] of Object.entries(parts)) if (text !== undefined) texts.push([`${name}.${part}`, text]);
  };
  for (const name of Object.keys(cardNotices) as Array<keyof typeof cardNotices>) {
    const render = cardNotices[name] as (values: (typeof cardSamples)[typeof name]) => { title: string; content: string };
    add(`card ${name}`, render(cardSamples[name]));
  }
  add('wallet frozen', walletNotices.frozen({ reason: '风险排查' }));
  add('wallet unfrozen', walletNotices.unfrozen());
  for (const kind of SECURITY_CHANGES) {
    const notice = securityChangeNotice(kind, AT, '蓝鲸卡');
    add(`security ${kind}`, { title: notice.title, content: notice.content, ...notice.mail });
  }
  for (const purpose of CODE_PURPOSES) {
    add(`code sms ${purpose}`, { text: codeSms('蓝鲸卡', purpose, '123456') });
    add(`code mail ${purpose}`, codeMail('蓝鲸卡', purpose, '123456'));
  }
  for (const trade of [false, true]) add(`reset link ${trade}`, resetLinkMail('蓝鲸卡', trade, 'https://bluewhale.example/reset?token=abc'));
  return texts;
}

describe('the times in what a customer reads', () => {
  it('has sample data for every card notice', () => {
    expect(Object.keys(cardSamples).sort()).toEqual(Object.keys(cardNotices).sort());
  });

  it('are China time in every station message, e-mail and SMS template, never ISO or UTC', () => {
    const texts = everyTemplate();
    expect(texts.length).toBeGreaterThan(40);
    for (const [name, text] of texts) expect(text, name).not.toMatch(MACHINE_TIME_PATTERN);
  });

  it('gives a 3-D Secure code’s expiry to the second in China time, also once the code is masked', () => {
    const valid = cardNotices.threeDs(cardSamples.threeDs).content;
    expect(valid).toContain('有效期至 2026-11-28 08:40:48（北京时间）');
    expect(cardNotices.threeDs({ ...cardSamples.threeDs, code: '••••••' }).content).toContain('有效期至 2026-11-28 08:40:48（北京时间）');
  });

  it('gives a security change’s time in China time', () => {
    const notice = securityChangeNotice('LOGIN_PASSWORD', AT, '蓝鲸卡');
    expect(notice.content).toContain('2026-11-28 08:40（北京时间）');
    expect(notice.mail.text).toContain('2026-11-28 08:40（北京时间）');
  });

  it('are never written from a machine time into a 中文 text anywhere in the server', async () => {
    const root = path.resolve(import.meta.dirname, '../../src');
    const files = (await readdir(root, { recursive: true })).filter((file) => file.endsWith('.ts'));
    const offending: string[] = [];
    for (const file of files) {
      const lines = (await readFile(path.join(root, file), 'utf8')).split('\n');
      lines.forEach((line, index) => {
        if (/\$\{[^}]*\.toISOString\(\)[^}]*\}/.test(line) && /\p{Script=Han}/u.test(line)) offending.push(`${file}:${index + 1}`);
      });
    }
    expect(offending).toEqual([]);
  });
});
