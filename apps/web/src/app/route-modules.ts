import { paths } from '../lib/paths.ts';

/**
 * The lazily loaded route modules. The router loads them on navigation; early-start.ts loads the
 * ones of the first address while the rest of the app is still starting, so the screen's code and
 * the app's code download together instead of one after the other.
 */
export const routeModules = {
  loginAreaLayout: () => import('./layouts/login-area-layout.tsx'),
  queryLayout: () => import('./layouts/query-layout.tsx'),
  notFound: () => import('./routes/not-found.tsx'),
  signIn: () => import('../features/auth/routes/sign-in.tsx'),
  agreement: () => import('../features/agreement/routes/agreement.tsx'),
  // signed in (spec §2): the layout and the screens of its allow-list
  signedInLayout: () => import('./layouts/signed-in-layout.tsx'),
  wallet: () => import('../features/wallet/routes/wallet.tsx'),
  settings: () => import('../features/settings/routes/settings.tsx'),
  informationCenter: () => import('../features/messages/routes/information-center.tsx'),
  informationAnnouncementDetails: () => import('../features/messages/routes/announcement-details.tsx'),
  card: () => import('../features/cards/routes/card.tsx'),
  createCard: () => import('../features/cards/routes/create-card.tsx'),
  cardDetails: () => import('../features/cards/routes/card-details.tsx'),
  bulkExport: () => import('../features/cards/routes/bulk-export.tsx'),
  createCardVerification: () => import('../features/cards/routes/card-verification.tsx'),
  createCardSecondaryVerificationData: () => import('../features/cards/routes/secondary-verification-data.tsx'),
};

type ModuleName = keyof typeof routeModules;

/** The modules each address needs first (the others load on navigation as usual). */
const firstModules: Record<string, ModuleName[]> = {
  [paths.signIn.path]: ['loginAreaLayout', 'signIn'],
  [paths.agreement.path]: ['queryLayout', 'agreement'],
};

export function preloadRouteModules(pathname: string) {
  for (const name of firstModules[pathname.replace(/\/+$/, '') || '/'] ?? []) {
    // a failed download is reported by the router when it needs the module
    routeModules[name]().catch(() => {});
  }
}
