import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/engine.ts';
import { insertOutboxEntry } from '../../modules/dev/outbox-store.ts';
import type { MailSender } from './port.ts';

/** Development mail: the message goes to the server log and the development outbox, nowhere else. */
export function devMailSender(db: Db, log: Pick<FastifyBaseLogger, 'info'>): MailSender {
  return {
    async send({ to, subject, text }) {
      log.info({ channel: 'email', to, subject, text }, 'development e-mail');
      await insertOutboxEntry(db, { channel: 'email', to, subject, text });
    },
  };
}
