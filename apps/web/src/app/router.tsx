import type { ComponentType } from 'react';
import { createBrowserRouter, type LoaderFunctionArgs, redirect, type RouteObject } from 'react-router';
import { PageSpinner } from '../components/page-spinner.tsx';
import { paths } from '../lib/paths.ts';
import { useSessionStore } from '../stores/session.ts';
import { NetworkAnomaly } from './routes/network-anomaly.tsx';
import { routeModules } from './route-modules.ts';
import { RouteError } from './routes/route-error.tsx';
import { signedInGuard } from './layouts/signed-in-guard.ts';

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
const withQuery = (children: RouteObject[]): RouteObject => ({ lazy: page(routeModules.queryLayout), children });

/**
 * Public account screens, drawn inside the login area layout (logo, footer). Sign-in stays outside the
 * query cache to keep its first load small; screens that use queries sit in a withQuery([...]) entry.
 */
const loginAreaRoutes: RouteObject[] = [
  { path: paths.signIn.path, lazy: page(routeModules.signIn) },
  withQuery([
    { path: paths.signUp.path, lazy: page(routeModules.signUp) },
    { path: paths.signEmail.path, lazy: page(routeModules.signEmail) },
    { path: paths.forgetPassword.path, lazy: page(routeModules.forgetPassword) },
    { path: paths.changePasswordCheck.path, lazy: page(routeModules.changePasswordCheck) },
    { path: paths.resetPassword.path, lazy: page(routeModules.resetPassword) },
  ]),
];

/**
 * The signed-in layout (spec §2): only its allow-listed paths draw a screen inside it; every other
 * path lands on its catch-all, the not-found page. Logged out, the guard sends the allow-listed paths
 * to /sign-in.
 */
const signedInRoutes: RouteObject = {
  id: 'signed-in',
  loader: signedInGuard,
  shouldRevalidate: () => true,
  lazy: page(routeModules.signedInLayout),
  children: [
    { path: paths.wallet.path, lazy: page(routeModules.wallet) },
    { path: paths.settings.path, lazy: page(routeModules.settings) },
    { path: paths.informationCenter.path, lazy: page(routeModules.informationCenter) },
    { path: paths.informationAnnouncementDetails.path, lazy: page(routeModules.informationAnnouncementDetails) },
    { path: paths.card.path, lazy: page(routeModules.card) },
    { path: paths.createCard.path, lazy: page(routeModules.createCard) },
    { path: paths.cardDetails.path, lazy: page(routeModules.cardDetails) },
    { path: paths.bulkExport.path, lazy: page(routeModules.bulkExport) },
    { path: paths.createCardVerification.path, lazy: page(routeModules.createCardVerification) },
    { path: paths.createCardSecondaryVerificationData.path, lazy: page(routeModules.createCardSecondaryVerificationData) },
    { path: '*', lazy: page(routeModules.notFound) },
  ],
};

/** Screens with a layout of their own. */
const otherRoutes: RouteObject[] = [
  withQuery([{ path: paths.agreement.path, lazy: page(routeModules.agreement) }, signedInRoutes]),
  // drawn without loading anything: it must work while the network is down
  { path: paths.networkAnomaly.path, Component: NetworkAnomaly },
];

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
      { lazy: page(routeModules.loginAreaLayout), children: loginAreaRoutes },
      // the signed-in layout's catch-all answers every other path with the not-found page
      ...otherRoutes,
    ],
  },
];

export const router = createBrowserRouter(routes);
