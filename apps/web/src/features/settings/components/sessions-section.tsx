import type { AccountSession } from '@portal/contract/account';
import { Button, Popconfirm, Table, type TableColumnsType } from 'antd';
import type { HTMLAttributes } from 'react';
import { formatDateTime } from '../../../lib/date-time.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { settingsText } from '../../../locales/zh-CN/settings.ts';
import { useEndOtherSessions } from '../api/end-other-sessions.ts';
import { useEndSession } from '../api/end-session.ts';
import { useSessions } from '../api/get-sessions.ts';
import { QueryState } from './query-state.tsx';
import styles from './records.module.css';
import { SettingsSection } from './settings-section.tsx';

const text = settingsText.sessions;

/**
 * 登录会话: every live session (device, address, sign-in and last activity; this one marked), ended
 * one by one or all others at once. An ended session's open tabs log out at once.
 */
export function SessionsSection() {
  const narrow = useNarrowScreen();
  const sessions = useSessions();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const items = sessions.data ?? [];
  const others = items.filter((session) => !session.current).length;

  const endButton = (session: AccountSession) =>
    session.current ? null : (
      <Popconfirm
        title={text.endConfirm}
        okText={text.end}
        cancelText={settingsText.cancel}
        okButtonProps={{ danger: true, loading: endOne.isPending && endOne.variables === session.id }}
        onConfirm={() => endOne.mutateAsync(session.id).then(() => notifySuccess(text.ended), () => {})}
      >
        <Button size="small" danger type="link" aria-label={`${text.end} ${session.device}`}>
          {text.end}
        </Button>
      </Popconfirm>
    );

  const name = (session: AccountSession) => (
    <span className={styles.device}>
      <span>{session.device}</span>
      {session.current ? <span className={`${styles.tag} ${styles.tagBrand}`}>{text.current}</span> : null}
      {session.stage === 'VERIFY' ? <span className={`${styles.tag} ${styles.tagWarning}`}>{text.pending}</span> : null}
    </span>
  );

  const columns: TableColumnsType<AccountSession> = [
    { key: 'device', title: text.device, render: (_, session) => name(session) },
    { key: 'ip', title: text.ip, dataIndex: 'ip', width: 150, render: (ip: string) => ip || settingsText.none },
    { key: 'created', title: text.createdAt, dataIndex: 'created_at', width: 150, render: (at: string) => <span className={styles.time}>{formatDateTime(at)}</span> },
    { key: 'active', title: text.lastActiveAt, dataIndex: 'last_active_at', width: 150, render: (at: string) => <span className={styles.time}>{formatDateTime(at)}</span> },
    { key: 'action', title: text.action, width: 80, align: 'center', render: (_, session) => endButton(session) },
  ];

  return (
    <SettingsSection
      id="sessions"
      title={text.title}
      description={text.description}
      extra={
        <Popconfirm
          title={text.endOthersConfirm}
          okText={text.endOthers}
          cancelText={settingsText.cancel}
          okButtonProps={{ danger: true, loading: endOthers.isPending }}
          onConfirm={() => endOthers.mutateAsync().then((answer) => notifySuccess(text.endedOthers(answer.ended_sessions)), () => {})}
          disabled={others === 0}
        >
          <Button danger disabled={others === 0} data-testid="end-other-sessions">
            {text.endOthers}
          </Button>
        </Popconfirm>
      }
    >
      <QueryState query={sessions} empty={items.length === 0 ? text.empty : false}>
        {narrow ? (
          <ul className={styles.cards} data-testid="sessions">
            {items.map((session) => (
              <li key={session.id} className={styles.card} data-testid="session" data-current={session.current}>
                <div className={styles.cardHead}>
                  {name(session)}
                  {endButton(session)}
                </div>
                <dl className={styles.meta}>
                  <dt>{text.ip}</dt>
                  <dd>{session.ip || settingsText.none}</dd>
                  <dt>{text.createdAt}</dt>
                  <dd>{formatDateTime(session.created_at)}</dd>
                  <dt>{text.lastActiveAt}</dt>
                  <dd>{formatDateTime(session.last_active_at)}</dd>
                </dl>
              </li>
            ))}
          </ul>
        ) : (
          <Table<AccountSession>
            className={styles.table}
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={items}
            pagination={false}
            onRow={(session) => ({ 'data-testid': 'session', 'data-current': session.current }) as HTMLAttributes<HTMLElement>}
            data-testid="sessions"
          />
        )}
      </QueryState>
    </SettingsSection>
  );
}
