import { Button, Result } from 'antd';
import { useRouteError } from 'react-router';
import { text } from '../../locales/zh-CN.ts';

/** What a screen that failed to load or draw shows: the failure, and a way back. */
export function RouteError() {
  const error = useRouteError();
  return (
    <Result
      status="error"
      title={text.shell.failed}
      subTitle={error instanceof Error ? error.message : String(error ?? '')}
      extra={
        <Button type="primary" onClick={() => window.location.assign('/console/')}>
          {text.shell.home}
        </Button>
      }
    />
  );
}
