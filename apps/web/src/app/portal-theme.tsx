import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { type ReactNode, useMemo } from 'react';
import { themeConfig } from '../lib/theme.ts';

/**
 * antd in the merchant's theme, in Chinese: the one provider of the app and of the pages the server
 * draws (server-shell.tsx), which must give the same markup for the app to take a drawn page over.
 */
export function PortalTheme({ color, children }: { color: string | null | undefined; children: ReactNode }) {
  const theme = useMemo(() => themeConfig(color), [color]);
  return (
    <ConfigProvider locale={zhCN} theme={theme} button={{ autoInsertSpace: false }}>
      {children}
    </ConfigProvider>
  );
}
