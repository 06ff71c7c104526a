import type { Role } from '@portal/contract/enums';
import { holdsOwnCardsOnly } from '@portal/contract/team';

/**
 * Whose cards a caller sees and acts on: the account's, or of those only the ones one member holds
 * (a role that holds its own cards only). A card outside it answers as another account's would.
 */
export interface CardScope {
  accountId: string;
  /** set: only the cards this member holds */
  heldBy?: string | undefined;
}

/** The scope of a signed-in member, from the contract's role table. */
export function cardScopeOf(caller: { account: { id: string }; member: { id: string; role: Role } }): CardScope {
  return holdsOwnCardsOnly(caller.member.role) ? { accountId: caller.account.id, heldBy: caller.member.id } : { accountId: caller.account.id };
}
