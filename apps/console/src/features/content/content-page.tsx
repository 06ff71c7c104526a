import { PageContainer } from '@ant-design/pro-components';
import type { ConsoleAgreement, ConsoleAnnouncement } from '@portal/contract/console-admin';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, List, Popconfirm, Tabs, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useOutletContext } from 'react-router';
import { callConsole } from '../../lib/http.ts';
import { useRefusal } from '../../lib/use-refusal.ts';
import { text } from '../../locales/zh-CN.ts';
import { adminText } from '../../locales/zh-CN-admin.ts';
import styles from './content.module.css';

const t = adminText.content;

const announcementsQuery = queryOptions({ queryKey: ['announcements'], queryFn: () => callConsole('announcements', { query: { page: 1, page_size: 50 } }) });
const agreementsQuery = queryOptions({ queryKey: ['agreements'], queryFn: () => callConsole('agreements') });

/** The merchant's announcements to every customer and its user agreements; an ADMIN publishes new ones. */
export function ContentPage() {
  const me = useOutletContext<{ actions: string[] }>();
  const mayPublish = me.actions.includes('content.publish');
  return (
    <PageContainer title={t.title}>
      {mayPublish ? null : <Alert type="warning" showIcon title={t.readOnly} style={{ marginBottom: 16 }} />}
      <Tabs
        items={[
          { key: 'announcements', label: t.announcements, children: <Announcements mayPublish={mayPublish} /> },
          { key: 'agreements', label: t.agreements, children: <Agreements mayPublish={mayPublish} /> },
        ]}
      />
    </PageContainer>
  );
}

interface Draft {
  title: string;
  content: string;
}

/** A title and an HTML text, published after a confirmation; a refusal is shown on its field. */
function PublishForm({ heading, hint, confirm, onPublish }: { heading: string; hint: string; confirm: string; onPublish: (draft: Draft) => Promise<unknown> }) {
  const [form] = Form.useForm<Draft>();
  const { message } = App.useApp();
  const { refusal, show, clear } = useRefusal();
  const publish = useMutation({
    mutationFn: onPublish,
    onSuccess: () => {
      form.resetFields();
      message.success(t.published);
    },
    onError: (error) => show(error, form),
  });
  return (
    <Card title={heading} size="small" className={styles.card}>
      <Typography.Paragraph type="secondary">{hint}</Typography.Paragraph>
      {refusal ? <Alert type="error" showIcon title={refusal} className={styles.notice} role="alert" /> : null}
      <Form<Draft> form={form} layout="vertical" onFinish={(draft) => publish.mutate(draft)} onValuesChange={clear}>
        <Form.Item name="title" label={t.titleLabel} rules={[{ required: true, whitespace: true, message: t.titlePlaceholder }]}>
          <Input maxLength={100} placeholder={t.titlePlaceholder} />
        </Form.Item>
        <Form.Item name="content" label={t.contentLabel} rules={[{ required: true, whitespace: true, message: t.contentPlaceholder }]}>
          <Input.TextArea rows={6} placeholder={t.contentPlaceholder} />
        </Form.Item>
        <Popconfirm title={confirm} onConfirm={() => form.submit()} okText={t.publish} cancelText="取消">
          <Button type="primary" loading={publish.isPending}>
            {t.publish}
          </Button>
        </Popconfirm>
      </Form>
    </Card>
  );
}

function Announcements({ mayPublish }: { mayPublish: boolean }) {
  const queryClient = useQueryClient();
  const list = useQuery(announcementsQuery);
  return (
    <div className={styles.columns}>
      {mayPublish ? (
        <PublishForm
          heading={t.newAnnouncement}
          hint={t.announcementHint}
          confirm={t.confirmAnnouncement}
          onPublish={async (draft) => {
            await callConsole('publishAnnouncement', { body: draft });
            await queryClient.invalidateQueries({ queryKey: announcementsQuery.queryKey });
          }}
        />
      ) : null}
      <Card title={t.announcements} size="small" className={styles.card}>
        <List<ConsoleAnnouncement>
          loading={list.isPending}
          dataSource={list.data?.items ?? []}
          locale={{ emptyText: list.isError ? list.error.message : text.common.empty }}
          renderItem={(item) => (
            <List.Item>
              <List.Item.Meta
                title={item.title}
                description={
                  <>
                    <span className={styles.when}>{dayjs(item.published_at).format('YYYY-MM-DD HH:mm')}</span>
                    <span className={styles.excerpt}>{excerpt(item.content)}</span>
                  </>
                }
              />
            </List.Item>
          )}
        />
      </Card>
    </div>
  );
}

function Agreements({ mayPublish }: { mayPublish: boolean }) {
  const queryClient = useQueryClient();
  const list = useQuery(agreementsQuery);
  return (
    <div className={styles.columns}>
      {mayPublish ? (
        <PublishForm
          heading={t.newAgreement}
          hint={t.agreementHint}
          confirm={t.confirmAgreement}
          onPublish={async (draft) => {
            await callConsole('publishAgreement', { body: { title: draft.title, text: draft.content } });
            await queryClient.invalidateQueries({ queryKey: agreementsQuery.queryKey });
          }}
        />
      ) : null}
      <Card title={t.agreements} size="small" className={styles.card}>
        <List<ConsoleAgreement>
          loading={list.isPending}
          dataSource={list.data?.items ?? []}
          locale={{ emptyText: list.isError ? list.error.message : text.common.empty }}
          renderItem={(item, index) => (
            <List.Item>
              <List.Item.Meta
                title={
                  <>
                    {item.title} {index === 0 ? <Tag color="green">{t.current}</Tag> : null}
                  </>
                }
                description={`${t.publishedAt} ${dayjs(item.published_at).format('YYYY-MM-DD HH:mm')} · ${t.characters} ${item.characters}`}
              />
            </List.Item>
          )}
        />
      </Card>
    </div>
  );
}

/** The text of an HTML content, shortened: what a list shows of it (never its markup). */
function excerpt(html: string) {
  const plain = new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
  return plain.length > 80 ? `${plain.slice(0, 80)}…` : plain;
}
