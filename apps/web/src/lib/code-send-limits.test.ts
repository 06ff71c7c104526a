import { ErrorCode } from '@portal/contract/errors';
import { errorCatalogue } from '@portal/contract/error-catalogue';
import { describe, expect, it } from 'vitest';
import { sendRetryAfter } from './code-send-limits.ts';
import { ApiError } from './http.ts';

const apiError = (code: number, data: unknown = null, message = errorCatalogue[code]?.message ?? '') =>
  new ApiError({ kind: 'api', code, message, status: 400, data });

describe('sendRetryAfter', () => {
  it('answers the wait of the three sending limits', () => {
    for (const code of [ErrorCode.CODE_TOO_SOON, ErrorCode.CODE_DAILY_LIMIT, ErrorCode.CODE_IP_LIMIT]) {
      expect(sendRetryAfter(apiError(code, { retry_after: 42 }))).toBe(42);
    }
  });

  it('answers null for other refusals and for limits without a wait', () => {
    expect(sendRetryAfter(apiError(ErrorCode.LOGIN_LOCKED, { retry_after: 900 }))).toBeNull();
    expect(sendRetryAfter(apiError(ErrorCode.CODE_TOO_SOON, null))).toBeNull();
    expect(sendRetryAfter(apiError(ErrorCode.CODE_TOO_SOON, { retry_after: 0 }))).toBeNull();
    expect(sendRetryAfter(new Error('offline'))).toBeNull();
  });
});
