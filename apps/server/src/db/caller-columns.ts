import { sql } from 'drizzle-orm';
import { accounts, members } from './schema.ts';

/** What a caller's lookup reads of its account and member (a session's, an API key's): the same columns either way. */
export const callerColumns = () => ({
  account: { id: accounts.id, status: accounts.status, name: accounts.name },
  member: {
    id: members.id,
    role: members.role,
    status: members.status,
    email: members.email,
    phone: members.phone,
    phonePrefix: members.phonePrefix,
    monthlyBudget: members.monthlyBudget,
    trxPasswordSet: sql<boolean>`${members.trxPasswordHash} is not null`,
  },
});
