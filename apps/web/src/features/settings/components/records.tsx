import { Button, Popconfirm, Table, type TableColumnsType } from 'antd';
import type { HTMLAttributes, ReactNode } from 'react';
import { formatDateTime } from '../../../lib/date-time.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { settingsText } from '../../../locales/zh-CN/settings.ts';
import styles from './records.module.css';

/** A record of the account's that a device left (a session, a trusted device). */
interface DeviceRecord {
  id: string;
  device: string;
  ip: string;
}

/** One fact of a record: a column of the table, and a line of the record's card on phones. */
export interface RecordField<T> {
  key: string;
  title: string;
  /** the record's field: an address (无 when there is none) or a time */
  field: keyof T & string;
  time?: boolean;
  /** false: a column of the table only */
  inCard?: boolean;
}

interface RecordsProps<T extends DeviceRecord> {
  items: T[];
  /** the list's test id, and each record's */
  testId: string;
  itemTestId: string;
  /** the record's extra attributes (data-current), on its row and on its card */
  itemData?: (item: T) => Record<`data-${string}`, unknown>;
  /** the titles of the device's column and of the action's */
  deviceTitle: string;
  actionTitle: string;
  /** the device with its tags; the record's action */
  name: (item: T) => ReactNode;
  action: (item: T) => ReactNode;
  fields: RecordField<T>[];
}

const shown = <T,>(item: T, field: RecordField<T>) => {
  const value = item[field.field] as string;
  return field.time ? formatDateTime(value) : value || settingsText.none;
};

/** The account's records of devices: a table, or on phones a card for each (its name and action, then its facts). */
export function Records<T extends DeviceRecord>({ items, testId, itemTestId, itemData, deviceTitle, actionTitle, name, action, fields }: RecordsProps<T>) {
  const narrow = useNarrowScreen();
  const data = (item: T) => ({ 'data-testid': itemTestId, ...itemData?.(item) });

  if (narrow) {
    return (
      <ul className={styles.cards} data-testid={testId}>
        {items.map((item) => (
          <li key={item.id} className={styles.card} {...data(item)}>
            <div className={styles.cardHead}>
              {name(item)}
              {action(item)}
            </div>
            <dl className={styles.meta}>
              {fields
                .filter((field) => field.inCard !== false)
                .flatMap((field) => [<dt key={`${field.key}-title`}>{field.title}</dt>, <dd key={field.key}>{shown(item, field)}</dd>])}
            </dl>
          </li>
        ))}
      </ul>
    );
  }

  const columns: TableColumnsType<T> = [
    { key: 'device', title: deviceTitle, render: (_, item) => name(item) },
    ...fields.map((field) => ({
      key: field.key,
      title: field.title,
      dataIndex: field.field,
      width: 150,
      render: (_: unknown, item: T) => (field.time ? <span className={styles.time}>{shown(item, field)}</span> : shown(item, field)),
    })),
    { key: 'action', title: actionTitle, width: 80, align: 'center', render: (_, item) => action(item) },
  ];
  return (
    <Table<T>
      className={styles.table}
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={items}
      pagination={false}
      onRow={(item) => data(item) as HTMLAttributes<HTMLElement>}
      data-testid={testId}
    />
  );
}

/** The device with its tags (当前会话, 待验证, …). */
export function RecordName({ device, children }: { device: string; children?: ReactNode }) {
  return (
    <span className={styles.device}>
      <span>{device}</span>
      {children}
    </span>
  );
}

export function RecordTag({ tone, children }: { tone: 'brand' | 'warning'; children: ReactNode }) {
  return <span className={`${styles.tag} ${tone === 'brand' ? styles.tagBrand : styles.tagWarning}`}>{children}</span>;
}

interface ConfirmLinkProps<A> {
  /** the request the link makes, by the record's id */
  request: { isPending: boolean; variables: string | undefined; mutateAsync: (id: string) => Promise<A> };
  id: string;
  /** the link's text, which the confirm's button repeats, and the confirm's question */
  label: string;
  confirm: string;
  /** once it is done: the notice's text, or what to do with the answer */
  done: string | ((answer: A) => void);
  /** it ends or removes something (red) */
  danger?: boolean;
  ariaLabel?: string;
  testId?: string;
}

/** A record's action (结束, 移除, 轮换密钥, …) asked again in a confirm, its button spinning while it runs. */
export function ConfirmLink<A>({ request, id, label, confirm, done, danger = false, ariaLabel, testId }: ConfirmLinkProps<A>) {
  return (
    <Popconfirm
      title={confirm}
      okText={label}
      cancelText={settingsText.cancel}
      okButtonProps={{ danger, loading: request.isPending && request.variables === id }}
      onConfirm={() => request.mutateAsync(id).then((answer) => (typeof done === 'string' ? notifySuccess(done) : done(answer)), () => {})}
    >
      <Button size="small" danger={danger} type="link" aria-label={ariaLabel} data-testid={testId}>
        {label}
      </Button>
    </Popconfirm>
  );
}

/** A record's 结束 or 移除 of a device's record, asked again in a confirm. */
export function EndRecordButton({ ending, id, device, label, confirm, done }: {
  /** the request that ends a record, by its id */
  ending: ConfirmLinkProps<unknown>['request'];
  id: string;
  device: string;
  label: string;
  confirm: string;
  done: string;
}) {
  return <ConfirmLink request={ending} id={id} label={label} confirm={confirm} done={done} danger ariaLabel={`${label} ${device}`} />;
}
