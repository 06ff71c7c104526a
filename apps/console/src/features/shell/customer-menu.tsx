import { CreditCardOutlined, SwapOutlined, UserOutlined } from '@ant-design/icons';
import { paths } from '../../lib/paths.ts';

/** The menu's entries of the customers' screens (each shown to the roles that may read customers). */
export const customerMenu = [
  { path: paths.customers.getHref(), name: '客户', icon: <UserOutlined />, action: 'customers.read' },
  { path: paths.cards.getHref(), name: '卡片', icon: <CreditCardOutlined />, action: 'customers.read' },
  { path: paths.transactions.getHref(), name: '交易', icon: <SwapOutlined />, action: 'customers.read' },
];
