import type { CodePurpose } from '@portal/contract/enums';

/** A verification code for a phone, of one purpose. */
export interface CodeSms {
  phone: string;
  phonePrefix: string;
  purpose: CodePurpose;
  code: string;
  /** the whole message in the portal's words (modules/accounts/notices.ts) */
  text: string;
}

/** An invitation to join a team: who invited, to which team, in what role, and the link to sign up by. */
export interface InvitationSms {
  phone: string;
  phonePrefix: string;
  purpose: 'TEAM_INVITATION';
  invitation: { inviter: string; team: string; role: string; link: string };
  /** the whole message in the portal's words (modules/team/invitation-notices.ts) */
  text: string;
}

export type SmsMessage = CodeSms | InvitationSms;

/**
 * Sends a message to a phone; the provider decides how. A provider with approved templates sends the
 * message's variables (a code; an invitation's words) in the template of its purpose instead of `text`.
 */
export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}
