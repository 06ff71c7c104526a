import { verificationLimits, verificationRules } from '@portal/contract/cards';
import { Button, Form } from 'antd';
import Input from 'antd/es/input/Input';
import { busy } from '../../../lib/busy.ts';
import { cardsText } from '../../../locales/zh-CN/cards.ts';
import { VerificationScreen } from '../components/verification-screen.tsx';
import { trimmedRule } from '../lib/trimmed-rule.ts';
import { useVerificationSubmit } from '../lib/use-verification-submit.ts';
import styles from './verification-form.module.css';

interface SecondaryValues {
  latin_name: string;
  website: string;
}

const FIELDS = ['latin_name', 'website'];
const text = cardsText.secondary;

/**
 * /create-card/secondary-verification-data (product.md §4): the name in Latin letters and the
 * website where the card will be used, asked once by the products that need them. Given, it shows
 * them and goes on; sent, it goes on to `from` (a path of the portal), else to the card opening.
 */
export default function SecondaryVerificationData() {
  return (
    <VerificationScreen
      text={text}
      givenRows={(answer) =>
        answer.secondary && [
          { label: text.latinName, value: answer.secondary.latin_name },
          { label: text.website, value: answer.secondary.website },
        ]}
      form={(onDone) => <SecondaryForm onDone={onDone} />}
    />
  );
}

function SecondaryForm({ onDone }: { onDone: () => void }) {
  const [form] = Form.useForm<SecondaryValues>();
  const { submit, pending } = useVerificationSubmit<SecondaryValues>({
    form,
    fields: FIELDS,
    body: (values) => ({ latin_name: values.latin_name.trim(), website: values.website.trim() }),
    doneText: text.done,
    onDone,
  });

  return (
    <Form<SecondaryValues>
      form={form}
      name="secondary-verification"
      layout="vertical"
      requiredMark={false}
      className={styles.form}
      initialValues={{ latin_name: '', website: '' }}
      onFinish={submit}
      noValidate
    >
      <Form.Item name="latin_name" label={text.latinName} extra={text.latinNameHint} rules={[trimmedRule(verificationRules.latinName)]} validateFirst>
        <Input
          size="large"
          autoComplete="name"
          lang="en"
          maxLength={verificationLimits.latinNameMax}
          placeholder={text.latinNamePlaceholder}
          aria-required
        />
      </Form.Item>
      <Form.Item name="website" label={text.website} extra={text.websiteHint} rules={[trimmedRule(verificationRules.website)]} validateFirst>
        <Input
          size="large"
          type="url"
          inputMode="url"
          autoComplete="url"
          spellCheck={false}
          maxLength={verificationLimits.websiteMax}
          placeholder={text.websitePlaceholder}
          aria-required
        />
      </Form.Item>
      <Button className={styles.submit} type="primary" htmlType="submit" size="large" loading={busy(pending)}>
        {text.submit}
      </Button>
    </Form>
  );
}
