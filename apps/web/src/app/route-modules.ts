import { paths } from '../lib/paths.ts';

/** Sign-up, e-mail binding and recovery: one module (see account-screens.ts). */
const accountScreens = () => import('../features/auth/routes/account-screens.ts');

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
  signUp: () => accountScreens().then((screens) => ({ default: screens.SignUp })),
  signEmail: () => accountScreens().then((screens) => ({ default: screens.SignEmail })),
  forgetPassword: () => accountScreens().then((screens) => ({ default: screens.ForgetPassword })),
  changePasswordCheck: () => accountScreens().then((screens) => ({ default: screens.ChangePasswordCheck })),
  resetPassword: () => accountScreens().then((screens) => ({ default: screens.ResetPassword })),
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

// the account screens share one module (see accountScreens): any of them starts all
for (const path of [paths.signUp, paths.signEmail, paths.forgetPassword, paths.changePasswordCheck, paths.resetPassword]) {
  firstModules[path.path] = ['loginAreaLayout', 'queryLayout', 'signUp'];
}

export function preloadRouteModules(pathname: string) {
  for (const name of firstModules[pathname.replace(/\/+$/, '') || '/'] ?? []) {
    // a failed download is reported by the router when it needs the module
    routeModules[name]().catch(() => {});
  }
}
