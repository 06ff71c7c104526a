import { ROLE_LABELS } from '@portal/contract/enums';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { call } from '../../../lib/api-client.ts';
import { invitation as invitationCall } from '../../../lib/generated/team/invitation.ts';
import { isApiError, markShownInPlace } from '../../../lib/http.ts';
import { paths } from '../../../lib/paths.ts';
import { queryKeyOf } from '../../../lib/query-keys.ts';
import { invitationText as text } from '../../../locales/zh-CN/team-invitation.ts';
import styles from './account-form.module.css';

/** GET /team/invitations/by-token/:token: the team, the role and who invited, or the server's refusal. */
const getInvitation = (token: string) =>
  call(invitationCall, { params: { token } }).catch((error: unknown) => {
    // said here, beside the form, rather than as a toast as well
    markShownInPlace(error);
    throw error;
  });

/**
 * Above the sign-up form of /sign-up?invitation=…: "<who> 邀请你加入 <team>，角色：<role>". An invitation
 * that cannot be used (unknown, expired, used, revoked) says the server's words and offers to sign up
 * without it. Loaded on its own: the sign-up's chunk, which sign-in shares, stays as it was.
 */
export default function InvitationNote({ token }: { token: string }) {
  const invitation = useQuery({
    queryKey: queryKeyOf(invitationCall, { params: { token } }),
    queryFn: () => getInvitation(token),
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (invitation.isPending) {
    return (
      <p className={styles.intro} role="status" data-testid="invitation-loading">
        {text.loading}
      </p>
    );
  }
  if (invitation.isError) {
    const message = isApiError(invitation.error) ? invitation.error.message : text.failed;
    return (
      <div className={styles.notice} role="alert" data-testid="invitation-failed">
        <span>{message || text.failed}</span>
        <Link className={styles.link} to={paths.signUp.getHref()} replace>
          {text.signUpNormally}
        </Link>
      </div>
    );
  }
  const { invited_by, account_name, role, phone_masked } = invitation.data;
  return (
    <p className={styles.intro} data-testid="invitation-preview">
      <strong>{text.line(invited_by, account_name, ROLE_LABELS[role])}</strong>
      {phone_masked ? <span className={styles.sentTo}>{text.sentToPhone(phone_masked)}</span> : null}
    </p>
  );
}
