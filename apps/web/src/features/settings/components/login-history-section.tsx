import type { LoginAttempt } from '@portal/contract/account';
import { type LoginResult, loginMethodLabel, loginResultLabel } from '@portal/contract/enums';
import { Button, Table, type TableColumnsType } from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { formatDateTime } from '../../../lib/date-time.ts';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { settingsText } from '../../../locales/zh-CN/settings.ts';
import { useLoginHistory } from '../api/get-login-history.ts';
import { QueryState } from './query-state.tsx';
import styles from './records.module.css';
import { SettingsSection } from './settings-section.tsx';

const text = settingsText.history;
const PAGE_SIZE = 10;

/** A result in its colour: a success, a step still to come, or a refusal. */
function ResultTag({ result }: { result: LoginResult }) {
  const tone = result === 'SUCCESS' ? styles.tagSuccess : result === 'VERIFICATION_REQUIRED' ? styles.tagWarning : styles.tagError;
  return (
    <span className={`${styles.tag} ${tone}`} data-testid="login-result">
      {loginResultLabel[result]}
    </span>
  );
}

/** 登录记录: the newest 50 sign-in attempts: time, how, how it ended, from where. */
export function LoginHistorySection() {
  const narrow = useNarrowScreen();
  const history = useLoginHistory();
  const items = history.data ?? [];
  // a phone shows them ten at a time
  const [shown, setShown] = useState(PAGE_SIZE);

  const columns: TableColumnsType<LoginAttempt> = [
    { key: 'at', title: text.at, dataIndex: 'at', width: 170, render: (at: string) => <span className={styles.time}>{formatDateTime(at, { seconds: true })}</span> },
    { key: 'method', title: text.method, dataIndex: 'method', width: 200, render: (method: LoginAttempt['method']) => loginMethodLabel[method] },
    { key: 'result', title: text.result, dataIndex: 'result', width: 120, render: (result: LoginResult) => <ResultTag result={result} /> },
    { key: 'ip', title: text.ip, dataIndex: 'ip', width: 150, render: (ip: string) => ip || settingsText.none },
    { key: 'device', title: text.device, dataIndex: 'device', ellipsis: true },
  ];

  return (
    <SettingsSection id="history" title={text.title} description={text.description}>
      <QueryState query={history} rows={5} empty={items.length === 0 ? text.empty : false}>
        {narrow ? (
          <>
            <ul className={styles.cards} data-testid="login-history">
              {items.slice(0, shown).map((attempt) => (
                <li key={attempt.id} className={styles.card} data-testid="login-attempt">
                  <div className={styles.cardHead}>
                    <span className={styles.time}>{formatDateTime(attempt.at, { seconds: true })}</span>
                    <ResultTag result={attempt.result} />
                  </div>
                  <dl className={styles.meta}>
                    <dt>{text.method}</dt>
                    <dd>{loginMethodLabel[attempt.method]}</dd>
                    <dt>{text.ip}</dt>
                    <dd>{attempt.ip || settingsText.none}</dd>
                    <dt>{text.device}</dt>
                    <dd>{attempt.device}</dd>
                  </dl>
                </li>
              ))}
            </ul>
            {items.length > shown ? (
              <Button block className={styles.more} onClick={() => setShown((before) => before + PAGE_SIZE)}>
                {text.more(items.length - shown)}
              </Button>
            ) : null}
          </>
        ) : (
          <Table<LoginAttempt>
            className={styles.table}
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={items}
            pagination={items.length > PAGE_SIZE ? { pageSize: PAGE_SIZE, showSizeChanger: false, size: 'small' } : false}
            onRow={() => ({ 'data-testid': 'login-attempt' }) as HTMLAttributes<HTMLElement>}
            data-testid="login-history"
          />
        )}
      </QueryState>
    </SettingsSection>
  );
}
