import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AccountInfo } from '@portal/contract/account';
import type { AccountBalanceItem, CardAmountItem } from '@portal/contract/wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAccount } from '../../src/demo-data.ts';
import { signIn } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

const README = path.resolve(import.meta.dirname, '../../../../README.md');
/** The ledger's document, where the funding of the demo wallets is told. */
const MONEY = path.resolve(import.meta.dirname, '../../../../docs/money.md');

/** "637.70" from "**637.70 USD**"; the README writes thousands with commas. */
const figure = (text: string, pattern: RegExp) => {
  const match = pattern.exec(text);
  if (!match?.[1]) throw new Error(`the README does not say ${pattern}`);
  return match[1].replaceAll(',', '');
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('what the README says the demo account holds', () => {
  it('is what the seeded demo account shows in its wallet and on its cards', async () => {
    const readme = `${await readFile(README, 'utf8')}\n${await readFile(MONEY, 'utf8')}`;
    const said = {
      walletUsd: figure(readme, /holds \*\*([\d,]+\.\d\d) USD\*\* and \*\*[\d,]+\.\d\d CNY\*\* in its wallet/),
      walletCny: figure(readme, /holds \*\*[\d,]+\.\d\d USD\*\* and \*\*([\d,]+\.\d\d) CNY\*\* in its wallet/),
      cardsUsd: figure(readme, /in its wallet and \*\*([\d,]+\.\d\d) USD\*\* on its cards/),
      leftAfterCards: figure(readme, /opening\s+the two demo cards leaves ([\d,]+\.\d\d) USD/),
    };
    const { token } = await signIn(t, 'localhost', { phone: demoAccount.phone, password: demoAccount.password });
    const client = t.api('localhost', token);
    const balances = await client.data<AccountBalanceItem[]>('GET', '/balance/account-balance');
    const onCards = await client.data<CardAmountItem[]>('GET', '/balance/card-amount');
    const wallet = (currency: string) => balances.find((item) => item.currency === currency);
    expect(wallet('USD')?.available).toBe(said.walletUsd);
    expect(wallet('CNY')?.available).toBe(said.walletCny);
    expect(said.leftAfterCards).toBe(said.walletUsd);
    expect(onCards.find((item) => item.currency === 'USD')?.amount).toBe(said.cardsUsd);
  });
});

describe('the demo team the README lists', () => {
  it('signs in with each e-mail and the demo password, as the phone and in the role the README names', async () => {
    const readme = await readFile(README, 'utf8');
    const rows = [...readme.matchAll(/^\| \S+ (OWNER|ADMIN|FINANCE|MEMBER|VIEWER) \| `(\d{11})` \| `([^`]+)` \|/gm)];
    expect(rows.map((row) => row[1])).toEqual(['OWNER', 'ADMIN', 'FINANCE', 'MEMBER', 'VIEWER']);
    const accounts = new Set<string>();
    for (const [, role, phone, email] of rows) {
      // by e-mail: the first test signed the owner in by phone a moment ago
      const { token } = await signIn(t, 'localhost', { email, password: demoAccount.password });
      const info = await t.api('localhost', token).data<AccountInfo>('GET', '/account/info');
      expect(info).toMatchObject({ role, phone, email });
      accounts.add(info.id);
    }
    expect(accounts.size).toBe(1);
  });
});
