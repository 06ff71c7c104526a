import { Button } from 'antd';
import { Navigate, useNavigate, useRouteError } from 'react-router';
import { FullPageMessage } from '../../components/full-page-message.tsx';
import { RouteErrorIllustration } from '../../components/illustrations/route-error-illustration.tsx';
import { resetMenuKey } from '../../lib/menu-key.ts';
import { paths } from '../../lib/paths.ts';
import { commonText } from '../../locales/zh-CN/common.ts';

/** A screen's code could not be fetched: a new release replaced the old files, or the network dropped it. */
const isStaleChunk = (error: unknown) =>
  error instanceof Error && /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(error.message);

/** The generic error page for anything a route throws (spec §2). */
export function RouteError() {
  const error = useRouteError();
  const navigate = useNavigate();

  if (typeof navigator !== 'undefined' && navigator.onLine === false) {
    return <Navigate to={paths.networkAnomaly.getHref()} replace />;
  }
  if (isStaleChunk(error)) {
    return (
      <FullPageMessage
        image={<RouteErrorIllustration />}
        title={commonText.staleVersionTitle}
        detail={commonText.staleVersionDescription}
        actions={
          <Button type="primary" onClick={() => window.location.reload()}>
            {commonText.refresh}
          </Button>
        }
      />
    );
  }
  return (
    <FullPageMessage
      image={<RouteErrorIllustration />}
      title={commonText.routeErrorTitle}
      detail={commonText.routeErrorDescription}
      actions={
        <Button
          type="primary"
          onClick={() => {
            resetMenuKey();
            navigate(paths.wallet.getHref());
          }}
        >
          {commonText.goWallet}
        </Button>
      }
    />
  );
}
