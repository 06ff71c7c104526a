import { AccountBookOutlined, AuditOutlined, CreditCardOutlined, DashboardOutlined, KeyOutlined, LogoutOutlined, NotificationOutlined, SafetyCertificateOutlined, TeamOutlined } from '@ant-design/icons';
import { ProLayout } from '@ant-design/pro-components';
import { operatorRoleLabel } from '@portal/contract/console-labels';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Result, Spin, Tag } from 'antd';
import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { callConsole } from '../../lib/http.ts';
import { paths } from '../../lib/paths.ts';
import { meQuery, merchantQuery } from '../../lib/queries.ts';
import { consoleToken, onTokenChange, setConsoleToken } from '../../lib/session.ts';
import { moneyText } from '../../locales/money.zh-CN.ts';
import { text } from '../../locales/zh-CN.ts';
import styles from './console-layout.module.css';
import { customerMenu } from './customer-menu.tsx';

/** 修改密码's dialog (ProForm's fields) is its own chunk, fetched at the first click. */
const PasswordDialog = lazy(() => import('./password-dialog.tsx'));

function PasswordButton() {
  const [asked, setAsked] = useState(false);
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        type="text"
        icon={<KeyOutlined />}
        aria-label={text.password.open}
        data-testid="change-password"
        onClick={() => {
          setAsked(true);
          setOpen(true);
        }}
      >
        <span className={styles.logoutText}>{text.password.open}</span>
      </Button>
      {asked ? (
        <Suspense fallback={null}>
          <PasswordDialog open={open} onOpenChange={setOpen} />
        </Suspense>
      ) : null}
    </>
  );
}

const menu = [
  { path: paths.overview.getHref(), name: text.shell.menu.overview, icon: <DashboardOutlined />, action: 'overview.read' },
  { path: paths.deposits.getHref(), name: moneyText.menu.deposits, icon: <AccountBookOutlined />, action: 'deposits.read' },
  { path: paths.approvals.getHref(), name: moneyText.menu.approvals, icon: <SafetyCertificateOutlined />, action: 'money.read' },
  ...customerMenu,
  { path: paths.audit.getHref(), name: text.shell.menu.audit, icon: <AuditOutlined />, action: 'audit.read' },
  { path: paths.operators.getHref(), name: text.shell.menu.operators, icon: <TeamOutlined />, action: 'operators.read' },
  { path: paths.products.getHref(), name: text.shell.menu.products, icon: <CreditCardOutlined />, action: 'products.read' },
  { path: paths.content.getHref(), name: text.shell.menu.content, icon: <NotificationOutlined />, action: 'content.read' },
];

/** The signed-in console: ProLayout with the merchant's name and logo, the operator's name and role, and the screens their role may open. */
export function ConsoleLayout() {
  const token = useSyncExternalStore(onTokenChange, consoleToken);
  const merchant = useQuery(merchantQuery);
  const me = useQuery({ ...meQuery, enabled: token !== null });
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  useEffect(() => {
    if (merchant.data) document.title = `${merchant.data.name} · 商户控制台`;
  }, [merchant.data]);

  if (token === null) return <Navigate to={paths.signIn.getHref()} replace />;
  if (me.isPending) {
    return (
      <div className={styles.waiting}>
        <Spin size="large" description={text.common.loading} />
      </div>
    );
  }
  if (me.isError) {
    return (
      <Result
        status="error"
        title={text.shell.failed}
        subTitle={me.error.message}
        extra={
          <Button type="primary" onClick={() => me.refetch()}>
            {text.common.retry}
          </Button>
        }
      />
    );
  }
  const operator = me.data.operator;
  const logout = async () => {
    await callConsole('logout').catch(() => {});
    setConsoleToken(null);
    queryClient.removeQueries();
    message.success(text.shell.signedOut);
    navigate(paths.signIn.getHref(), { replace: true });
  };
  return (
    <ProLayout
      title={merchant.data?.name ?? text.signIn.title}
      logo={merchant.data?.light_logo || false}
      layout="mix"
      fixedHeader
      fixSiderbar
      siderWidth={208}
      location={{ pathname: location.pathname }}
      route={{ path: '/', routes: menu.filter((item) => me.data.actions.includes(item.action)) }}
      menuItemRender={(item, dom) => <Link to={item.path ?? '/'}>{dom}</Link>}
      onMenuHeaderClick={() => navigate(paths.overview.getHref())}
      avatarProps={{
        title: (
          <span className={styles.who} data-testid="operator">
            <span className={styles.whoName}>{operator.name}</span>
            <Tag color="blue" className={styles.role}>
              {operatorRoleLabel[operator.role]}
            </Tag>
          </span>
        ),
        size: 'small',
        src: undefined,
        children: operator.name.slice(0, 1),
      }}
      actionsRender={() => [
        <PasswordButton key="password" />,
        <Button key="logout" type="text" icon={<LogoutOutlined />} onClick={logout} aria-label={text.shell.logout}>
          <span className={styles.logoutText}>{text.shell.logout}</span>
        </Button>,
      ]}
    >
      <Outlet context={me.data} />
    </ProLayout>
  );
}
