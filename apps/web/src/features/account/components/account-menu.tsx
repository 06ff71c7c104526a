import { DownOutlined, FileTextOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Dropdown, type MenuProps } from 'antd';
import { signedInText } from '../../../locales/zh-CN/signed-in.ts';
import { useAccountInfo } from '../../../domain/account/api/get-account-info.ts';
import styles from './account-menu.module.css';

interface AccountMenuProps {
  onOpenAgreement: () => void;
  onLogout: () => void;
}

/**
 * The account's e-mail in the header (on wide screens), with a hover menu that names the account and
 * holds the user agreement and logging out (spec §2).
 */
export function AccountMenu({ onOpenAgreement, onLogout }: AccountMenuProps) {
  const { data: account } = useAccountInfo();
  const label = account?.email ?? (account ? `+${account.phone_prefix} ${account.phone}` : '');

  const items: MenuProps['items'] = [
    {
      // who is signed in, also on narrow screens where the header has no room for it
      type: 'group',
      key: 'account',
      label: (
        <span className={styles.menuEmail} data-testid="account-menu-email">
          {label}
        </span>
      ),
      children: [{ key: 'agreement', icon: <FileTextOutlined />, label: signedInText.agreement }],
    },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: signedInText.logout, danger: true },
  ];
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'agreement') onOpenAgreement();
    if (key === 'logout') onLogout();
  };

  return (
    <Dropdown menu={{ items, onClick }} placement="bottomRight" trigger={['hover', 'click']}>
      <button type="button" className={styles.trigger} aria-label={`${signedInText.accountMenu} ${label}`} data-testid="account-menu">
        <span className={styles.avatar} aria-hidden="true">
          <UserOutlined />
        </span>
        <span className={styles.email} data-testid="account-email">
          {label}
        </span>
        <DownOutlined className={styles.caret} />
      </button>
    </Dropdown>
  );
}
