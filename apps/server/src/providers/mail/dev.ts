import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/engine.ts';
import { maskEmail } from '../../lib/mask.ts';
import { insertOutboxEntry } from '../outbox/store.ts';
import type { MailSender } from './port.ts';

/**
 * Development mail: the message goes to the development outbox, nowhere else. The log says only
 * that it went there: neither a code nor a reset link (which carries one) reaches a log line.
 */
export function devMailSender(db: Db, log: Pick<FastifyBaseLogger, 'info'>): MailSender {
  return {
    async send({ to, subject, text }) {
      const masked = maskEmail(to);
      await insertOutboxEntry(db, { channel: 'email', to, subject, text });
      log.info({ channel: 'email', to: masked, subject }, `development e-mail: sent to ${masked}, see the outbox`);
    },
  };
}
