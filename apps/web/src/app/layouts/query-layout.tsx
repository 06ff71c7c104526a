import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { queryClient } from '../../lib/query-client.ts';

/**
 * Gives the routes below it the query cache. It is a lazy layout route, not a wrapper around the
 * whole app, so the sign-in screen's first load does not carry the query library.
 */
export default function QueryLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
