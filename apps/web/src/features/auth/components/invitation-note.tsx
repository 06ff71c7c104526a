import { ROLE_LABELS } from '@portal/contract/team';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { call } from '../../../lib/api-client.ts';
import * as teamCalls from '../../../lib/generated/team-calls.ts';
import { isApiError, markShownInPlace } from '../../../lib/http.ts';
import { paths } from '../../../lib/paths.ts';
import { queryKeyOf } from '../../../lib/query-keys.ts';
import { teamText } from '../../../locales/zh-CN/team.ts';
import styles from './invitation-note.module.css';

const text = teamText.invitation;

/** GET /team/invitations/by-token/:token: the team, the role and who invited, or the server's refusal. */
const getInvitation = (token: string) =>
  call(teamCalls.invitation, { params: { token } }).catch((error: unknown) => {
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
    queryKey: queryKeyOf(teamCalls.invitation, { params: { token } }),
    queryFn: () => getInvitation(token),
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (invitation.isPending) {
    return (
      <p className={styles.note} role="status" data-testid="invitation-loading">
        {text.loading}
      </p>
    );
  }
  if (invitation.isError) {
    const message = isApiError(invitation.error) ? invitation.error.message : text.failed;
    return (
      <div className={`${styles.note} ${styles.failed}`} role="alert" data-testid="invitation-failed">
        <span>{message || text.failed}</span>
        <Link className={styles.link} to={paths.signUp.getHref()} replace>
          {text.signUpNormally}
        </Link>
      </div>
    );
  }
  const { invited_by, account_name, role, phone_masked } = invitation.data;
  return (
    <div className={styles.note} data-testid="invitation-preview">
      <span className={styles.line}>{text.line(invited_by, account_name, ROLE_LABELS[role])}</span>
      {phone_masked ? <span className={styles.hint}>{text.sentToPhone(phone_masked)}</span> : null}
    </div>
  );
}
