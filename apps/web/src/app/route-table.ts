import type { ComponentType } from 'react';
import { type PathName, paths } from '../lib/paths.ts';
import type { ScreenHandle } from './screen-handle.ts';

/**
 * Every screen of the portal, declared once: the router builds its routes from this table, the
 * signed-in guard its allow-list, the signed-in layout its selected menu entry, and early-start.ts
 * the modules it starts with the app. A screen's address and href builder are in lib/paths.ts under
 * the same name (features link to them); TypeScript holds the two in step.
 *
 * This file is also the early-start entry's whole graph: it holds data and lazy imports only, no
 * React, router or antd code.
 */

/** A lazily loaded route module whose default export is the screen. */
type ScreenModule = () => Promise<{ default: ComponentType }>;

export interface ScreenRoute extends ScreenHandle {
  /** The screen's module, loaded on navigation (and early for the first address, see below). */
  load: ScreenModule;
  /**
   * Where it is drawn: inside the login area layout (logo, footer), inside the signed-in layout
   * (header, menu, bell; logged out it sends the visitor to /sign-in), or on a layout of its own.
   */
  area: ScreenHandle['area'];
  /** It uses queries, so it sits inside the query cache (signed-in screens always do). */
  query?: true;
}

/** Sign-up, e-mail binding and recovery: one module (see account-screens.ts). */
const accountScreens = () => import('../features/auth/routes/account-screens.ts');

/** The layouts and pages the router draws around and besides the screens. */
export const layoutModules = {
  loginArea: () => import('./layouts/login-area-layout.tsx'),
  query: () => import('./layouts/query-layout.tsx'),
  signedIn: () => import('./layouts/signed-in-layout.tsx'),
  notFound: () => import('./routes/not-found.tsx'),
} satisfies Record<string, ScreenModule>;

/**
 * The screens, by their name in `paths`. `home` only redirects and `networkAnomaly` is drawn
 * without loading anything (it must work while the network is down): the router declares both.
 */
export const screenRoutes: Record<Exclude<PathName, 'home' | 'networkAnomaly'>, ScreenRoute> = {
  // Sign-in stays outside the query cache to keep its first load small.
  signIn: { area: 'login', load: () => import('../features/auth/routes/sign-in.tsx') },
  signUp: { area: 'login', query: true, load: () => accountScreens().then((screens) => ({ default: screens.SignUp })) },
  signEmail: { area: 'login', query: true, load: () => accountScreens().then((screens) => ({ default: screens.SignEmail })) },
  forgetPassword: { area: 'login', query: true, load: () => accountScreens().then((screens) => ({ default: screens.ForgetPassword })) },
  changePasswordCheck: {
    area: 'login',
    query: true,
    load: () => accountScreens().then((screens) => ({ default: screens.ChangePasswordCheck })),
  },
  resetPassword: { area: 'login', query: true, load: () => accountScreens().then((screens) => ({ default: screens.ResetPassword })) },
  agreement: { area: 'alone', query: true, load: () => import('../features/agreement/routes/agreement.tsx') },
  wallet: { area: 'signed-in', menuKey: 'wallet', load: () => import('../features/wallet/routes/wallet.tsx') },
  settings: { area: 'signed-in', menuKey: 'settings', load: () => import('../features/settings/routes/settings.tsx') },
  informationCenter: { area: 'signed-in', load: () => import('../features/messages/routes/information-center.tsx') },
  informationAnnouncementDetails: { area: 'signed-in', load: () => import('../features/messages/routes/announcement-details.tsx') },
  card: { area: 'signed-in', menuKey: 'card', load: () => import('../features/cards/routes/card.tsx') },
  createCard: { area: 'signed-in', menuKey: 'card', load: () => import('./routes/create-card.tsx') },
  cardDetails: { area: 'signed-in', menuKey: 'card', load: () => import('./routes/card-details.tsx') },
  spendingAnalysis: { area: 'signed-in', menuKey: 'spendingAnalysis', load: () => import('../features/analysis/routes/spending-analysis.tsx') },
  bulkExport: { area: 'signed-in', menuKey: 'bulkExport', load: () => import('../features/batches/routes/bulk-export.tsx') },
  createCardVerification: { area: 'signed-in', menuKey: 'card', load: () => import('../features/cards/routes/card-verification.tsx') },
  createCardSecondaryVerificationData: {
    area: 'signed-in',
    menuKey: 'card',
    load: () => import('../features/cards/routes/secondary-verification-data.tsx'),
  },
};

/** The table's screens with their paths, in the order declared. */
export const screenList = Object.entries(screenRoutes).map(([name, route]) => ({
  ...route,
  path: paths[name as keyof typeof screenRoutes].path,
}));

/** A path as the table writes it: no trailing slash, the root as `/`. */
const normalPath = (pathname: string) => pathname.replace(/\/+$/, '') || '/';

/** The screen drawn at `pathname`, if it is one of the table's. */
export const screenAt = (pathname: string) => screenList.find((screen) => screen.path === normalPath(pathname));

/**
 * Starts the modules the first address needs, so the screen's code and the app's code download
 * together instead of one after the other; the router loads the rest on navigation. Only screens
 * outside the signed-in layout are started: logged out, a signed-in address ends on /sign-in.
 */
export function preloadRouteModules(pathname: string) {
  const screen = screenAt(pathname);
  if (!screen || screen.area === 'signed-in') return;
  const modules = [screen.area === 'login' ? layoutModules.loginArea : null, screen.query ? layoutModules.query : null, screen.load];
  for (const load of modules) {
    // a failed download is reported by the router when it needs the module
    load?.().catch(() => {});
  }
}
