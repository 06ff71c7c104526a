import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signIssuerPayload, verifyIssuerSignature } from '../../src/lib/issuer-signature.ts';

const secret = 'test-only-issuer-webhook-secret-of-32-chars';
const at = new Date('2026-11-24T08:00:00Z');
const body = JSON.stringify({ id: 'evt_1', type: 'card.frozen', data: { card_id: 'c1' } });
const verify = (header: string | undefined, options: { body?: Buffer | string; now?: Date; secret?: string } = {}) =>
  verifyIssuerSignature({ secret: options.secret ?? secret, body: options.body ?? body, header, now: options.now ?? at });

describe('the issuer signature', () => {
  it('is t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">', () => {
    const t = at.getTime() / 1000;
    const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    expect(signIssuerPayload(secret, body, at)).toBe(`t=${t},v1=${expected}`);
  });

  it('verifies what it signed, over a string or the same bytes as a Buffer', () => {
    const header = signIssuerPayload(secret, body, at);
    expect(verify(header)).toBe(true);
    expect(verify(header, { body: Buffer.from(body) })).toBe(true);
    expect(verify(signIssuerPayload(secret, '中文 body', at), { body: Buffer.from('中文 body') })).toBe(true);
  });

  it('refuses other bytes, another secret, and anything malformed', () => {
    const header = signIssuerPayload(secret, body, at);
    expect(verify(header, { body: `${body} ` })).toBe(false);
    expect(verify(header, { body: body.replace('c1', 'c2') })).toBe(false);
    expect(verify(header, { secret: `${secret}x` })).toBe(false);
    expect(verify(undefined)).toBe(false);
    expect(verify('')).toBe(false);
    expect(verify(header.replace(/^t=\d+,/, ''))).toBe(false);
    expect(verify(header.replace(/v1=[0-9a-f]+/, 'v1=abc'))).toBe(false);
    expect(verify(header.replace(/^t=\d+/, 't=soon'))).toBe(false);
    expect(verifyIssuerSignature({ secret, body: undefined, header, now: at })).toBe(false);
  });

  it('refuses a signature more than five minutes old or ahead, and accepts one within', () => {
    const minutes = (n: number) => new Date(at.getTime() + n * 60_000);
    expect(verify(signIssuerPayload(secret, body, minutes(-5)))).toBe(true);
    expect(verify(signIssuerPayload(secret, body, minutes(5)))).toBe(true);
    expect(verify(signIssuerPayload(secret, body, new Date(at.getTime() - 301_000)))).toBe(false);
    expect(verify(signIssuerPayload(secret, body, new Date(at.getTime() + 301_000)))).toBe(false);
  });

  it('accepts a header with several v1 when one of them matches (a secret being rotated)', () => {
    const ours = signIssuerPayload(secret, body, at);
    const theirs = signIssuerPayload('the-previous-secret-of-thirty-two-chars', body, at);
    const v1 = (header: string) => header.split(',')[1];
    const t = ours.split(',')[0];
    expect(verify(`${t},${v1(theirs)},${v1(ours)}`)).toBe(true);
    expect(verify(`${t}, ${v1(ours)}, ${v1(theirs)}`)).toBe(true);
    expect(verify(`${t},${v1(theirs)},${v1(theirs)}`)).toBe(false);
  });
});
