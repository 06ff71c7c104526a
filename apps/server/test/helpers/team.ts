import type { AccountInfo } from '@portal/contract/account';
import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import type { Role } from '@portal/contract/team';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { freshEmail, freshIp, freshPhone, lastCode, lastMessage, PASSWORD, phoneTo, signUp } from './accounts.ts';
import type { ApiAnswer, ApiClient } from './api.ts';
import type { TestApp } from './app.ts';
import type { ScriptedIssuer } from './issuer.ts';
import { queryRows } from './sql.ts';

/** A signed-in member of a team, with the account and member ids /account/info answers. */
export interface Teammate {
  host: string;
  phone: string;
  email: string | null;
  token: string;
  api: ApiClient;
  accountId: string;
  memberId: string;
  role: Role;
}

async function asTeammate(t: TestApp, host: string, token: string, phone: string, email: string | null): Promise<Teammate> {
  const api = t.api(host, token);
  const info = await api.data<AccountInfo>('GET', '/account/info');
  return { host, phone, email, token, api, accountId: info.id, memberId: info.member_id, role: info.role };
}

/** A new account's owner, signed in. */
export async function teamOwner(t: TestApp, host = 'localhost') {
  const who = await signUp(t, host);
  return asTeammate(t, host, who.token, who.phone, who.email);
}

/** The token of the newest invitation link sent to a phone ("+86 139…") or an e-mail. */
export async function invitationToken(t: TestApp, to: string) {
  const { text } = await lastMessage(t, to);
  const match = /sign-up\?invitation=([\w-]+)/.exec(text);
  if (!match?.[1]) throw new Error(`no invitation link in the message to ${to}: ${text}`);
  return match[1];
}

/** Signs up with an invitation's token: the answer of POST /account/register. */
export async function registerWith(t: TestApp, host: string, token: string, phone = freshPhone()) {
  const client = t.api(host);
  const ip = freshIp();
  const sent = await client.post('/account/send/code', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_REGISTER', phone_info: { phone, phone_prefix: '86' } }, { remoteAddress: ip });
  expect(sent.code, sent.message).toBe(0);
  const captcha = await lastCode(t, phoneTo(phone));
  const answer = await client.post<{ token: string }>('/account/register', { phone_prefix: '86', phone, password: PASSWORD, captcha, invitation_code: null, invitation: token }, { remoteAddress: ip });
  return { answer, phone };
}

/** Invites a new person by e-mail into the owner's (or admin's) team, and signs them up by the link. */
export async function joinTeam(t: TestApp, inviter: Teammate, role: Exclude<Role, 'OWNER'>, monthlyBudget: string | null = null): Promise<Teammate> {
  const email = freshEmail(role.toLowerCase());
  await inviter.api.data('POST', '/team/invitations', { body: { email, role, monthly_budget: monthlyBudget } });
  const { answer, phone } = await registerWith(t, inviter.host, await invitationToken(t, email));
  expect(answer.code, answer.message).toBe(0);
  return asTeammate(t, inviter.host, answer.data.token, phone, email);
}

/** Verifies the account and funds its USD wallet, so its members can open cards. */
export async function readyForCards(t: TestApp, owner: Teammate) {
  await owner.api.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: '11010519491231002X' } });
  const [row] = await queryRows<{ merchant_id: string }>(t.database.db, sql`select merchant_id from accounts where id = ${owner.accountId}`);
  await t.services.ledger.recharge({ merchantId: String(row?.merchant_id), accountId: owner.accountId, currency: 'USD', amount: 1000_00n, key: `team-fund-${owner.accountId}` });
}

let serial = 0;
/** Opens a subscription card as `who` and has the issuer issue it. */
export async function issuedCard(who: Teammate, issuer: ScriptedIssuer, nickname = '团队卡'): Promise<CardItem> {
  const { products } = await who.api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products.find((p) => p.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');
  serial += 1;
  const opened: ApiAnswer<CardItem> = await who.api.post<CardItem>('/card', { product_id: product.id, amount: '20.00', nickname }, { headers: { 'idempotency-key': `team-${Date.now().toString(36)}-${serial}` } });
  expect(opened.code, opened.message).toBe(0);
  await issuer.issue(opened.data.id);
  return who.api.data<CardItem>('GET', `/card/${opened.data.id}`);
}
