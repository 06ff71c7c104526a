import type { Role } from '@portal/contract/enums';
import { eq } from 'drizzle-orm';
import type { Db } from '../../src/db/engine.ts';
import { accounts, members } from '../../src/db/schema.ts';
import type { SessionService } from '../../src/modules/sessions/service.ts';
import { freshPhone } from './accounts.ts';

/**
 * A member of the account's team with `role` (and a monthly budget in minor units, when given), signed
 * in: their row is written directly, as an accepted invitation would leave it, and a full session is
 * opened for them. Answers the member's id, phone and bearer token.
 */
export async function addMember(
  db: Db,
  sessions: Pick<SessionService, 'open'>,
  accountId: string,
  role: Role,
  options: { budget?: bigint | null } = {},
) {
  const [account] = await db.select({ merchantId: accounts.merchantId }).from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw new Error(`no account ${accountId}`);
  const phone = freshPhone();
  return db.transaction(async (tx) => {
    const [member] = await tx
      .insert(members)
      .values({
        merchantId: account.merchantId,
        accountId,
        role,
        phone,
        // never signed in with: the session below is opened directly
        passwordHash: 'unusable',
        monthlyBudget: options.budget ?? null,
        invitedBy: accountId,
      })
      .returning({ id: members.id });
    if (!member) throw new Error('member insert returned nothing');
    const { token } = await sessions.open(tx, { merchantId: account.merchantId, accountId, memberId: member.id, stage: 'FULL', userAgent: 'test', ip: '127.0.0.1' });
    return { id: member.id, phone, token };
  });
}
