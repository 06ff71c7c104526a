import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { useDeferredValue, useMemo } from 'react';
import { RouterProvider } from 'react-router';
import { PageSpinner } from '../components/page-spinner.tsx';
import { themeConfig } from '../lib/theme.ts';
import { useMerchantStore } from '../stores/merchant.ts';
import { router } from './router.tsx';
import { SiteUnavailable } from './site-unavailable.tsx';

/**
 * The portal: nothing is drawn until the merchant's branding is known (spec §1), then the theme is
 * applied through antd tokens and the routes take over.
 */
export function App() {
  // The first full render (theme, layout, screen) is the heaviest work of the start-up; as a deferred
  // render React splits it into short tasks, so the page stays responsive while it is drawn.
  const merchant = useDeferredValue(useMerchantStore((state) => state.merchant));
  const isLoading = useDeferredValue(useMerchantStore((state) => state.isLoading));
  const failure = useDeferredValue(useMerchantStore((state) => state.failure));
  const theme = useMemo(() => themeConfig(merchant?.color), [merchant?.color]);

  // the spinner needs no antd: the theme is computed once, when the merchant's colour is known
  if (!failure && (isLoading || !merchant)) return <PageSpinner />;
  return (
    <ConfigProvider locale={zhCN} theme={theme} button={{ autoInsertSpace: false }}>
      {failure ? <SiteUnavailable failure={failure} /> : <RouterProvider router={router} />}
    </ConfigProvider>
  );
}
