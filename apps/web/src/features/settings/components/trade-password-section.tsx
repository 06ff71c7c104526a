import { ErrorCode } from '@portal/contract/errors';
import { messages, rules } from '@portal/contract/rules';
import { Alert, Button, Form, type FormInstance, type FormRule } from 'antd';
import Password from 'antd/es/input/Password';
import { useState } from 'react';
import { useCountdown } from '../../../components/use-countdown.ts';
import { useTradePasswordState } from '../../../domain/account/api/get-account-info.ts';
import { busy } from '../../../lib/busy.ts';
import { sendRetryAfter } from '../../../lib/code-send-limits.ts';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { formRule } from '../../../lib/form-rules.ts';
import { isApiError, markShownInPlace } from '../../../lib/http.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { tradePasswordText } from '../../../locales/zh-CN/trade-password.ts';
import { useSendTradePasswordReset } from '../../../domain/account/api/send-recovery-code.ts';
import { useSetTradePassword } from '../api/set-trade-password.ts';
import { QueryState } from './query-state.tsx';
import { SettingsSection } from './settings-section.tsx';
import styles from './trade-password-section.module.css';
import { TradePasswordStatus } from './trade-password-status.tsx';

const text = tradePasswordText.section;

interface TradePasswordValues {
  /** the login password, asked when the first trade password is set */
  password: string;
  old_trx_password: string;
  trx_password: string;
  confirm: string;
}

/** Which field a refusal of the trade-password call belongs on. */
const fieldOfCode: Partial<Record<number, keyof TradePasswordValues>> = {
  [ErrorCode.TRX_PASSWORD_OLD_REQUIRED]: 'old_trx_password',
  [ErrorCode.TRX_PASSWORD_WRONG]: 'old_trx_password',
  [ErrorCode.TRX_PASSWORD_LOCKED]: 'old_trx_password',
  [ErrorCode.TRX_PASSWORD_SAME]: 'trx_password',
  [ErrorCode.LOGIN_PASSWORD_REQUIRED]: 'password',
  [ErrorCode.LOGIN_PASSWORD_WRONG]: 'password',
  [ErrorCode.LOGIN_LOCKED]: 'password',
};

/** The old one is whatever the account set: only required here, the server checks it. */
const oldRequired = formRule((value) => (value === '' ? messages.tradePasswordRequired : null));
/** The login password, likewise only required here. */
const loginPasswordRequired = formRule((value) => (value === '' ? messages.loginPasswordRequired : null));

/** The confirmation (typed twice): required, a trade password itself, and the same as the new one. */
const sameAsNew: FormRule = ({ getFieldValue }) => ({
  validator: async (_, value: unknown) => {
    const typed = typeof value === 'string' ? value : '';
    const message = rules.tradePassword(typed);
    if (message) throw new Error(message);
    if (typed !== getFieldValue('trx_password')) throw new Error(messages.confirmMismatch);
  },
});

/** Puts the server's refusal on the field it is about (the lock and a wrong old one on the old one); answers whether it did. */
function showRefusal(form: FormInstance<TradePasswordValues>, error: unknown) {
  if (applyFieldErrors(form, error)) return true;
  if (!isApiError(error) || error.code === null) return false;
  const name = fieldOfCode[error.code];
  if (!name) return false;
  form.setFields([{ name, errors: [error.message] }]);
  markShownInPlace(error);
  return true;
}

/**
 * 交易密码 on /settings: set it the first time (typed twice, with the login password: a session alone
 * must not be enough to start moving money), change it with the old one, or 忘记交易密码,
 * which mails the account's own address the reset link (重置交易密码). Refusals, the lock among them,
 * are said on the field they are about.
 */
export function TradePasswordSection() {
  const state = useTradePasswordState();
  return (
    <SettingsSection id="trade-password" title={text.title} description={text.intro} extra={<TradePasswordStatus testId="trade-password-status" />}>
      <QueryState query={state}>{state.data ? <TradePasswordForm isSet={state.data.set} email={state.data.email} /> : null}</QueryState>
    </SettingsSection>
  );
}

function TradePasswordForm({ isSet, email }: { isSet: boolean; email: string | null }) {
  const [form] = Form.useForm<TradePasswordValues>();
  const saving = useSetTradePassword();

  const submit = async (values: TradePasswordValues) => {
    if (saving.isPending) return;
    try {
      await saving.mutateAsync(
        isSet ? { trx_password: values.trx_password, old_trx_password: values.old_trx_password } : { trx_password: values.trx_password, password: values.password },
      );
    } catch (error) {
      showRefusal(form, error);
      return;
    }
    form.resetFields();
    notifySuccess(isSet ? text.doneChange : text.doneSet);
  };

  return (
    <Form<TradePasswordValues>
      form={form}
      name="trade-password"
      layout="vertical"
      requiredMark={false}
      className={styles.form}
      initialValues={{ password: '', old_trx_password: '', trx_password: '', confirm: '' }}
      onFinish={(values) => void submit(values)}
      noValidate
    >
      {isSet ? (
        <Form.Item name="old_trx_password" label={text.oldLabel} rules={[oldRequired]} validateFirst>
          <Password size="large" placeholder={text.oldPlaceholder} autoComplete="off" maxLength={10} aria-required />
        </Form.Item>
      ) : (
        <Form.Item name="password" label={text.loginPasswordLabel} rules={[loginPasswordRequired]} validateFirst>
          <Password size="large" placeholder={text.loginPasswordPlaceholder} autoComplete="current-password" maxLength={16} aria-required />
        </Form.Item>
      )}
      <Form.Item name="trx_password" label={isSet ? text.changeNewLabel : text.newLabel} rules={[formRule(rules.tradePassword)]} validateFirst>
        <Password size="large" placeholder={text.newPlaceholder} autoComplete="new-password" maxLength={10} aria-required />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={isSet ? text.changeConfirmLabel : text.confirmLabel}
        dependencies={['trx_password']}
        rules={[sameAsNew]}
        validateFirst
      >
        <Password size="large" placeholder={isSet ? text.changeConfirmPlaceholder : text.confirmPlaceholder} autoComplete="new-password" maxLength={10} aria-required />
      </Form.Item>
      <div className={styles.actions}>
        <Button type="primary" htmlType="submit" size="large" className={styles.submit} loading={busy(saving.isPending)} data-testid="trade-password-submit">
          {isSet ? text.submitChange : text.submitSet}
        </Button>
        {isSet ? <ForgotTradePassword email={email} /> : null}
      </div>
    </Form>
  );
}

/** 忘记交易密码: the reset link to the account's own e-mail, again after the code's wait. */
function ForgotTradePassword({ email }: { email: string | null }) {
  const sending = useSendTradePasswordReset();
  const { secondsLeft, start } = useCountdown();
  const [sentTo, setSentTo] = useState<string | null>(null);

  if (!email) return <p className={styles.note}>{text.noEmail}</p>;

  const send = async () => {
    if (sending.isPending || secondsLeft > 0) return;
    try {
      const sent = await sending.mutateAsync(email);
      setSentTo(sent.masked_target);
      start(sent.resend_after);
    } catch (error) {
      // the HTTP module said why (too soon, the day's limit, offline); a sending limit's wait is counted down
      const wait = sendRetryAfter(error);
      if (wait !== null) start(wait);
    }
  };

  return (
    <>
      <Button type="link" className={styles.forgot} onClick={() => void send()} disabled={secondsLeft > 0} loading={busy(sending.isPending)} data-testid="trade-password-forgot">
        {secondsLeft > 0 ? text.resend(secondsLeft) : text.forgot}
      </Button>
      {sentTo ? <Alert className={styles.sent} type="success" showIcon title={text.sent(sentTo)} role="status" data-testid="trade-password-reset-sent" /> : null}
    </>
  );
}
