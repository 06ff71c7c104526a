import nodemailer from 'nodemailer';
import type { MailSender } from './port.ts';

/** E-mail over SMTP (nodemailer); smtpUrl is smtp(s)://user:pass@host:port. */
export function smtpMailSender(smtpUrl: string, from: string): MailSender & { close(): void } {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send({ to, subject, text, html }) {
      await transport.sendMail({ from, to, subject, text, ...(html ? { html } : {}) });
    },
    close: () => transport.close(),
  };
}
