import { limits, messages, rules } from '@portal/contract/rules';
import { PhoneInput } from '../../../components/phone-input.tsx';
import { useAccountInfo } from '../../../domain/account/api/get-account-info.ts';
import { settingsText } from '../../../locales/zh-CN/settings.ts';
import { useChangePhone } from '../api/change-phone.ts';
import { type AddressChange, ChangeAddressSection, type ChangeCodes } from './change-address-section.tsx';

const text = settingsText.phone;

const phoneInfo = (phone: string) => ({ phone, phone_prefix: limits.phonePrefix });

function useChangePhoneNumber() {
  const change = useChangePhone();
  return {
    isPending: change.isPending,
    change: (phone: string, codes: ChangeCodes) =>
      change.mutateAsync({ phone_info: phoneInfo(phone), ...codes }).then((answer) => `+${answer.phone_prefix} ${answer.phone}`),
  };
}

/** The section shows the number masked: the whole one, to refuse the same one again before asking the server. */
function useIsCurrentPhone() {
  const account = useAccountInfo();
  return (typed: string) => typed === account.data?.phone;
}

const phoneChange: AddressChange = {
  id: 'phone',
  field: 'phone',
  text,
  current: (overview) => `+${overview.phone_prefix} ${overview.phone}`,
  input: <PhoneInput size="large" placeholder={text.newPlaceholder} aria-required />,
  rule: rules.phone,
  unchanged: messages.phoneUnchanged,
  useIsCurrent: useIsCurrentPhone,
  refuseCode: (phone) => (rules.phone(phone) === null ? null : { notify: messages.phoneForCode }),
  currentCode: { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_CHANGE_PHONE' },
  newCode: (phone) => ({ send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_CHANGE_PHONE', phone_info: phoneInfo(phone) }),
  useChange: useChangePhoneNumber,
  // server names of the body that the form calls otherwise
  fieldNames: { 'phone_info.phone': 'phone', phone_info: 'phone', 'phone_info.phone_prefix': 'phone' },
};

/** 手机号: the mainland phone the account signs in with, changed with a code to the current phone and one to the new. */
export function PhoneSection() {
  return <ChangeAddressSection kind={phoneChange} />;
}
