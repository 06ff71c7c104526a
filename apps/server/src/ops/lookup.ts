import { rules } from '@portal/contract/rules';
import type { Tx } from '../db/engine.ts';
import { findAccountByEmail, findAccountByPhone } from '../modules/accounts/store.ts';
import { findMerchantByHost } from '../modules/merchants/store.ts';
import { OpsError } from './command.ts';
import * as input from './input.ts';

/** The merchant that owns --host, or a clear refusal. */
export async function merchantByHost(tx: Tx, hostFlag: string) {
  const host = input.host(hostFlag);
  const merchant = await findMerchantByHost(tx, host);
  if (!merchant) throw new OpsError(`no merchant has the host ${host} (merchant:list shows every merchant's hosts)`);
  return merchant;
}

/** --account as a mainland phone (13800138000, +86 optional) or an e-mail, within one merchant. */
export async function accountOf(tx: Tx, merchant: { id: string; slug: string }, value: string) {
  const trimmed = value.trim();
  const phone = trimmed.replace(/^\+?86[\s-]?/, '');
  if (trimmed.includes('@')) {
    if (rules.email(trimmed.toLowerCase()) !== null) throw new OpsError(`--account "${value}" is not a valid e-mail address`);
    const account = await findAccountByEmail(tx, merchant.id, trimmed);
    if (!account) throw new OpsError(`merchant ${merchant.slug} has no account with the e-mail ${trimmed.toLowerCase()}`);
    return account;
  }
  if (rules.phone(phone) !== null) throw new OpsError(`--account "${value}" is neither a mainland phone number (11 digits) nor an e-mail address`);
  const account = await findAccountByPhone(tx, merchant.id, '86', phone);
  if (!account) throw new OpsError(`merchant ${merchant.slug} has no account with the phone ${phone}`);
  return account;
}
