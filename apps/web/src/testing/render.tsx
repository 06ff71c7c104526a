import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { type Location, MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { PortalTheme } from '../app/portal-theme.tsx';
import { setNotifier, setSuccessNotifier } from '../lib/notify.ts';

/**
 * Draws a screen or component as the app does (antd in the portal's theme and locale, router and
 * query cache around it), without a server: a test stubs the calls it expects on `http`
 * (`vi.spyOn(http, 'post')`). What it answers: the router's location after navigations, the query
 * cache, and every notice shown.
 */
export function renderScreen(ui: ReactElement, { at = '/', state }: { at?: string; state?: unknown } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const location: { current: Location | null } = { current: null };
  function LocationProbe() {
    location.current = useLocation();
    return null;
  }
  const notices = captureNotices();
  const { pathname, search } = new URL(at, 'http://portal.test');
  const view = render(
    <PortalTheme color={null}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[{ pathname, search, state }]}>
          <Routes>
            <Route
              path="*"
              element={
                <>
                  {ui}
                  <LocationProbe />
                </>
              }
            />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </PortalTheme>,
  );
  return { ...view, queryClient, location, notices };
}

/** Every error and success notice shown from now on (the app shows them as toasts). */
export function captureNotices() {
  const shown = { errors: [] as string[], successes: [] as string[] };
  setNotifier((text) => shown.errors.push(text));
  setSuccessNotifier((text) => shown.successes.push(text));
  return shown;
}
