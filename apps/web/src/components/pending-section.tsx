import { Empty } from 'antd';

/** What a screen says while its content is still to come: one honest line, nothing pretended. */
export function PendingSection({ text }: { text: string }) {
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text} style={{ padding: '48px 0' }} />;
}
