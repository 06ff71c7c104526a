import type { ComponentType } from 'react';
import { createBrowserRouter, type LoaderFunctionArgs, redirect, type RouteObject } from 'react-router';
import { PageSpinner } from '../components/page-spinner.tsx';
import { paths } from '../lib/paths.ts';
import { useSessionStore } from '../stores/session.ts';
import { signedInGuard } from './layouts/signed-in-guard.ts';
import { layoutModules, type ScreenRoute, screenList } from './route-table.ts';
import { NetworkAnomaly } from './routes/network-anomaly.tsx';
import { RouteError } from './routes/route-error.tsx';

/** A lazily loaded route module whose default export is the screen. */
const page = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });

/** Offline on navigation: go to the network page instead (spec §2). */
function offlineGuard({ request }: LoaderFunctionArgs) {
  const { pathname } = new URL(request.url);
  if (typeof navigator !== 'undefined' && navigator.onLine === false && pathname !== paths.networkAnomaly.path) {
    return redirect(paths.networkAnomaly.getHref());
  }
  return null;
}

/** Routes below it get the query cache (TanStack Query). */
const withQuery = (children: RouteObject[]): RouteObject => ({ lazy: page(layoutModules.query), children });

const screensOf = (area: ScreenRoute['area']) => screenList.filter((screen) => screen.area === area);

/** A screen's route carries what layouts need to know of it (screen-handle.ts). */
const screenRoute = (screen: (typeof screenList)[number]): RouteObject => ({
  path: screen.path,
  lazy: page(screen.load),
  handle: { screen: { area: screen.area, ...(screen.menuKey ? { menuKey: screen.menuKey } : {}) } },
});

/** The table's routes of one area, those that use queries inside one withQuery entry. */
function routesOf(area: ScreenRoute['area'], alsoInQuery: RouteObject[] = []): RouteObject[] {
  const screens = screensOf(area);
  const inQuery = [...screens.filter((screen) => screen.query).map(screenRoute), ...alsoInQuery];
  return [...screens.filter((screen) => !screen.query).map(screenRoute), ...(inQuery.length > 0 ? [withQuery(inQuery)] : [])];
}

/**
 * The signed-in layout (spec §2): only the table's signed-in screens are drawn inside it; every other
 * path lands on its catch-all, the not-found page. Logged out, the guard sends the signed-in screens'
 * paths to /sign-in. All of it sits in the query cache.
 */
const signedInRoutes: RouteObject = {
  id: 'signed-in',
  loader: signedInGuard,
  shouldRevalidate: () => true,
  lazy: page(layoutModules.signedIn),
  children: [
    ...screensOf('signed-in').map(screenRoute),
    { path: '*', lazy: page(layoutModules.notFound) },
  ],
};

export const routes: RouteObject[] = [
  {
    id: 'root',
    loader: offlineGuard,
    // the guard runs on every navigation, not only the first
    shouldRevalidate: () => true,
    errorElement: <RouteError />,
    hydrateFallbackElement: <PageSpinner />,
    children: [
      {
        index: true,
        loader: () =>
          redirect(useSessionStore.getState().isLogin ? paths.wallet.getHref() : paths.signIn.getHref()),
      },
      // public account screens, drawn inside the login area layout (logo, footer)
      { lazy: page(layoutModules.loginArea), children: routesOf('login') },
      // screens with a layout of their own; the signed-in layout's catch-all answers every other path
      // with the not-found page
      ...routesOf('alone', [signedInRoutes]),
      // drawn without loading anything: it must work while the network is down
      { path: paths.networkAnomaly.path, Component: NetworkAnomaly },
    ],
  },
];

export const router = createBrowserRouter(routes);
