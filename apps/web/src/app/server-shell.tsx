// The server's renderer of first screens (built with `vite build --ssr`, loaded by the server): the
// login area and its screen drawn to HTML with the real components, for the merchant of the request,
// so the page is on screen before any script of the app has run. The browser later starts the app,
// which takes the page over (src/lib/shell.ts).
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import type { Merchant } from '@portal/contract/merchant';
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router';
import SignIn from '../features/auth/routes/sign-in.tsx';
import { paths } from '../lib/paths.ts';
import { ServerMerchantContext } from '../stores/merchant.ts';
import LoginAreaLayout from './layouts/login-area-layout.tsx';
import { PortalTheme } from './portal-theme.tsx';

/**
 * The screens the server draws, by path (each a login-area screen that needs no session), with the
 * source files of their route modules (keys of the client build's manifest), whose stylesheets the
 * server links and whose scripts it has prefetched.
 */
const screens: Record<string, { Screen: ComponentType; sources: readonly string[] }> = {
  [paths.signIn.path]: { Screen: SignIn, sources: ['src/app/layouts/login-area-layout.tsx', 'src/features/auth/routes/sign-in.tsx'] },
};

/** The drawn paths and their route modules' source files, for the server. */
export const shellSources: Record<string, readonly string[]> = Object.fromEntries(
  Object.entries(screens).map(([pathname, { sources }]) => [pathname, sources]),
);

export interface RenderedShell {
  /** The markup of the page, to go inside <div id="root">. */
  html: string;
  /** antd's style elements for that markup (its theme's CSS variables). */
  styles: string;
}

/** Draws the screen of `pathname` for `merchant`; null when the server does not draw that path. */
export function renderShell(pathname: string, merchant: Merchant): RenderedShell | null {
  const Screen = screens[pathname]?.Screen;
  if (!Screen) return null;
  const cache = createCache();
  const html = renderToString(
    <ServerMerchantContext value={merchant}>
      <StyleProvider cache={cache}>
        <PortalTheme color={merchant.color}>
          <MemoryRouter initialEntries={[pathname]}>
            <Routes>
              <Route element={<LoginAreaLayout />}>
                <Route path={pathname} element={<Screen />} />
              </Route>
            </Routes>
          </MemoryRouter>
        </PortalTheme>
      </StyleProvider>
    </ServerMerchantContext>,
  );
  return { html, styles: extractStyle(cache) };
}
