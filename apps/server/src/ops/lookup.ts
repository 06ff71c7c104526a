import { rules } from '@portal/contract/rules';
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
