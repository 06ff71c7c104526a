import { rules } from '@portal/contract/rules';
import type { CardItem } from '@portal/contract/cards';
import type { Services } from '../composition.ts';
import { OpsError } from './command.ts';
import * as input from './input.ts';

/** The merchant that owns --host, or a clear refusal. */
export async function merchantByHost(services: Pick<Services, 'merchants'>, hostFlag: string) {
  const host = input.host(hostFlag);
  const merchant = await services.merchants.findByHost(host);
  if (!merchant) throw new OpsError(`no merchant has the host ${host} (merchant:list shows every merchant's hosts)`);
  return merchant;
}

/** --account as a mainland phone (13800138000, +86 optional) or an e-mail, within one merchant. */
export async function accountOf(services: Pick<Services, 'directory'>, merchant: { id: string; slug: string }, value: string) {
  const trimmed = value.trim();
  const phone = trimmed.replace(/^\+?86[\s-]?/, '');
  if (trimmed.includes('@')) {
    if (rules.email(trimmed.toLowerCase()) !== null) throw new OpsError(`--account "${value}" is not a valid e-mail address`);
    const account = await services.directory.findByEmail(merchant.id, trimmed);
    if (!account) throw new OpsError(`merchant ${merchant.slug} has no account with the e-mail ${trimmed.toLowerCase()}`);
    return account;
  }
  if (rules.phone(phone) !== null) throw new OpsError(`--account "${value}" is neither a mainland phone number (11 digits) nor an e-mail address`);
  const account = await services.directory.findByPhone(merchant.id, '86', phone);
  if (!account) throw new OpsError(`merchant ${merchant.slug} has no account with the phone ${phone}`);
  return account;
}

/**
 * --card as an id or the last four digits, at the merchant of --host or, without it, at any merchant.
 * Four digits that several cards end in are refused with every one of them listed, never guessed.
 */
export async function cardToSpend(services: Pick<Services, 'merchants' | 'cards'>, value: string, hostFlag: string | undefined) {
  const trimmed = value.trim();
  if (!trimmed) throw new OpsError('--card 不能为空：请给出卡片 ID 或卡号后四位');
  const which = /^\d{4}$/.test(trimmed) ? { last4: trimmed } : { id: trimmed };
  const merchants = hostFlag === undefined ? await services.merchants.list() : [await merchantByHost(services, hostFlag)];
  const found: Array<{ merchant: { id: string; slug: string }; item: CardItem }> = [];
  for (const merchant of merchants) {
    const { items } = await services.cards.forOperator(merchant.id, which);
    for (const item of items) found.push({ merchant, item });
  }
  const where = hostFlag === undefined ? '任何商户' : `商户 ${merchants[0]?.slug}`;
  if (found.length === 0) throw new OpsError(`${where}都没有卡片 ${trimmed}（card:list --host HOST 列出卡片及其 ID）`);
  if (found.length > 1) {
    const list = found.map(({ merchant, item }) => `  ${item.id}  ${item.nickname}  •••• ${item.last4 ?? '----'}  ${item.status}  商户 ${merchant.slug}`);
    throw new OpsError([`有 ${found.length} 张卡片尾号为 ${trimmed}，无法确定是哪一张；请用 --card ID 指定：`, ...list].join('\n'));
  }
  return found[0] as (typeof found)[number];
}
