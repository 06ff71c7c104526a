import { ROLE_LABELS, type TeamMember } from '@portal/contract/team';
import { Form, Select } from 'antd';
import { useState } from 'react';

/** The member a dialog is to act on: none at first; `require()` answers it, or marks the field when none is picked. */
export function usePickedMember() {
  const [to, setTo] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  return {
    to,
    missing,
    pick(id: string) {
      setTo(id);
      setMissing(false);
    },
    reset() {
      setTo(null);
      setMissing(false);
    },
    require() {
      if (to === null) setMissing(true);
      return to;
    },
  };
}

export type PickedMember = ReturnType<typeof usePickedMember>;

/** A member as a choice reads: 138****8000（管理员）. */
export const memberChoice = (member: Pick<TeamMember, 'phone_masked' | 'role'>) => `${member.phone_masked}（${ROLE_LABELS[member.role]}）`;

/** One field choosing one of `members`, as 更换持卡人 and 转让所有权 ask; `missingHelp` shows when a submit found it empty. */
export function MemberPicker(props: {
  id: string;
  label: string;
  placeholder: string;
  missingHelp: string;
  members: TeamMember[];
  picked: PickedMember;
  loading?: boolean;
}) {
  const { picked } = props;
  return (
    <Form layout="vertical" requiredMark={false} component="div">
      <Form.Item label={props.label} htmlFor={props.id} {...(picked.missing ? { validateStatus: 'error' as const, help: props.missingHelp } : {})}>
        <Select
          id={props.id}
          size="large"
          loading={props.loading ?? false}
          placeholder={props.placeholder}
          value={picked.to}
          onChange={(value: string) => picked.pick(value)}
          options={props.members.map((member) => ({ value: member.id, label: memberChoice(member) }))}
        />
      </Form.Item>
    </Form>
  );
}
