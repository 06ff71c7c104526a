import { teamNameBody } from '@portal/contract/team';
import { Button, Form, Modal } from 'antd';
import Input from 'antd/es/input/Input';
import { useState } from 'react';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { formRule } from '../../../lib/form-rules.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { teamText } from '../../../locales/zh-CN/team.ts';
import { useRenameTeam } from '../api/team.ts';
import { SettingsForm } from './settings-form.tsx';
import styles from './team-section.module.css';

const text = teamText.name;

/** The contract's own check of the name: the same message the server would answer. */
const nameRule = formRule((value) => {
  const parsed = teamNameBody.safeParse({ name: value });
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? null);
});

/** 团队名称, as the header and the invitations show it; 修改名称 for those who manage the team. */
export function TeamName({ name, canEdit }: { name: string; canEdit: boolean }) {
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ name: string }>();
  const renaming = useRenameTeam();
  const submit = async (values: { name: string }) => {
    if (renaming.isPending) return;
    try {
      await renaming.mutateAsync(values.name.trim());
    } catch (error) {
      applyFieldErrors(form, error);
      return;
    }
    notifySuccess(text.done);
    setOpen(false);
  };
  return (
    <div className={styles.name}>
      <span className={styles.nameLabel}>{text.label}</span>
      <span className={styles.nameValue} data-testid="team-name">
        {name}
      </span>
      {canEdit ? (
        <Button size="small" type="link" onClick={() => setOpen(true)}>
          {text.edit}
        </Button>
      ) : null}
      <Modal open={open} title={text.dialogTitle} footer={null} onCancel={() => setOpen(false)} destroyOnHidden width={440} centered>
        <SettingsForm form={form} name="team-name" initialValues={{ name }} onFinish={(values) => void submit(values)} onCancel={() => setOpen(false)} submit={text.submit} pending={renaming.isPending}>
          <Form.Item name="name" label={text.label} rules={[nameRule]} validateFirst>
            <Input size="large" placeholder={text.placeholder} maxLength={40} autoComplete="off" aria-required />
          </Form.Item>
        </SettingsForm>
      </Modal>
    </div>
  );
}
