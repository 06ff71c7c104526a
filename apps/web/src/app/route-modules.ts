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
