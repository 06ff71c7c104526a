import { useLocation, useNavigate } from 'react-router';
import { FormTitle } from '../../../components/form-title.tsx';
import { paths } from '../../../lib/paths.ts';
import { authText } from '../../../locales/zh-CN/auth.ts';
import { useSessionStore } from '../../../stores/session.ts';
import type { LoginAnswer } from '../api/login.ts';
import { LoginForm } from '../components/login-form.tsx';

/** /sign-in (spec §2, §4). */
export default function SignIn() {
  const navigate = useNavigate();
  const location = useLocation();
  // the first page of a visit has nowhere to go back to
  const canGoBack = location.key !== 'default';

  const onLoggedIn = (answer: LoginAnswer) => {
    // a token that still needs the second verification (answer.check) is good for nothing else yet
    if (answer.check) return;
    const session = useSessionStore.getState();
    if (answer.email) {
      session.login(answer.token);
      navigate(paths.wallet.getHref());
    } else {
      // an account without an e-mail binds one before anything else
      session.keepToken(answer.token);
      navigate(paths.signEmail.getHref());
    }
  };

  return (
    <>
      <FormTitle title={authText.signInTitle} onBack={canGoBack ? () => navigate(-1) : undefined} />
      <LoginForm onLoggedIn={onLoggedIn} />
    </>
  );
}
