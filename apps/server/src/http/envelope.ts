import type { Envelope } from '@portal/contract/envelope';

export const ok = <T>(data: T): Envelope<T> => ({ code: 0, message: 'success', data });
