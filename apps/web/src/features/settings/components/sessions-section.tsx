import type { AccountSession } from '@portal/contract/account';
import { Button, Popconfirm } from 'antd';
import { notifySuccess } from '../../../lib/notify.ts';
import { settingsText } from '../../../locales/zh-CN/settings.ts';
import { useEndOtherSessions } from '../api/end-other-sessions.ts';
import { useEndSession } from '../api/end-session.ts';
import { useSessions } from '../api/get-sessions.ts';
import { QueryState } from './query-state.tsx';
import { EndRecordButton, RecordName, type RecordField, Records, RecordTag } from './records.tsx';
import { SettingsSection } from './settings-section.tsx';

const text = settingsText.sessions;

const fields: RecordField<AccountSession>[] = [
  { key: 'ip', title: text.ip, field: 'ip' },
  { key: 'created', title: text.createdAt, field: 'created_at', time: true },
  { key: 'active', title: text.lastActiveAt, field: 'last_active_at', time: true },
];

/**
 * 登录会话: every live session (device, address, sign-in and last activity; this one marked), ended
 * one by one or all others at once. An ended session's open tabs log out at once.
 */
export function SessionsSection() {
  const sessions = useSessions();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const items = sessions.data ?? [];
  const others = items.filter((session) => !session.current).length;

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
        <Records<AccountSession>
          items={items}
          testId="sessions"
          itemTestId="session"
          itemData={(session) => ({ 'data-current': session.current })}
          deviceTitle={text.device}
          actionTitle={text.action}
          fields={fields}
          name={(session) => (
            <RecordName device={session.device}>
              {session.current ? <RecordTag tone="brand">{text.current}</RecordTag> : null}
              {session.stage === 'VERIFY' ? <RecordTag tone="warning">{text.pending}</RecordTag> : null}
            </RecordName>
          )}
          action={(session) =>
            session.current ? null : (
              <EndRecordButton ending={endOne} id={session.id} device={session.device} label={text.end} confirm={text.endConfirm} done={text.ended} />
            )
          }
        />
      </QueryState>
    </SettingsSection>
  );
}
