import { ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { THEME_CSS_VAR } from '../lib/theme.ts';

const prebuilt = { zeroRuntime: true, cssVar: THEME_CSS_VAR } as const;

/**
 * antd components below use prebuilt stylesheet rules instead of generating their styles at run time
 * (antd's zero-runtime mode), which saves much of a screen's start-up CPU time. The screen imports
 * the rules of exactly the antd components it draws here:
 *
 *     import 'virtual:antd-prebuilt.css?components=btn,input,wave';
 *
 * (see vite.config.ts). A component whose rules are not imported is drawn unstyled, so keep the list
 * in step with the components used.
 */
export function PrebuiltStyles({ children }: { children: ReactNode }) {
  return <ConfigProvider theme={prebuilt}>{children}</ConfigProvider>;
}
