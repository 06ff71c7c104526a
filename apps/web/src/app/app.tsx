import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { type ReactNode, useEffect, useMemo } from 'react';
import { RouterProvider } from 'react-router';
import { PageSpinner } from '../components/page-spinner.tsx';
import { applyBranding, themeConfig } from '../lib/theme.ts';
import { useMerchantStore } from '../stores/merchant.ts';
import { router } from './router.tsx';
import { SiteUnavailable } from './site-unavailable.tsx';

/**
 * The portal: nothing is drawn until the merchant's branding is known (spec §1), then the theme is
 * applied through antd tokens and the routes take over.
 */
export function App() {
  const merchant = useMerchantStore((state) => state.merchant);
  const isLoading = useMerchantStore((state) => state.isLoading);
  const failure = useMerchantStore((state) => state.failure);
  const theme = useMemo(() => themeConfig(merchant?.color), [merchant?.color]);

  useEffect(() => {
    if (merchant) applyBranding(merchant);
  }, [merchant]);

  let content: ReactNode;
  if (failure) content = <SiteUnavailable failure={failure} />;
  else if (isLoading || !merchant) content = <PageSpinner />;
  else content = <RouterProvider router={router} />;

  return (
    <ConfigProvider locale={zhCN} theme={theme} button={{ autoInsertSpace: false }}>
      {content}
    </ConfigProvider>
  );
}
