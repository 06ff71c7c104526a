import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/engine.ts';
import { maskPhone } from '../../lib/mask.ts';
import { insertOutboxEntry } from '../outbox/store.ts';
import type { SmsSender } from './port.ts';

/**
 * Development SMS: the message goes to the development outbox, nowhere else. The log says only
 * that it went there: a code never reaches a log line.
 */
export function devSmsSender(db: Db, log: Pick<FastifyBaseLogger, 'info'>): SmsSender {
  return {
    async send({ phone, phonePrefix, purpose, text }) {
      const what = purpose === 'TEAM_INVITATION' ? 'invitation' : 'code';
      const to = `+${phonePrefix} ${phone}`;
      const masked = `+${phonePrefix} ${maskPhone(phone)}`;
      await insertOutboxEntry(db, { channel: 'sms', to, subject: '', text });
      log.info({ channel: 'sms', to: masked, purpose }, `development SMS: ${what} sent to ${masked}, see the outbox`);
    },
  };
}
