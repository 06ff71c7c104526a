/** Sends an e-mail; the provider decides how. */
export interface MailSender {
  send(message: { to: string; subject: string; text: string; html?: string }): Promise<void>;
}
