import type { FormInstance } from 'antd';
import { isApiError, markShownInPlace } from './http.ts';

type FieldName = string | number | (string | number)[];

/**
 * Puts the server's field errors (ApiError data.fields) on the form's fields with antd's setFields.
 * Server names are dotted paths of the request body ("phone_info.phone"); `fieldNames` maps them to
 * the form's own names where they differ. Answers whether there were field errors to set.
 */
export function applyFieldErrors(
  form: Pick<FormInstance, 'setFields'>,
  error: unknown,
  fieldNames: Record<string, FieldName> = {},
): boolean {
  if (!isApiError(error) || error.fields.length === 0) return false;
  const byField = new Map<string, { name: FieldName; errors: string[] }>();
  for (const { field, message } of error.fields) {
    const entry = byField.get(field) ?? { name: fieldNames[field] ?? field.split('.'), errors: [] };
    entry.errors.push(message);
    byField.set(field, entry);
  }
  form.setFields([...byField.values()]);
  markShownInPlace(error);
  return true;
}
