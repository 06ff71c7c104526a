import { useDeferredValue } from 'react';
import { RouterProvider } from 'react-router';
import { PageSpinner } from '../components/page-spinner.tsx';
import { useMerchantStore } from '../stores/merchant.ts';
import { PortalTheme } from './portal-theme.tsx';
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

  // the spinner needs no antd: the theme is computed once, when the merchant's colour is known
  if (!failure && (isLoading || !merchant)) return <PageSpinner />;
  return <PortalTheme color={merchant?.color}>{failure ? <SiteUnavailable failure={failure} /> : <RouterProvider router={router} />}</PortalTheme>;
}
