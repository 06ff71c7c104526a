import type { Db } from '../../db/engine.ts';
import { findAccountByEmail, findAccountByPhone, insertAccount, listAccounts } from './store.ts';

/**
 * The merchant's accounts as its operators and demo data see them: found by phone or e-mail,
 * listed, added with a password. The customer's own flows (sign-up, sign-in, recovery) are the
 * account service's.
 */
export function createAccountDirectory({ db }: { db: Db }) {
  return {
    findByPhone: (merchantId: string, phonePrefix: string, phone: string) => findAccountByPhone(db, merchantId, phonePrefix, phone),
    findByEmail: (merchantId: string, email: string) => findAccountByEmail(db, merchantId, email),
    list: (merchantId: string) => listAccounts(db, merchantId),
    /**
     * Adds an account that signs in with the password whose hash is given (hashPassword: one hash may
     * serve several accounts); answers undefined when the phone is taken.
     */
    create: (values: { merchantId: string; phonePrefix: string; phone: string; email: string | null; passwordHash: string; managerId?: string | null }) =>
      insertAccount(db, values),
  };
}

export type AccountDirectory = ReturnType<typeof createAccountDirectory>;
