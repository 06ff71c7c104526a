import { AppError } from './errors.ts';

/** The refusal again, naming the body field it is about (data.fields), so the form shows it there. */
export function onField(error: unknown, field: string): unknown {
  if (!(error instanceof AppError)) return error;
  const data = error.data && typeof error.data === 'object' ? error.data : {};
  return new AppError(error.code, { message: error.message, data: { ...data, fields: [{ field, message: error.message }] } });
}

export const refusedOn = (code: number, field: string) => onField(new AppError(code), field);
