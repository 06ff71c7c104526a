import type { CodePurpose } from '@portal/contract/enums';

/**
 * Sends a code to a phone; the provider decides how. `text` is the whole message in the portal's
 * words (modules/accounts/notices.ts); a provider with approved templates sends `code` in the
 * template of `purpose` instead.
 */
export interface SmsSender {
  send(message: { phone: string; phonePrefix: string; purpose: CodePurpose; code: string; text: string }): Promise<void>;
}
