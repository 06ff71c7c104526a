import { MEMBER_STATUS_LABELS, ROLE_LABELS, spendsWithinBudget, type TeamMember } from '@portal/contract/team';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { DownOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps, Table, type TableColumnsType } from 'antd';
import type { HTMLAttributes } from 'react';
import { formatAmount } from '../../../lib/money-format.ts';
import { teamText } from '../../../locales/zh-CN/team.ts';
import { RecordTag } from './records.tsx';
import recordStyles from './records.module.css';
import styles from './team-section.module.css';

const text = teamText.members;

/** What of the month's budget is left: never below nothing; null without a budget. */
export function budgetLeft(member: Pick<TeamMember, 'monthly_budget' | 'budget_used'>) {
  if (member.monthly_budget === null) return null;
  const left = toMinorUnits(member.monthly_budget) - toMinorUnits(member.budget_used);
  return fromMinorUnits(left > 0n ? left : 0n);
}

export type MemberAction = 'role' | 'budget' | 'suspend' | 'resume' | 'remove';

/** Whether a member's row offers the manager's actions: never on the owner's, nor on one's own. */
export const manageable = (member: TeamMember) => member.role !== 'OWNER' && !member.is_me;

interface TeamMembersTableProps {
  members: TeamMember[];
  /** team.manage: each member's actions are offered */
  canManage: boolean;
  onAction: (action: MemberAction, member: TeamMember) => void;
}

function MemberActions({ member, onAction }: { member: TeamMember; onAction: TeamMembersTableProps['onAction'] }) {
  const items: MenuProps['items'] = [
    { key: 'role', label: teamText.actions.changeRole },
    // a budget binds only a MEMBER's cards (the contract's spendsWithinBudget)
    ...(spendsWithinBudget(member.role) ? [{ key: 'budget', label: teamText.actions.changeBudget }] : []),
    member.status === 'ACTIVE' ? { key: 'suspend', label: teamText.actions.suspend } : { key: 'resume', label: teamText.actions.resume },
    { type: 'divider' },
    { key: 'remove', label: teamText.actions.remove, danger: true },
  ];
  return (
    <Dropdown menu={{ items, onClick: ({ key }) => onAction(key as MemberAction, member) }} trigger={['click']} placement="bottomRight">
      <Button size="small" type="link" aria-label={`${teamText.actions.more} ${member.phone_masked}`} data-testid="member-actions">
        {teamText.actions.more}
        <DownOutlined />
      </Button>
    </Dropdown>
  );
}

/** The team's members: phone (我 on one's own), e-mail, role, status, budget, what of it is used and left, cards held. */
export function TeamMembersTable({ members, canManage, onAction }: TeamMembersTableProps) {
  const columns: TableColumnsType<TeamMember> = [
    {
      key: 'phone',
      title: text.phone,
      render: (_, member) => (
        <span className={recordStyles.device}>
          <span>{member.phone_masked}</span>
          {member.is_me ? <RecordTag tone="brand">{text.me}</RecordTag> : null}
        </span>
      ),
    },
    { key: 'email', title: text.email, render: (_, member) => <span className={styles.email}>{member.email ?? text.none}</span> },
    { key: 'role', title: text.role, width: 96, render: (_, member) => <RecordTag tone="brand">{ROLE_LABELS[member.role]}</RecordTag> },
    {
      key: 'status',
      title: text.status,
      width: 84,
      render: (_, member) =>
        member.status === 'ACTIVE' ? MEMBER_STATUS_LABELS.ACTIVE : <RecordTag tone="warning">{MEMBER_STATUS_LABELS[member.status]}</RecordTag>,
    },
    {
      key: 'budget',
      title: text.budget,
      align: 'right',
      render: (_, member) =>
        member.monthly_budget === null ? text.noBudget : <span className={styles.amount}>{`${formatAmount(member.monthly_budget)} ${member.budget_currency}`}</span>,
    },
    {
      key: 'used',
      title: text.usedLeft,
      align: 'right',
      render: (_, member) => {
        const left = budgetLeft(member);
        return <span className={styles.amount}>{text.usedOf(formatAmount(member.budget_used), left === null ? text.noBudget : formatAmount(left))}</span>;
      },
    },
    { key: 'cards', title: text.cardsHeld, width: 88, align: 'right', render: (_, member) => text.cards(member.cards_held) },
  ];
  if (canManage) {
    columns.push({
      key: 'action',
      title: text.action,
      width: 112,
      align: 'center',
      render: (_, member) => (manageable(member) ? <MemberActions member={member} onAction={onAction} /> : null),
    });
  }
  return (
    <Table<TeamMember>
      className={recordStyles.table}
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={members}
      pagination={false}
      scroll={{ x: 880 }}
      onRow={(member) => ({ 'data-testid': 'team-member', 'data-me': member.is_me }) as HTMLAttributes<HTMLElement>}
      data-testid="team-members"
    />
  );
}
