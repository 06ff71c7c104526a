import type { Db } from '../../db/engine.ts';
import { findMemberByEmail, findMemberByPhone, insertAccountWithOwner, insertInvitedMember, listAccounts, memberEmailsWithRoles, type MemberRow, type NewOwner } from './store.ts';

/**
 * An account as operators and demo data name it: found by one of its members' phone or e-mail.
 * `id` is the account's; `memberId` the member's who was found (the owner, for an account just made).
 */
export type DirectoryAccount = Omit<MemberRow, 'id'> & { id: string; memberId: string };

const asAccount = (member: MemberRow | undefined): DirectoryAccount | undefined => member && { ...member, id: member.accountId, memberId: member.id };

/**
 * The merchant's accounts as its operators and demo data see them: found by a member's phone or
 * e-mail, listed, added with a password. The customer's own flows (sign-up, sign-in, recovery) are
 * the account service's.
 */
export function createAccountDirectory({ db }: { db: Db }) {
  return {
    findByPhone: async (merchantId: string, phonePrefix: string, phone: string) => asAccount(await findMemberByPhone(db, merchantId, phonePrefix, phone)),
    findByEmail: async (merchantId: string, email: string) => asAccount(await findMemberByEmail(db, merchantId, email)),
    list: (merchantId: string) => listAccounts(db, merchantId),
    /** The e-mail addresses of the account's active members in these roles (whom a wallet's news is mailed to). */
    emailsOf: (accountId: string, roles: readonly string[]) => memberEmailsWithRoles(db, accountId, roles),
    /**
     * Adds an account and its owner, who signs in with the password whose hash is given (hashPassword:
     * one hash may serve several accounts); answers undefined when the phone or e-mail is taken.
     */
    create: async (values: NewOwner) => asAccount(await db.transaction((tx) => insertAccountWithOwner(tx, values))),
    /** Adds a member to an account's team (the demo team); answers undefined when the phone or e-mail is taken. */
    addMember: (values: Parameters<typeof insertInvitedMember>[1]) => db.transaction((tx) => insertInvitedMember(tx, values)),
  };
}

export type AccountDirectory = ReturnType<typeof createAccountDirectory>;
