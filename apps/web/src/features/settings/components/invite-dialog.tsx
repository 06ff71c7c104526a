import { limits, rules } from '@portal/contract/rules';
import { spendsWithinBudget, teamLimits, teamMessages, type Role } from '@portal/contract/team';
import { Form, Modal, Segmented } from 'antd';
import Input from 'antd/es/input/Input';
import { useState } from 'react';
import { PhoneInput } from '../../../components/phone-input.tsx';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { formRule } from '../../../lib/form-rules.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { teamText } from '../../../locales/zh-CN/team.ts';
import { type InviteBody, useInvite } from '../api/team.ts';
import { budgetOf, budgetRule, roleRule } from '../lib/team-form.ts';
import { RolePicker } from './role-picker.tsx';
import { SettingsForm } from './settings-form.tsx';

const text = teamText.invite;

interface InviteValues {
  email: string;
  phone: string;
  role: Exclude<Role, 'OWNER'> | '';
  monthly_budget: string;
}

type Channel = 'email' | 'phone';

const emailRule = formRule((value) => {
  const typed = value.trim();
  if (typed === '') return teamMessages.emailOrPhoneRequired;
  return rules.email(typed);
});
const phoneRule = formRule((value) => (value === '' ? teamMessages.emailOrPhoneRequired : rules.phone(value)));

/** 邀请成员: by e-mail or phone, a role (with what each allows), and for a 成员 an optional monthly budget in USD. */
export function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<InviteValues>();
  const [channel, setChannel] = useState<Channel>('email');
  const inviting = useInvite();
  // a budget binds only a MEMBER's cards: offered for that role alone
  const role = Form.useWatch('role', form);
  const withBudget = role !== undefined && role !== '' && spendsWithinBudget(role);

  const submit = async (values: InviteValues) => {
    if (inviting.isPending || values.role === '') return;
    const body: InviteBody = {
      role: values.role,
      ...(spendsWithinBudget(values.role) ? { monthly_budget: budgetOf(values.monthly_budget) } : {}),
      ...(channel === 'email' ? { email: values.email.trim() } : { phone_info: { phone: values.phone, phone_prefix: limits.phonePrefix } }),
    };
    try {
      await inviting.mutateAsync(body);
    } catch (error) {
      applyFieldErrors(form, error, { 'phone_info.phone': 'phone', phone_info: 'phone' });
      return;
    }
    notifySuccess(text.done(teamLimits.invitationHours));
    onClose();
  };

  return (
    <Modal open={open} title={text.dialogTitle} footer={null} onCancel={onClose} destroyOnHidden width={520} centered>
      <SettingsForm<InviteValues>
        form={form}
        name="invite"
        initialValues={{ email: '', phone: '', role: '', monthly_budget: '' }}
        onFinish={(values) => void submit(values)}
        onCancel={onClose}
        submit={text.submit}
        pending={inviting.isPending}
      >
        <Form.Item label={text.by}>
          <Segmented<Channel>
            value={channel}
            onChange={setChannel}
            options={[
              { value: 'email', label: text.byEmail },
              { value: 'phone', label: text.byPhone },
            ]}
          />
        </Form.Item>
        {channel === 'email' ? (
          <Form.Item name="email" label={text.email} rules={[emailRule]} validateFirst>
            <Input size="large" placeholder={text.emailPlaceholder} autoComplete="off" maxLength={40} aria-required />
          </Form.Item>
        ) : (
          <Form.Item name="phone" label={text.phone} rules={[phoneRule]} validateFirst>
            <PhoneInput size="large" placeholder={text.phonePlaceholder} aria-required />
          </Form.Item>
        )}
        <Form.Item name="role" label={text.role} rules={[roleRule]}>
          <RolePicker />
        </Form.Item>
        {withBudget ? (
          <Form.Item name="monthly_budget" label={text.budget} rules={[budgetRule]} extra={text.budgetHint}>
            <Input size="large" placeholder={text.budgetPlaceholder} inputMode="decimal" suffix={teamLimits.budgetCurrency} autoComplete="off" maxLength={20} />
          </Form.Item>
        ) : null}
      </SettingsForm>
    </Modal>
  );
}
