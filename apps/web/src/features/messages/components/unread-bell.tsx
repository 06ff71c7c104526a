import { BellOutlined } from '@ant-design/icons';
import { Badge } from 'antd';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import { signedInText } from '../../../locales/zh-CN/signed-in.ts';
import { useUnreadQuantity } from '../api/get-unread-quantity.ts';
import styles from './unread-bell.module.css';

/** The bell in the header: the unread count (99+ above 99), a link to the message center. */
export function UnreadBell() {
  const { data: count = 0 } = useUnreadQuantity();
  return (
    <Link to={paths.informationCenter.getHref()} className={styles.bell} aria-label={signedInText.bell(count)} data-testid="unread-bell">
      <Badge count={count} overflowCount={99} size="small" offset={[4, -2]}>
        <BellOutlined className={styles.icon} />
      </Badge>
    </Link>
  );
}
