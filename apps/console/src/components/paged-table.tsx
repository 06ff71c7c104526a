import { type ParamsType, ProTable, type ProTableProps } from '@ant-design/pro-components';
import { App } from 'antd';
import { useState } from 'react';

/**
 * A console list read page by page from one call: the filters above it (folded to the first on a phone),
 * 20/50/100 a page, a reload button, and a failed read told as a message. `request` answers ProTable's
 * `{data, total, success}`.
 */
export function PagedTable<T extends Record<string, unknown>, Q extends ParamsType = ParamsType>(props: ProTableProps<T, Q>) {
  const { message } = App.useApp();
  // read once, as the form is drawn: a phone (narrower than antd's sm) starts with the filters folded
  const [narrow] = useState(() => window.matchMedia('(max-width: 575.98px)').matches);
  return (
    <ProTable<T, Q>
      rowKey="id"
      cardBordered
      search={{ labelWidth: 'auto', defaultCollapsed: narrow }}
      pagination={{ defaultPageSize: 20, showSizeChanger: true, pageSizeOptions: [20, 50, 100] }}
      options={{ density: false, setting: false, reload: true }}
      onRequestError={(error) => message.error(error.message)}
      {...props}
    />
  );
}
