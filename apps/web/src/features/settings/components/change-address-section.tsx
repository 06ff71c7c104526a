import type { SecurityOverview } from '@portal/contract/account';
import { type Rule, rules } from '@portal/contract/rules';
import { Button, Form, Modal } from 'antd';
import { type ReactElement, useReducer, useState } from 'react';
import { CodeInput } from '../../../components/code-input.tsx';
import { codeRequest, codeRequestKey, forgetCodeRequest } from '../../../lib/code-send-limits.ts';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { formRule } from '../../../lib/form-rules.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { settingsText } from '../../../locales/zh-CN/settings.ts';
import { useSecurityOverview } from '../api/get-security-overview.ts';
import { type SendChangeCodeBody, useSendCode } from '../../../domain/account/api/send-code.ts';
import { type CurrentAddressCodeBody, useSendCurrentAddressCode } from '../../../domain/account/api/send-code-auto.ts';
import { QueryState } from './query-state.tsx';
import styles from './settings-form.module.css';
import { SettingsForm } from './settings-form.tsx';
import sectionStyles from './settings-section.module.css';
import { SettingsSection } from './settings-section.tsx';

/** What a bound address's section says (settingsText.email, settingsText.phone). */
export interface ChangeAddressText {
  title: string;
  description: string;
  change: string;
  dialogTitle: string;
  intro: string;
  currentLabel: string;
  oldCodeLabel: string;
  newLabel: string;
  newPlaceholder: string;
  newCodeLabel: string;
  codePlaceholder: string;
  sentTo: (target: string) => string;
  submit: string;
  done: (address: string) => string;
}

/** The two codes of a change: the current address's (old_captcha) and the new one's (captcha). */
export interface ChangeCodes {
  old_captcha: string;
  captcha: string;
}

/** Why the new address's code is not asked for yet: said in a notice, or under the new address's field. */
export type CodeRefusal = { notify: string } | { field: string };

/** A bound address (the e-mail, the phone): all that its section and its change dialog differ in. */
export interface AddressChange {
  /** the section's anchor; the 更换 button's test id and the form's name are `change-${id}` */
  id: string;
  /** the new address's field: the form's name for it, and the body's unless `fieldNames` maps it */
  field: string;
  text: ChangeAddressText;
  /** the address as the section and the dialog show it, null when the account has none */
  current: (overview: SecurityOverview) => string | null;
  /** the test id of the address the section shows, if it has one */
  currentTestId?: string;
  /** the new address's input, and its contract rule */
  input: ReactElement;
  rule: Rule;
  /** said when the new address is the current one */
  unchanged: string;
  /** a hook: whether a typed address is the current one (`current` as shown) */
  useIsCurrent: (current: string) => (typed: string) => boolean;
  /** the new address as typed, as it is checked and sent */
  clean?: (typed: string) => string;
  /** why the new address's code may not be asked for yet, or null */
  refuseCode: (address: string) => CodeRefusal | null;
  /** the current address's code: the server picks the address (a screen's copy of it may be out of date) */
  currentCode: CurrentAddressCodeBody;
  newCode: (address: string) => SendChangeCodeBody;
  /** a hook: the change's request, answering the new address as the notice says it */
  useChange: () => { isPending: boolean; change: (address: string, codes: ChangeCodes) => Promise<string> };
  /** server names of the body that the form calls otherwise */
  fieldNames?: Record<string, string>;
}

/** A bound address's section: the address, and 更换 with a code to the current address and one to the new. */
export function ChangeAddressSection({ kind }: { kind: AddressChange }) {
  const { text } = kind;
  const overview = useSecurityOverview();
  const [open, setOpen] = useState(false);
  const current = overview.data ? kind.current(overview.data) : null;
  return (
    <SettingsSection
      id={kind.id}
      title={text.title}
      description={text.description}
      extra={
        <Button onClick={() => setOpen(true)} disabled={!current} data-testid={`change-${kind.id}`}>
          {text.change}
        </Button>
      }
    >
      <QueryState query={overview} rows={1}>
        <p className={sectionStyles.value} data-testid={kind.currentTestId}>
          {current ?? settingsText.none}
        </p>
      </QueryState>
      <Modal open={open} title={text.dialogTitle} footer={null} onCancel={() => setOpen(false)} destroyOnHidden width={460} centered>
        {current ? (
          <ChangeAddressForm
            kind={kind}
            current={current}
            onCancel={() => setOpen(false)}
            onDone={(address) => {
              setOpen(false);
              notifySuccess(text.done(address));
            }}
          />
        ) : null}
      </Modal>
    </SettingsSection>
  );
}

type ChangeAddressValues = ChangeCodes & Record<string, string>;

function ChangeAddressForm({ kind, current, onCancel, onDone }: { kind: AddressChange; current: string; onCancel: () => void; onDone: (address: string) => void }) {
  const { text, field } = kind;
  const clean = kind.clean ?? ((typed: string) => typed);
  const [form] = Form.useForm<ChangeAddressValues>();
  const isCurrent = kind.useIsCurrent(current);
  const send = useSendCode();
  const sendCurrent = useSendCurrentAddressCode();
  const { isPending, change } = kind.useChange();
  // the codes asked for, kept per address while good: a dialog opened again still takes them
  const typed = clean((Form.useWatch(field, form) as string | undefined) ?? '');
  const keys = {
    old: codeRequestKey(kind.currentCode.mark_type, `${kind.currentCode.send_type}:${current}`),
    next: codeRequestKey(kind.currentCode.mark_type, typed),
  };
  const [, codeKept] = useReducer((count: number) => count + 1, 0);
  const sentTo = { old: codeRequest(keys.old)?.sentTo ?? null, next: codeRequest(keys.next)?.sentTo ?? null };

  const sendCode = async (which: 'old' | 'next') => {
    const address = which === 'next' ? clean((form.getFieldValue(field) as string | undefined) ?? '') : '';
    const refusal = which === 'next' ? kind.refuseCode(address) : null;
    if (refusal) {
      if ('notify' in refusal) notifyError(refusal.notify);
      else form.setFields([{ name: field, errors: [refusal.field] }]);
      throw new Error('notify' in refusal ? refusal.notify : refusal.field);
    }
    try {
      // the current address's code goes to the one the account has now, which the server knows
      return which === 'old' ? await sendCurrent.mutateAsync(kind.currentCode) : await send.mutateAsync(kind.newCode(address));
    } catch (error) {
      applyFieldErrors(form, error, kind.fieldNames);
      throw error;
    }
  };

  const submit = async (values: ChangeAddressValues) => {
    if (isPending) return;
    try {
      const address = await change(clean(values[field] ?? ''), { old_captcha: values.old_captcha, captcha: values.captcha });
      // the server used both codes up
      forgetCodeRequest(keys.old);
      forgetCodeRequest(keys.next);
      onDone(address);
    } catch (error) {
      applyFieldErrors(form, error, kind.fieldNames);
    }
  };

  const sentNote = (target: string | null) =>
    target ? (
      <p className={styles.sentTo} aria-live="polite">
        {text.sentTo(target)}
      </p>
    ) : null;

  return (
    <SettingsForm<ChangeAddressValues>
      form={form}
      name={`change-${kind.id}`}
      initialValues={{ old_captcha: '', [field]: '', captcha: '' }}
      onFinish={submit}
      onCancel={onCancel}
      submit={text.submit}
      pending={isPending}
    >
      <p className={styles.intro}>{text.intro}</p>
      <p className={styles.current}>
        <span className={styles.currentLabel}>{text.currentLabel}</span>
        {current}
      </p>
      <Form.Item name="old_captcha" label={text.oldCodeLabel} rules={[formRule(rules.code)]} validateFirst>
        <CodeInput size="large" placeholder={text.codePlaceholder} onSend={() => sendCode('old')} requestKey={keys.old} onRequestKept={codeKept} aria-required />
      </Form.Item>
      {sentNote(sentTo.old)}
      <Form.Item
        name={field}
        label={text.newLabel}
        validateFirst
        rules={[
          formRule(kind.rule),
          {
            validator: async (_, value: unknown) => {
              if (typeof value === 'string' && isCurrent(value)) throw new Error(kind.unchanged);
            },
          },
        ]}
      >
        {kind.input}
      </Form.Item>
      <Form.Item name="captcha" label={text.newCodeLabel} rules={[formRule(rules.code)]} validateFirst>
        <CodeInput size="large" placeholder={text.codePlaceholder} onSend={() => sendCode('next')} requestKey={keys.next} onRequestKept={codeKept} aria-required />
      </Form.Item>
      {sentNote(sentTo.next)}
    </SettingsForm>
  );
}
