import { DownOutlined, FileTextOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Dropdown, type MenuProps } from 'antd';
import { signedInText } from '../../../locales/zh-CN/signed-in.ts';
import { useAccountInfo } from '../../../domain/account/api/get-account-info.ts';
import { memberLabel } from '../../../domain/team/lib/member-label.ts';
import styles from './account-menu.module.css';

interface AccountMenuProps {
  onOpenAgreement: () => void;
  onLogout: () => void;
}

/**
 * The company (account_name) and the member signed in (masked phone and role) in the header (on wide
 * screens), with a hover menu that names them and the member's e-mail, and holds the user agreement
 * and logging out (spec §2). Below 576 px only the avatar stays in the header; the menu names them.
 */
export function AccountMenu({ onOpenAgreement, onLogout }: AccountMenuProps) {
  const { data: account } = useAccountInfo();
  const label = account?.email ?? (account ? `+${account.phone_prefix} ${account.phone}` : '');
  const member = account ? memberLabel(account.phone, account.role) : '';
  const company = account?.account_name ?? '';

  const items: MenuProps['items'] = [
    {
      // who is signed in, also on narrow screens where the header has no room for it
      type: 'group',
      key: 'account',
      label: (
        <span className={styles.menuWho}>
          <span className={styles.menuCompany} data-testid="account-menu-company">
            {company}
          </span>
          <span className={styles.menuEmail} data-testid="account-menu-member">
            {member}
          </span>
          <span className={styles.menuEmail} data-testid="account-menu-email">
            {label}
          </span>
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
      <button type="button" className={styles.trigger} aria-label={`${signedInText.accountMenu} ${company} ${member}`} data-testid="account-menu">
        <span className={styles.avatar} aria-hidden="true">
          <UserOutlined />
        </span>
        <span className={styles.who}>
          <span className={styles.company} data-testid="account-company">
            {company}
          </span>
          <span className={styles.member} data-testid="account-member">
            {member}
          </span>
        </span>
        <DownOutlined className={styles.caret} />
      </button>
    </Dropdown>
  );
}
