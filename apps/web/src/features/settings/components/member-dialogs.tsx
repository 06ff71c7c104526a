import { type TeamMember, teamLimits } from '@portal/contract/team';
import { Checkbox, Form, Modal } from 'antd';
import Input from 'antd/es/input/Input';
import { useEffect, useState } from 'react';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { settingsText } from '../../../locales/zh-CN/settings.ts';
import { teamText } from '../../../locales/zh-CN/team.ts';
import { useRemoveMember, useUpdateMember } from '../api/team.ts';
import { budgetOf, budgetRule, roleRule } from '../lib/team-form.ts';
import { RolePicker } from './role-picker.tsx';
import { SettingsForm } from './settings-form.tsx';
import type { MemberAction } from './team-members-table.tsx';

const text = teamText.actions;

interface MemberDialogProps {
  member: TeamMember | null;
  onClose: () => void;
}

/** 修改角色: one of the roles a member may be given, with what each allows. */
export function RoleDialog({ member, onClose }: MemberDialogProps) {
  const [form] = Form.useForm<{ role: TeamMember['role'] | '' }>();
  const updating = useUpdateMember();
  const submit = async ({ role }: { role: TeamMember['role'] | '' }) => {
    if (!member || role === '' || role === 'OWNER' || updating.isPending) return;
    try {
      await updating.mutateAsync({ id: member.id, body: { role } });
    } catch (error) {
      applyFieldErrors(form, error);
      return;
    }
    notifySuccess(text.roleDone);
    onClose();
  };
  return (
    <Modal open={member !== null} title={`${text.roleDialogTitle} · ${member?.phone_masked ?? ''}`} footer={null} onCancel={onClose} destroyOnHidden width={520} centered>
      {member ? (
        <SettingsForm form={form} name="member-role" initialValues={{ role: member.role }} onFinish={(values) => void submit(values)} onCancel={onClose} submit={text.save} pending={updating.isPending}>
          <Form.Item name="role" label={teamText.invite.role} rules={[roleRule]}>
            <RolePicker />
          </Form.Item>
        </SettingsForm>
      ) : null}
    </Modal>
  );
}

/** 设置预算: the member's monthly budget in USD; empty for none. */
export function BudgetDialog({ member, onClose }: MemberDialogProps) {
  const [form] = Form.useForm<{ monthly_budget: string }>();
  const updating = useUpdateMember();
  const submit = async ({ monthly_budget }: { monthly_budget: string }) => {
    if (!member || updating.isPending) return;
    try {
      await updating.mutateAsync({ id: member.id, body: { monthly_budget: budgetOf(monthly_budget) } });
    } catch (error) {
      applyFieldErrors(form, error);
      return;
    }
    notifySuccess(text.budgetDone);
    onClose();
  };
  return (
    <Modal open={member !== null} title={`${text.budgetDialogTitle} · ${member?.phone_masked ?? ''}`} footer={null} onCancel={onClose} destroyOnHidden width={440} centered>
      {member ? (
        <SettingsForm
          form={form}
          name="member-budget"
          initialValues={{ monthly_budget: member.monthly_budget ?? '' }}
          onFinish={(values) => void submit(values)}
          onCancel={onClose}
          submit={text.save}
          pending={updating.isPending}
        >
          <Form.Item name="monthly_budget" label={teamText.invite.budget} rules={[budgetRule]} extra={teamText.invite.budgetHint}>
            <Input size="large" placeholder={teamText.invite.budgetPlaceholder} inputMode="decimal" suffix={teamLimits.budgetCurrency} autoComplete="off" maxLength={20} />
          </Form.Item>
        </SettingsForm>
      ) : null}
    </Modal>
  );
}

/** 移除: asked again, with 同时冻结其持有的卡片. */
export function RemoveDialog({ member, onClose }: MemberDialogProps) {
  const [freezeCards, setFreezeCards] = useState(false);
  const removing = useRemoveMember();
  useEffect(() => {
    if (member) setFreezeCards(false);
  }, [member]);
  const confirm = async () => {
    if (!member || removing.isPending) return;
    try {
      await removing.mutateAsync({ id: member.id, freezeCards });
    } catch {
      return; // the HTTP module said why
    }
    notifySuccess(text.removed);
    onClose();
  };
  return (
    <Modal
      open={member !== null}
      title={text.removeTitle}
      okText={text.removeOk}
      cancelText={settingsText.cancel}
      okButtonProps={{ danger: true, loading: removing.isPending }}
      onOk={() => void confirm()}
      onCancel={onClose}
      destroyOnHidden
      width={440}
      centered
    >
      {member ? (
        <>
          <p>{text.removeText(member.phone_masked)}</p>
          {member.cards_held > 0 ? (
            <Checkbox checked={freezeCards} onChange={(event) => setFreezeCards(event.target.checked)}>
              {text.freezeCards}
            </Checkbox>
          ) : null}
        </>
      ) : null}
    </Modal>
  );
}

/** 停用 / 启用, asked again before a suspension (it ends their sessions at once). */
export function useStatusChange() {
  const updating = useUpdateMember();
  return async (member: TeamMember, action: Extract<MemberAction, 'suspend' | 'resume'>) => {
    try {
      await updating.mutateAsync({ id: member.id, body: { status: action === 'suspend' ? 'SUSPENDED' : 'ACTIVE' } });
    } catch {
      return; // the HTTP module said why
    }
    notifySuccess(action === 'suspend' ? text.suspended : text.resumed);
  };
}
