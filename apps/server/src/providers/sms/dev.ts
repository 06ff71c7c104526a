import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/engine.ts';
import { insertOutboxEntry } from '../../modules/dev/outbox-store.ts';
import type { SmsSender } from './port.ts';

/** Development SMS: the message goes to the server log and the development outbox, nowhere else. */
export function devSmsSender(db: Db, log: Pick<FastifyBaseLogger, 'info'>): SmsSender {
  return {
    async send({ phone, phonePrefix, text }) {
      const to = `+${phonePrefix} ${phone}`;
      log.info({ channel: 'sms', to, text }, 'development SMS');
      await insertOutboxEntry(db, { channel: 'sms', to, subject: '', text });
    },
  };
}
