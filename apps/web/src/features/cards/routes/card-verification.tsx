import { verificationLimits, verificationRules } from '@portal/contract/cards';
import { limits, rules } from '@portal/contract/rules';
import { Button, Form } from 'antd';
import Input from 'antd/es/input/Input';
import { busy } from '../../../lib/busy.ts';
import { cardsText } from '../../../locales/zh-CN/cards.ts';
import { VerificationScreen } from '../components/verification-screen.tsx';
import { trimmedRule } from '../lib/trimmed-rule.ts';
import { useVerificationSubmit } from '../lib/use-verification-submit.ts';
import styles from './verification-form.module.css';

interface BasicValues {
  real_name: string;
  id_number: string;
}

const FIELDS = ['real_name', 'id_number'];
const text = cardsText.verification;

/**
 * /create-card/verification (product.md §4): the real name and the 18-character ID number an
 * account gives once, before its first card. Given, it shows them (the number masked) and goes on;
 * sent, it goes on to `from` (a path of the portal), else to the card opening.
 */
export default function CardVerification() {
  return (
    <VerificationScreen
      text={text}
      givenRows={(answer) =>
        answer.basic && [
          { label: text.realName, value: answer.basic.real_name },
          { label: text.idNumber, value: answer.basic.id_number_masked },
        ]}
      form={(onDone) => <BasicForm onDone={onDone} />}
    />
  );
}

/** Spaces typed around the number, and a lower-case check character, are not the holder's mistake. */
const normalizeIdNumber = (value: string | undefined) => (value ?? '').replace(/\s/g, '').toUpperCase();

function BasicForm({ onDone }: { onDone: () => void }) {
  const [form] = Form.useForm<BasicValues>();
  const { submit, pending } = useVerificationSubmit<BasicValues>({
    form,
    fields: FIELDS,
    body: (values) => ({ real_name: values.real_name.trim(), id_number: values.id_number }),
    doneText: text.done,
    onDone,
  });

  return (
    <Form<BasicValues>
      form={form}
      name="card-verification"
      layout="vertical"
      requiredMark={false}
      className={styles.form}
      initialValues={{ real_name: '', id_number: '' }}
      onFinish={submit}
      noValidate
    >
      <Form.Item name="real_name" label={text.realName} rules={[trimmedRule(verificationRules.realName)]} validateFirst>
        <Input size="large" autoComplete="name" maxLength={verificationLimits.realNameMax} placeholder={text.realNamePlaceholder} aria-required />
      </Form.Item>
      <Form.Item name="id_number" label={text.idNumber} rules={[trimmedRule(rules.idNumber)]} normalize={normalizeIdNumber} validateFirst>
        <Input size="large" autoComplete="off" spellCheck={false} maxLength={limits.idNumberLength} placeholder={text.idNumberPlaceholder} aria-required />
      </Form.Item>
      <Button className={styles.submit} type="primary" htmlType="submit" size="large" loading={busy(pending)}>
        {text.submit}
      </Button>
    </Form>
  );
}
