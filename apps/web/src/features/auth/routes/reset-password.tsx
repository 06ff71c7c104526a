import { ErrorCode } from '@portal/contract/errors';
import { type Rule, rules } from '@portal/contract/rules';
import { Button, Form } from 'antd';
import Password from 'antd/es/input/Password';
import { useEffect, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { FormTitle } from '../../../components/form-title.tsx';
import { confirmRule } from '../../../lib/confirm-rule.ts';
import { formRule } from '../../../lib/form-rules.ts';
import { isApiError, markShownInPlace } from '../../../lib/http.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { paths } from '../../../lib/paths.ts';
import { recoveryText } from '../../../locales/zh-CN/auth-recovery.ts';
import { useSessionStore } from '../../../stores/session.ts';
import { checkResetLink } from '../api/check-reset-link.ts';
import { useResetPassword } from '../api/reset-password.ts';
import { useResetTradePassword } from '../api/reset-trade-password.ts';
import styles from '../components/account-form.module.css';
import { type LinkReset, lastFourDigits, type PhoneResetState, readPhoneResetState, readResetLink } from '../lib/recovery-state.ts';
import { type AccountField, showOnFields } from '../lib/server-errors.ts';
import { busy } from '../../../lib/busy.ts';

interface ResetValues {
  password: string;
  confirm: string;
}

/** How a reset is authorised: the phone flow's ticket, or the e-mailed link's code. */
type Source = { kind: 'phone'; state: PhoneResetState } | { kind: 'link'; link: LinkReset };

const FIELDS: readonly AccountField[] = ['password', 'confirm'];

/** The answers that mean the authorisation itself is spent: the user has to start over. */
const spentCodes: readonly number[] = [
  ErrorCode.CODE_WRONG,
  ErrorCode.CODE_EXPIRED,
  ErrorCode.CODE_BURNED,
  ErrorCode.CODE_NOT_SENT,
  ErrorCode.RESET_TICKET_INVALID,
];

const isSpent = (error: unknown) => isApiError(error) && error.code !== null && spentCodes.includes(error.code);

/**
 * /reset-password (spec §2): a new login password from the phone flow's navigation state, or a new
 * login or trade password from the e-mailed link's ?email=&code=&type=. Without either, the user
 * starts at /forget-password.
 */
export default function ResetPassword() {
  const location = useLocation();
  const [search] = useSearchParams();
  const state = readPhoneResetState(location.state);
  const link = readResetLink(search);
  const source: Source | null = state ? { kind: 'phone', state } : link ? { kind: 'link', link } : null;
  if (!source) return <Navigate to={paths.forgetPassword.getHref()} replace />;
  return <ResetForm source={source} />;
}

function ResetForm({ source }: { source: Source }) {
  const navigate = useNavigate();
  const [form] = Form.useForm<ResetValues>();
  const passwordCall = useResetPassword();
  const tradeCall = useResetTradePassword();
  const [spent, setSpent] = useState(false);

  // a link is checked as it opens: a used or expired one says so before anything is typed
  const link = source.kind === 'link' ? source.link : null;
  const [email, code, type] = [link?.email, link?.code, link?.type];
  useEffect(() => {
    if (!email || !code || !type) return;
    let current = true;
    checkResetLink({ email, captcha: code, type }).catch((error: unknown) => {
      if (!isSpent(error)) return; // the HTTP module told what else went wrong; the form stays
      markShownInPlace(error);
      if (current) setSpent(true);
    });
    return () => {
      current = false;
    };
  }, [email, code, type]);

  const trade = source.kind === 'link' && source.link.type === 'FORGET_TRX_PASSWORD';
  const rule: Rule = trade ? rules.tradePassword : rules.password;
  const intro =
    source.kind === 'phone'
      ? recoveryText.resetIntroPhone(lastFourDigits(source.state.phone_info.phone))
      : trade
        ? recoveryText.resetTradeIntro(source.link.email)
        : recoveryText.resetIntroEmail(source.link.email);

  const submit = async ({ password }: ResetValues) => {
    if (passwordCall.isPending || tradeCall.isPending) return;
    try {
      if (source.kind === 'phone') {
        await passwordCall.mutateAsync({ phone_info: source.state.phone_info, ticket: source.state.ticket, password });
      } else if (trade) {
        await tradeCall.mutateAsync({ email: source.link.email, captcha: source.link.code, trx_password: password });
      } else {
        await passwordCall.mutateAsync({ email: source.link.email, captcha: source.link.code, password });
      }
    } catch (error) {
      if (isSpent(error)) {
        markShownInPlace(error);
        setSpent(true);
      } else showOnFields(form, error, FIELDS);
      return;
    }
    // a new login password ends every session of the account, this browser's too
    if (!trade) useSessionStore.getState().logout();
    notifySuccess(trade ? recoveryText.tradePasswordReset : recoveryText.passwordReset);
    navigate(paths.signIn.getHref(), { replace: true });
  };

  return (
    <>
      <FormTitle title={trade ? recoveryText.resetTradeTitle : recoveryText.resetTitle} />
      <p className={styles.intro}>{intro}</p>
      {spent ? (
        <p className={styles.notice} role="alert">
          {source.kind === 'phone' ? recoveryText.ticketInvalid : recoveryText.linkInvalid}
          <Link className={styles.link} to={paths.forgetPassword.getHref()} replace>
            {recoveryText.restart}
          </Link>
        </p>
      ) : null}
      {/* a spent authorisation takes no new password: the way on is to start over */}
      <Form<ResetValues>
        hidden={spent}
        form={form}
        name="reset-password"
        layout="vertical"
        requiredMark={false}
        className={styles.form}
        initialValues={{ password: '', confirm: '' }}
        onFinish={submit}
        noValidate
      >
        <Form.Item
          name="password"
          label={trade ? recoveryText.tradePasswordLabel : recoveryText.passwordLabel}
          rules={[formRule(rule)]}
          validateFirst
        >
          <Password
            size="large"
            placeholder={trade ? recoveryText.tradePasswordHint : recoveryText.passwordHint}
            autoComplete="new-password"
           
            aria-required
          />
        </Form.Item>
        <Form.Item name="confirm" label={recoveryText.confirmLabel} dependencies={['password']} rules={[confirmRule(rule)]} validateFirst>
          <Password size="large" placeholder={recoveryText.confirmPlaceholder} autoComplete="new-password" aria-required />
        </Form.Item>
        <Button className={styles.submit} type="primary" htmlType="submit" size="large" block loading={busy(passwordCall.isPending || tradeCall.isPending)}>
          {recoveryText.submit}
        </Button>
      </Form>
    </>
  );
}
