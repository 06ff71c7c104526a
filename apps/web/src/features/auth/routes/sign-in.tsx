import type { CodeCheckAnswer, LoginAnswer } from '@portal/contract/account';
import { lazy, Suspense, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { FormTitle } from '../../../components/form-title.tsx';
import { paths } from '../../../lib/paths.ts';
import { authText } from '../../../locales/zh-CN/auth.ts';
import { useSessionStore } from '../../../stores/session.ts';
import { LoginForm, type LoginMethod } from '../components/login-form.tsx';

// needed only when a sign-in must be verified, so it is not part of the screen's first load
const LoginVerificationDialog = lazy(() => import('../components/login-verification-dialog.tsx'));

/** /sign-in (spec §2, §4). */
export default function SignIn() {
  const navigate = useNavigate();
  const location = useLocation();
  // the first page of a visit has nowhere to go back to
  const canGoBack = location.key !== 'default';

  const [verifying, setVerifying] = useState<{ method: LoginMethod; account: string } | null>(null);

  /** A finished sign-in: the wallet, or first the e-mail binding for an account without one. */
  const enter = (answer: CodeCheckAnswer) => {
    const session = useSessionStore.getState();
    if (answer.email) {
      session.login(answer.token);
      navigate(paths.wallet.getHref());
    } else {
      // the token of an account without an e-mail can only bind one
      session.keepToken(answer.token);
      navigate(paths.signEmail.getHref());
    }
  };

  const onLoggedIn = (answer: LoginAnswer, method: LoginMethod, account: string) => {
    if (!answer.check) {
      enter(answer);
      return;
    }
    // this token is good only for the second verification, which sends and checks a code with it
    useSessionStore.getState().keepToken(answer.token);
    setVerifying({ method, account });
  };

  const onVerified = (answer: CodeCheckAnswer) => {
    setVerifying(null);
    enter(answer);
  };

  const onVerificationCancelled = () => {
    setVerifying(null);
    // logout also forgets the code asked for: whoever signs in next in this tab starts afresh
    useSessionStore.getState().logout();
  };

  return (
    <>
      <FormTitle title={authText.signInTitle} onBack={canGoBack ? () => navigate(-1) : undefined} />
      <LoginForm onLoggedIn={onLoggedIn} />
      {verifying ? (
        <Suspense fallback={null}>
          <LoginVerificationDialog method={verifying.method} account={verifying.account} onVerified={onVerified} onCancel={onVerificationCancelled} />
        </Suspense>
      ) : null}
    </>
  );
}
