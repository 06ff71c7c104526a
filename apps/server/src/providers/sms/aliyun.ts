import { createHmac, randomUUID } from 'node:crypto';
import { ErrorCode } from '@portal/contract/errors';
import type { FastifyBaseLogger } from 'fastify';
import type { AliyunSmsSettings } from '../../config.ts';
import { AppError } from '../../http/errors.ts';
import type { CodePurpose } from '@portal/contract/enums';
import { maskPhone } from '../../lib/mask.ts';
import type { SmsMessage, SmsSender } from './port.ts';

/** Which approved template carries each purpose's message (binding an e-mail never goes by SMS). */
const templateOf: Record<CodePurpose | 'TEAM_INVITATION', keyof AliyunSmsSettings['templates']> = {
  MARK_TYPE_REGISTER: 'register',
  MARK_TYPE_ACCESS: 'access',
  MARK_TYPE_BIND_EMAIL: 'access',
  // the codes of a phone change prove who holds a phone, as an access code does
  MARK_TYPE_CHANGE_EMAIL: 'access',
  MARK_TYPE_CHANGE_PHONE: 'access',
  FORGET_PASSWORD: 'resetPassword',
  FORGET_TRX_PASSWORD: 'resetPassword',
  TEAM_INVITATION: 'invitation',
};

/** The template's variables: a code as `{"code"}`; an invitation as `{"inviter","team","role","link"}`. */
const variablesOf = (message: SmsMessage) => ('invitation' in message ? message.invitation : { code: message.code });

const TIMEOUT_MS = 10_000;

/** Percent-encoding as the RPC signature wants it (RFC 3986): only A–Z, a–z, 0–9, - _ . ~ stay as they are. */
export function percentEncode(value: string) {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The RPC request signature, version 1.0: base64 of HMAC-SHA1, keyed with the AccessKey secret and
 * "&", over `METHOD&%2F&` and the percent-encoded canonical query (every parameter but Signature,
 * sorted by name, each name and value percent-encoded).
 */
export function rpcSignature(method: string, params: Record<string, string>, accessKeySecret: string) {
  const canonical = Object.keys(params)
    .sort()
    .map((name) => `${percentEncode(name)}=${percentEncode(params[name] as string)}`)
    .join('&');
  const stringToSign = `${method}&${percentEncode('/')}&${percentEncode(canonical)}`;
  return createHmac('sha1', `${accessKeySecret}&`).update(stringToSign, 'utf8').digest('base64');
}

interface SendSmsAnswer {
  Code?: string;
  Message?: string;
  RequestId?: string;
  BizId?: string;
}

/**
 * SMS through Aliyun SMS (Dysmsapi SendSms, API version 2017-05-25): the code goes in the approved
 * template of its purpose as `{"code":"123456"}` (an invitation in its own template, as
 * `{"inviter","team","role","link"}`), signed with the merchant-wide SignName. An answer
 * other than Code "OK" (or none) is a failed delivery: it is logged without the phone number in
 * clear and without the code, and the send throws, so the code is withdrawn.
 */
export function aliyunSmsSender(settings: AliyunSmsSettings, log: Pick<FastifyBaseLogger, 'info' | 'warn'>): SmsSender {
  return {
    async send(message) {
      const { phone, phonePrefix, purpose } = message;
      // what must never reach a log line: a code, or an invitation's link (its token signs the invitee up)
      const secret = 'invitation' in message ? message.invitation.link : message.code;
      const phoneNumbers = phonePrefix === '86' ? phone : `${phonePrefix}${phone}`;
      const masked = `+${phonePrefix} ${maskPhone(phone)}`;
      const params: Record<string, string> = {
        AccessKeyId: settings.accessKeyId,
        Action: 'SendSms',
        Format: 'JSON',
        PhoneNumbers: phoneNumbers,
        SignName: settings.signName,
        SignatureMethod: 'HMAC-SHA1',
        SignatureNonce: randomUUID(),
        SignatureVersion: '1.0',
        TemplateCode: settings.templates[templateOf[purpose]],
        TemplateParam: JSON.stringify(variablesOf(message)),
        Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        Version: '2017-05-25',
      };
      // POST, so the phone number and the code stay out of URLs that proxies may log
      const body = Object.entries({ ...params, Signature: rpcSignature('POST', params, settings.accessKeySecret) })
        .map(([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`)
        .join('&');
      const failed = (fields: Record<string, unknown>, reason: string) => {
        // the provider's text may quote the request (its "string to sign" holds the number and the code)
        const clean = reason
          .replace(/string to sign.*$/is, '…')
          .replaceAll(phoneNumbers, masked)
          .replaceAll(phone, masked)
          .replaceAll(secret, '******')
          .slice(0, 300);
        log.warn({ channel: 'sms', provider: 'aliyun', to: masked, purpose, ...fields }, `SMS to ${masked} not delivered: ${clean}`);
        return new AppError(ErrorCode.CODE_NOT_DELIVERED);
      };

      let status: number;
      let answer: SendSmsAnswer | undefined;
      try {
        const response = await fetch(settings.endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body,
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        status = response.status;
        answer = (await response.json().catch(() => undefined)) as SendSmsAnswer | undefined;
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause?.code;
        throw failed({}, `no answer from the SMS service (${(error as Error).message}${cause ? `: ${cause}` : ''})`);
      }
      if (answer?.Code !== 'OK') {
        throw failed(
          { status, providerCode: answer?.Code, requestId: answer?.RequestId },
          `${answer?.Code ?? `HTTP ${status}`} ${answer?.Message ?? ''}`.trim(),
        );
      }
      log.info({ channel: 'sms', provider: 'aliyun', to: masked, purpose, requestId: answer.RequestId, bizId: answer.BizId }, `SMS sent to ${masked}`);
    },
  };
}
