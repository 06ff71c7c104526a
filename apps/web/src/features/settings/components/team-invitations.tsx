import { ROLE_LABELS } from '@portal/contract/team';
import { Table, type TableColumnsType } from 'antd';
import type { HTMLAttributes } from 'react';
import { formatDateTime } from '../../../lib/date-time.ts';
import { formatAmount } from '../../../lib/money-format.ts';
import { teamText } from '../../../locales/zh-CN/team.ts';
import { useInvitations, useRevokeInvitation } from '../api/team.ts';
import { QueryState } from './query-state.tsx';
import { ConfirmLink, RecordTag } from './records.tsx';
import recordStyles from './records.module.css';
import styles from './team-section.module.css';

const text = teamText.invitations;

type Invitation = NonNullable<ReturnType<typeof useInvitations>['data']>[number];

/** 待接受的邀请: where each went, the role and budget it offers, who sent it, until when; 撤销 for those who manage the team. */
export function TeamInvitations({ canManage }: { canManage: boolean }) {
  const invitations = useInvitations();
  const revoking = useRevokeInvitation();
  const items = invitations.data ?? [];
  // nothing pending: the section shows no empty list of them
  if (invitations.isSuccess && items.length === 0) return null;

  const columns: TableColumnsType<Invitation> = [
    {
      key: 'to',
      title: text.sentTo,
      render: (_, invitation) => (
        <span className={recordStyles.device}>
          <span className={styles.email}>{invitation.sent_to}</span>
          <RecordTag tone="brand">{text.channel[invitation.channel]}</RecordTag>
        </span>
      ),
    },
    { key: 'role', title: text.role, width: 96, render: (_, invitation) => ROLE_LABELS[invitation.role] },
    {
      key: 'budget',
      title: text.budget,
      align: 'right',
      render: (_, invitation) => (invitation.monthly_budget === null ? teamText.members.noBudget : `${formatAmount(invitation.monthly_budget)} USD`),
    },
    { key: 'by', title: text.invitedBy, render: (_, invitation) => invitation.invited_by },
    { key: 'expires', title: text.expiresAt, render: (_, invitation) => <span className={recordStyles.time}>{formatDateTime(invitation.expires_at)}</span> },
  ];
  if (canManage) {
    columns.push({
      key: 'action',
      title: text.action,
      width: 80,
      align: 'center',
      render: (_, invitation) => (
        <ConfirmLink
          request={revoking}
          id={invitation.id}
          label={text.revoke}
          confirm={text.revokeConfirm}
          done={text.revoked}
          danger
          ariaLabel={`${text.revoke} ${invitation.sent_to}`}
        />
      ),
    });
  }

  return (
    <div className={styles.invitations}>
      <h3 className={styles.subtitle}>{text.title}</h3>
      <QueryState query={invitations} rows={2}>
        <Table<Invitation>
          className={recordStyles.table}
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={items}
          pagination={false}
          scroll={{ x: 760 }}
          onRow={() => ({ 'data-testid': 'team-invitation' }) as HTMLAttributes<HTMLElement>}
          data-testid="team-invitations"
        />
      </QueryState>
    </div>
  );
}
