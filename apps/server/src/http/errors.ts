import { ErrorCode, formatMessage } from '@portal/contract/errors';
import { errorCatalogue } from '@portal/contract/error-catalogue';

/** A failure the API answers with a catalogue code; message defaults to the catalogue's. */
export class AppError extends Error {
  readonly code: number;
  readonly status: number;
  readonly data: unknown;

  /** `variant`: one of the entry's other wordings (CatalogueEntry.variants) instead of its message */
  constructor(code: number, options: { message?: string; variant?: string; params?: Record<string, string | number>; data?: unknown } = {}) {
    const entry = errorCatalogue[code] ?? errorCatalogue[ErrorCode.INTERNAL];
    if (!entry) throw new Error(`error code ${code} is not in the catalogue`);
    const template = options.variant === undefined ? entry.message : entry.variants?.[options.variant];
    if (template === undefined) throw new Error(`error code ${code} has no variant ${options.variant}`);
    super(options.message ?? formatMessage(template, options.params));
    this.code = code;
    this.status = entry.status;
    this.data = options.data ?? null;
  }
}

export const fail = (code: number, options?: ConstructorParameters<typeof AppError>[1]) => new AppError(code, options);
