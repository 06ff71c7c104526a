import { ErrorCode } from '@portal/contract/errors';
import { rules } from '@portal/contract/rules';
import { Form, type FormInstance } from 'antd';
import Password from 'antd/es/input/Password';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useTradePasswordState } from '../../../domain/account/api/get-account-info.ts';
import { formRule } from '../../../lib/form-rules.ts';
import { isApiError, markShownInPlace } from '../../../lib/http.ts';
import { paths } from '../../../lib/paths.ts';
import { tradePasswordText } from '../../../locales/zh-CN/trade-password.ts';
import styles from './trade-password-confirm.module.css';

const text = tradePasswordText.confirm;

/** The server's refusals of the trade password itself: missing, wrong (with the tries left), locked (until when). */
const TRADE_REFUSALS: readonly number[] = [ErrorCode.TRX_PASSWORD_REQUIRED, ErrorCode.TRX_PASSWORD_WRONG, ErrorCode.TRX_PASSWORD_LOCKED];

interface TradeValues {
  trx_password: string;
}

/** The body's addition: the trade password when one is asked for. */
export type TradePasswordPart = { trx_password?: string };

export interface TradePasswordConfirmation {
  /** the field is shown: the call needs it and the account has one, or the server has just asked for it */
  asked: boolean;
  /** the account has none: the dialog offers to set one, without holding anything up (unless `required`) */
  unset: boolean;
  /** the call needs a trade password even before one is set (the contract's `tradePassword: 'required'`) */
  required: boolean;
  form: FormInstance<TradeValues>;
  /** the server's last refusal, shown on the field until it is typed in again */
  refusal: string | null;
  clearRefusal: () => void;
  /** what the call's body adds: {} when nothing is asked, null when the field says what is missing */
  collect: () => Promise<TradePasswordPart | null>;
  /** shows a refusal of the trade password on its field; answers whether the error was one */
  refused: (error: unknown) => boolean;
}

/**
 * The trade password of a call that moves money out of the wallet or a card (open, batch, top-up,
 * withdrawal, cancelling a card that holds money, an export with full numbers), one for all of their
 * dialogs: kept by whoever makes the call, drawn in the dialog by <TradePasswordConfirm>. `needed`:
 * whether this call moves money out as far as the screen knows (a card with nothing on it is
 * cancelled without one); the server has the last word, and its asking shows the field. `required`:
 * without a trade password set the call is not made at all, and the dialog says one must be set first.
 */
export function useTradePasswordConfirmation({ needed = true, required = false }: { needed?: boolean; required?: boolean } = {}): TradePasswordConfirmation {
  const state = useTradePasswordState();
  const [form] = Form.useForm<TradeValues>();
  const [serverAsked, setServerAsked] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const isSet = state.data?.set;
  const asked = (needed && isSet === true) || serverAsked;
  const clearRefusal = useCallback(() => setRefusal(null), []);
  const { refetch } = state;

  const collect = useCallback(async (): Promise<TradePasswordPart | null> => {
    // the line in the dialog says that one must be set first
    if (required && isSet === false && !serverAsked) return null;
    if (!asked) return {};
    try {
      const { trx_password } = await form.validateFields();
      return { trx_password };
    } catch {
      return null; // the field says what is missing
    }
  }, [asked, form, required, isSet, serverAsked]);

  const refused = useCallback(
    (error: unknown) => {
      if (!isApiError(error) || error.code === null || !TRADE_REFUSALS.includes(error.code)) return false;
      markShownInPlace(error);
      // none is set (a call that needs one all the same): the line offering to set one stays
      const notSet = (error.data as { set?: boolean } | null)?.set === false;
      // a trade password set in another tab since this one asked: the field appears now
      if (!notSet) setServerAsked(true);
      setRefusal(error.message);
      void refetch();
      return true;
    },
    [refetch],
  );

  return { asked, unset: needed && isSet === false && !serverAsked, required, form, refusal, clearRefusal, collect, refused };
}

interface TradePasswordConfirmProps {
  confirmation: TradePasswordConfirmation;
  /** Enter in the field confirms the dialog */
  onSubmit?: () => void;
}

/**
 * In a confirm dialog: the trade password field when one is set (a refusal and the lock shown on it),
 * else a line that offers to set one on /settings.
 */
export function TradePasswordConfirm({ confirmation, onSubmit }: TradePasswordConfirmProps) {
  const { asked, unset, required, form, refusal, clearRefusal } = confirmation;
  // a dialog opened again starts with an empty field and no refusal
  useEffect(() => {
    clearRefusal();
  }, [clearRefusal]);

  if (asked) {
    return (
      <Form<TradeValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        className={styles.form}
        initialValues={{ trx_password: '' }}
        onValuesChange={clearRefusal}
        onFinish={() => onSubmit?.()}
        preserve={false}
        noValidate
      >
        <Form.Item
          name="trx_password"
          label={text.label}
          rules={[formRule(rules.tradePassword)]}
          validateFirst
          {...(refusal ? { validateStatus: 'error' as const, help: <span data-testid="trade-password-refusal">{refusal}</span> } : {})}
        >
          <Password size="large" placeholder={text.placeholder} autoComplete="off" maxLength={10} aria-required data-testid="trade-password" />
        </Form.Item>
        <Link className={`${styles.link} ${styles.forgot}`} to={paths.settings.getHref('trade-password')}>
          {text.forgot}
        </Link>
      </Form>
    );
  }
  if (unset) {
    return (
      <p className={styles.unset} data-testid="trade-password-unset">
        {required ? text.unsetRequired : text.unset}
        <Link className={styles.link} to={paths.settings.getHref('trade-password')}>
          {text.setNow}
        </Link>
      </p>
    );
  }
  return null;
}
