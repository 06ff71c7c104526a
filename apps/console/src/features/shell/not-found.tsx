import { Button, Result } from 'antd';
import { Link } from 'react-router';
import { paths } from '../../lib/paths.ts';
import { text } from '../../locales/zh-CN.ts';

export function NotFound() {
  return (
    <Result
      status="404"
      title={text.shell.notFound}
      extra={
        <Link to={paths.overview.getHref()}>
          <Button type="primary">{text.shell.home}</Button>
        </Link>
      }
    />
  );
}
