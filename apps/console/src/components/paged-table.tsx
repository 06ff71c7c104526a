import { type ParamsType, ProTable, type ProTableProps } from '@ant-design/pro-components';
import { App } from 'antd';

/**
 * A console list read page by page from one call: the filters above it, 20/50/100 a page, a reload button,
 * and a failed read told as a message. `request` answers ProTable's `{data, total, success}`.
 */
export function PagedTable<T extends Record<string, unknown>, Q extends ParamsType = ParamsType>(props: ProTableProps<T, Q>) {
  const { message } = App.useApp();
  return (
    <ProTable<T, Q>
      rowKey="id"
      cardBordered
      search={{ labelWidth: 'auto', defaultCollapsed: false }}
      pagination={{ defaultPageSize: 20, showSizeChanger: true, pageSizeOptions: [20, 50, 100] }}
      options={{ density: false, setting: false, reload: true }}
      onRequestError={(error) => message.error(error.message)}
      {...props}
    />
  );
}
