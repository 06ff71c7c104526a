import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Aliyun's Dysmsapi on 127.0.0.1: it checks each SendSms request as the service
 * does, with a signature computed here from the documentation's recipe (form-encode, then "+" →
 * %20, "*" → %2A, %7E → "~"), not with the server's own code, and answers OK or the service's
 * refusal. `refuse` makes it refuse a phone number as the service refuses one over its limits.
 */
export async function startAliyunSms(options: { accessKeyId: string; accessKeySecret: string }) {
  const received: Array<Record<string, string>> = [];
  const refuse = new Set<string>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      received.push(params);
      const answer = (status: number, body: Record<string, string>) => {
        response.writeHead(status, { 'content-type': 'application/json;charset=utf-8' });
        response.end(JSON.stringify({ RequestId: `request-${received.length}`, ...body }));
      };
      const { Signature, ...signed } = params;
      const stringToSign = `${request.method}&${encode('/')}&${encode(
        Object.keys(signed)
          .sort()
          .map((name) => `${encode(name)}=${encode(signed[name] as string)}`)
          .join('&'),
      )}`;
      const expected = createHmac('sha1', `${options.accessKeySecret}&`).update(stringToSign).digest('base64');
      if (request.method !== 'POST' || request.headers['content-type'] !== 'application/x-www-form-urlencoded') {
        return answer(400, { Code: 'InvalidRequest', Message: 'expected a form POST' });
      }
      if (Signature !== expected || params.AccessKeyId !== options.accessKeyId) {
        // as the service does: it quotes what it signed, phone number and code included
        return answer(400, { Code: 'SignatureDoesNotMatch', Message: `Specified signature is not matched with our calculation. server string to sign is:${stringToSign}` });
      }
      if (refuse.has(params.PhoneNumbers ?? '')) {
        return answer(200, { Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: `触发小时级流控Permits:5 (${params.PhoneNumbers})` });
      }
      return answer(200, { Code: 'OK', Message: 'OK', BizId: `${received.length}^0` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    endpoint: `http://127.0.0.1:${port}/`,
    /** every request's parameters, oldest first */
    received,
    refuse,
    /** the code of the newest request to a phone number, from its TemplateParam */
    lastCodeTo(phone: string) {
      const last = [...received].reverse().find((params) => params.PhoneNumbers === phone);
      if (!last) throw new Error(`nothing was sent to ${phone}`);
      return (JSON.parse(last.TemplateParam ?? '{}') as { code: string }).code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The documentation's recipe for the signature's percent-encoding. */
function encode(value: string) {
  return new URLSearchParams({ v: value }).toString().slice(2).replace(/\+/g, '%20').replace(/\*/g, '%2A').replace(/%7E/g, '~');
}

/** The environment of an app that sends SMS through the stand-in. */
export function aliyunSmsEnv(endpoint: string, accessKeySecret: string) {
  return {
    SMS_PROVIDER: 'aliyun',
    ALIYUN_SMS_ACCESS_KEY_ID: 'test-access-key-id',
    ALIYUN_SMS_ACCESS_KEY_SECRET: accessKeySecret,
    ALIYUN_SMS_SIGN_NAME: '蓝鲸卡',
    ALIYUN_SMS_TEMPLATE_REGISTER: 'SMS_100000001',
    ALIYUN_SMS_TEMPLATE_ACCESS: 'SMS_100000002',
    ALIYUN_SMS_TEMPLATE_RESET_PASSWORD: 'SMS_100000003',
    ALIYUN_SMS_TEMPLATE_INVITATION: 'SMS_100000004',
    ALIYUN_SMS_ENDPOINT: endpoint,
  };
}
