import type { Tx } from '../../db/engine.ts';

/** An invitation to a team as sign-up reads it: where it went, and what the new member gets. */
export interface SignUpInvitation {
  id: string;
  accountId: string;
  /** EMAIL or SMS */
  channel: string;
  email: string | null;
  phonePrefix: string | null;
  phone: string | null;
  role: string;
  /** minor units a month; null: none */
  monthlyBudget: bigint | null;
  invitedBy: string;
}

/**
 * What sign-up asks of the team's invitations (handed in by the composition, so the accounts module
 * names no module that reaches back to it): the live invitation behind a token, and using it up.
 */
export interface InvitationCalls {
  /** the invitation of this merchant behind the token, if it can still be used; else the refusal that says why not */
  forSignUp(merchantId: string, token: string): Promise<SignUpInvitation>;
  /** uses the invitation up inside sign-up's transaction; refused when another sign-up used it first */
  accept(tx: Tx, invitation: SignUpInvitation, memberId: string): Promise<void>;
}
