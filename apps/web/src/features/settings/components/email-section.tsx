import { limits, messages, rules } from '@portal/contract/rules';
import Input from 'antd/es/input/Input';
import { settingsText } from '../../../locales/zh-CN/settings.ts';
import { useChangeEmail } from '../api/change-email.ts';
import { type AddressChange, ChangeAddressSection, type ChangeCodes } from './change-address-section.tsx';

const text = settingsText.email;

function useChangeEmailAddress() {
  const change = useChangeEmail();
  return { isPending: change.isPending, change: (email: string, codes: ChangeCodes) => change.mutateAsync({ email, ...codes }).then((answer) => answer.email) };
}

const emailChange: AddressChange = {
  id: 'email',
  field: 'email',
  text,
  current: (overview) => overview.email,
  currentTestId: 'current-email',
  input: <Input size="large" placeholder={text.newPlaceholder} maxLength={limits.emailMax} autoComplete="email" inputMode="email" aria-required />,
  rule: rules.email,
  unchanged: messages.emailUnchanged,
  useIsCurrent: (current) => (typed) => typed.trim().toLowerCase() === current.toLowerCase(),
  clean: (typed) => typed.trim(),
  refuseCode: (email) => {
    const problem = rules.email(email);
    if (problem === null) return null;
    return email === '' ? { notify: messages.emailForCode } : { field: problem };
  },
  currentCode: { send_type: 'SEND_TYPE_EMAIL', mark_type: 'MARK_TYPE_CHANGE_EMAIL' },
  newCode: (email) => ({ send_type: 'SEND_TYPE_EMAIL', mark_type: 'MARK_TYPE_CHANGE_EMAIL', email }),
  useChange: useChangeEmailAddress,
};

/** 邮箱: the bound e-mail, changed with a code to the current address and one to the new address. */
export function EmailSection() {
  return <ChangeAddressSection kind={emailChange} />;
}
