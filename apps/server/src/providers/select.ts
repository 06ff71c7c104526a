import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/engine.ts';
import { devMailSender } from './mail/dev.ts';
import type { MailSender } from './mail/port.ts';
import { smtpMailSender } from './mail/smtp.ts';
import { aliyunSmsSender } from './sms/aliyun.ts';
import { devSmsSender } from './sms/dev.ts';
import type { SmsSender } from './sms/port.ts';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn'>;

/**
 * The SMS provider the configuration names. The development one (the outbox) is never built in
 * production, whatever the configuration says: loadConfig refuses it first, this is the last word.
 */
export function smsSenderFor(config: Config, db: Db, log: Log): SmsSender {
  if (config.smsProvider === 'aliyun' && config.aliyunSms) return aliyunSmsSender(config.aliyunSms, log);
  if (config.production) throw new Error('Invalid configuration: production sends SMS through a real provider, not SMS_PROVIDER=dev: set SMS_PROVIDER=aliyun');
  return devSmsSender(db, log);
}

/** SMTP when SMTP_URL is set; otherwise the development outbox, never in production. */
export function mailSenderFor(config: Config, db: Db, log: Log): MailSender & { close?(): void } {
  if (config.smtpUrl) return smtpMailSender(config.smtpUrl, config.mailFrom);
  if (config.production) throw new Error('Invalid configuration: SMTP_URL is required in production');
  return devMailSender(db, log);
}
