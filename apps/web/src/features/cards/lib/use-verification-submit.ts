import type { VerificationBody } from '@portal/contract/cards';
import type { FormInstance } from 'antd';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { isApiError } from '../../../lib/http.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useUpdateVerification } from '../api/update-verification.ts';

/**
 * Sends a verification form's pair: a refusal of its own fields goes next to them (any other refusal
 * was told by the HTTP module), a success is said and the flow goes on.
 */
export function useVerificationSubmit<Values>(options: {
  form: FormInstance<Values>;
  fields: readonly string[];
  body: (values: Values) => VerificationBody;
  doneText: string;
  onDone: () => void;
}) {
  const update = useUpdateVerification();
  const submit = async (values: Values) => {
    if (update.isPending) return;
    try {
      await update.mutateAsync(options.body(values));
    } catch (error) {
      if (isApiError(error) && error.fields.every((field) => options.fields.includes(field.field))) applyFieldErrors(options.form, error);
      return;
    }
    notifySuccess(options.doneText);
    options.onDone();
  };
  return { submit, pending: update.isPending };
}
