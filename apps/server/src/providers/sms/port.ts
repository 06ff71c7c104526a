/** Sends a text message to a phone; the provider decides how. */
export interface SmsSender {
  send(message: { phone: string; phonePrefix: string; text: string }): Promise<void>;
}
