import { createBrowserRouter } from 'react-router';
import { RouteError } from '../features/shell/route-error.tsx';
import { paths } from '../lib/paths.ts';
import { customerRoutes } from './customer-routes.tsx';

/** Every screen, lazily loaded; the shell (ProLayout) guards the signed-in ones. */
export const router = createBrowserRouter(
  [
    {
      path: paths.signIn.path,
      errorElement: <RouteError />,
      lazy: async () => ({ Component: (await import('../features/auth/sign-in-page.tsx')).SignInPage }),
    },
    {
      path: '/',
      errorElement: <RouteError />,
      lazy: async () => ({ Component: (await import('../features/shell/console-layout.tsx')).ConsoleLayout }),
      children: [
        { index: true, lazy: async () => ({ Component: (await import('../features/overview/overview-page.tsx')).OverviewPage }) },
        { path: paths.audit.path.slice(1), lazy: async () => ({ Component: (await import('../features/audit/audit-page.tsx')).AuditPage }) },
        { path: paths.operators.path.slice(1), lazy: async () => ({ Component: (await import('../features/operators/operators-page.tsx')).OperatorsPage }) },
        { path: paths.products.path.slice(1), lazy: async () => ({ Component: (await import('../features/products/products-page.tsx')).ProductsPage }) },
        { path: paths.content.path.slice(1), lazy: async () => ({ Component: (await import('../features/content/content-page.tsx')).ContentPage }) },
        { path: paths.deposits.path.slice(1), lazy: async () => ({ Component: (await import('../features/money/deposits-page.tsx')).DepositsPage }) },
        { path: paths.approvals.path.slice(1), lazy: async () => ({ Component: (await import('../features/money/approvals-page.tsx')).ApprovalsPage }) },
        ...customerRoutes,
        { path: '*', lazy: async () => ({ Component: (await import('../features/shell/not-found.tsx')).NotFound }) },
      ],
    },
  ],
  { basename: '/console' },
);
