import { ErrorCode, errorCatalogue, formatMessage } from '@portal/contract/errors';

/** A failure the API answers with a catalogue code; message defaults to the catalogue's. */
export class AppError extends Error {
  readonly code: number;
  readonly status: number;
  readonly data: unknown;

  constructor(code: number, options: { message?: string; params?: Record<string, string | number>; data?: unknown } = {}) {
    const entry = errorCatalogue[code] ?? errorCatalogue[ErrorCode.INTERNAL];
    if (!entry) throw new Error(`error code ${code} is not in the catalogue`);
    super(options.message ?? formatMessage(entry.message, options.params));
    this.code = code;
    this.status = entry.status;
    this.data = options.data ?? null;
  }
}

export const fail = (code: number, options?: ConstructorParameters<typeof AppError>[1]) => new AppError(code, options);
