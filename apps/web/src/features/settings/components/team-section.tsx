import type { TeamMember } from '@portal/contract/team';
import { SwapOutlined, UserAddOutlined } from '@ant-design/icons';
import { Button, Modal } from 'antd';
import { useState } from 'react';
import { useAccountInfo } from '../../../domain/account/api/get-account-info.ts';
import { useTeamMembers } from '../../../domain/team/api/get-team-members.ts';
import { useCans } from '../../../domain/team/lib/use-can.ts';
import { settingsText } from '../../../locales/zh-CN/settings.ts';
import { teamText } from '../../../locales/zh-CN/team.ts';
import { BudgetDialog, RemoveDialog, RoleDialog, useStatusChange } from './member-dialogs.tsx';
import { InviteDialog } from './invite-dialog.tsx';
import { OwnershipDialog } from './ownership-dialog.tsx';
import { QueryState } from './query-state.tsx';
import { SettingsSection } from './settings-section.tsx';
import { TeamInvitations } from './team-invitations.tsx';
import { type MemberAction, TeamMembersTable } from './team-members-table.tsx';
import { TeamName } from './team-name.tsx';

const text = teamText.section;

type Open = { dialog: 'role' | 'budget' | 'remove' | 'suspend'; member: TeamMember } | { dialog: 'invite' | 'ownership' } | null;

/**
 * 团队成员 on /settings (team.read): the team's name, its members with their role, status, budget and
 * cards, and the pending invitations. Who manages the team (team.manage) invites, changes a member's
 * role, budget and status, removes them and revokes invitations; the owner (team.ownership) hands
 * ownership on. Refusals are the server's, said by the HTTP module or on the field they are about.
 */
export function TeamSection() {
  const may = useCans(['team.manage', 'team.ownership']);
  const account = useAccountInfo();
  const members = useTeamMembers();
  const [open, setOpen] = useState<Open>(null);
  const changeStatus = useStatusChange();
  const items = members.data ?? [];
  const close = () => setOpen(null);

  const act = (action: MemberAction, member: TeamMember) => {
    if (action === 'resume') void changeStatus(member, 'resume');
    else setOpen({ dialog: action, member });
  };
  const memberOf = (dialog: 'role' | 'budget' | 'remove' | 'suspend') => (open && 'member' in open && open.dialog === dialog ? open.member : null);
  const suspending = memberOf('suspend');

  return (
    <SettingsSection
      id="team"
      title={text.title}
      description={text.description}
      extra={
        <>
          {may['team.ownership'] ? (
            <Button icon={<SwapOutlined />} onClick={() => setOpen({ dialog: 'ownership' })}>
              {teamText.ownership.transfer}
            </Button>
          ) : null}
          {may['team.manage'] ? (
            <Button type="primary" icon={<UserAddOutlined />} onClick={() => setOpen({ dialog: 'invite' })}>
              {text.invite}
            </Button>
          ) : null}
        </>
      }
    >
      {account.data ? <TeamName name={account.data.account_name} canEdit={may['team.manage']} /> : null}
      <QueryState query={members} empty={members.isSuccess && items.length === 0 ? text.empty : false} rows={4}>
        <TeamMembersTable members={items} canManage={may['team.manage']} onAction={act} />
      </QueryState>
      <TeamInvitations canManage={may['team.manage']} />

      <InviteDialog open={open?.dialog === 'invite'} onClose={close} />
      <OwnershipDialog open={open?.dialog === 'ownership'} members={items} onClose={close} />
      <RoleDialog member={memberOf('role')} onClose={close} />
      <BudgetDialog member={memberOf('budget')} onClose={close} />
      <RemoveDialog member={memberOf('remove')} onClose={close} />
      <Modal
        open={suspending !== null}
        title={teamText.actions.suspend}
        okText={teamText.actions.suspend}
        cancelText={settingsText.cancel}
        okButtonProps={{ danger: true }}
        onOk={() => {
          if (suspending) void changeStatus(suspending, 'suspend');
          close();
        }}
        onCancel={close}
        width={420}
        centered
      >
        <p>{teamText.actions.suspendConfirm}</p>
      </Modal>
    </SettingsSection>
  );
}
