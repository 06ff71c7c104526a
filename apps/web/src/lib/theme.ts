import type { Merchant } from '@portal/contract/merchant';
import { pageBranding, themeFor } from '@portal/contract/theme';
import type { ThemeConfig } from 'antd';

const FONT_FAMILY =
  "-apple-system, BlinkMacSystemFont, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Source Han Sans SC', 'Helvetica Neue', Arial, sans-serif";

/**
 * The one set of antd CSS variables of the page. Nested ConfigProviders name the same set, so they
 * reuse the tokens instead of computing and writing them again.
 */
export const THEME_CSS_VAR = { key: 'portal-theme' } as const;

/** antd theme tokens for a merchant colour (spec §9): the primary colour drives buttons, links, focus. */
export function themeConfig(color: string | null | undefined): ThemeConfig {
  const { primary, link, onPrimary } = themeFor(color);
  return {
    cssVar: THEME_CSS_VAR,
    token: {
      colorPrimary: primary,
      colorLink: link,
      colorInfo: primary,
      // text drawn in the theme colour uses its readable shade, as links do
      colorPrimaryText: link,
      colorPrimaryTextHover: link,
      colorPrimaryTextActive: link,
      borderRadius: 8,
      controlHeight: 40,
      fontFamily: FONT_FAMILY,
    },
    // buttons keep the brand colour, with text that reads on it (4.5 : 1)
    components: { Button: { primaryColor: onPrimary } },
  };
}

/**
 * Applies the branding outside React's tree as soon as the merchant is known: the theme colour and its
 * tint as CSS variables for our own styles, the website in upper case as the page title, the
 * merchant's favicon, and an early download of the logo.
 */
export function applyBranding(merchant: Pick<Merchant, 'color' | 'website' | 'favicon' | 'dark_logo'>, doc: Document = document) {
  const { title, cssVariables, faviconType } = pageBranding(merchant);
  for (const [name, value] of Object.entries(cssVariables)) doc.documentElement.style.setProperty(name, value);
  doc.title = title;
  let icon = doc.querySelector<HTMLLinkElement>('link[rel~="icon"]');
  if (!icon) {
    icon = doc.createElement('link');
    icon.rel = 'icon';
    doc.head.appendChild(icon);
  }
  icon.href = merchant.favicon;
  if (faviconType) icon.type = faviconType;
  else icon.removeAttribute('type');
  // every layout shows the dark logo: fetch it while the first screen is still being drawn
  if (merchant.dark_logo && !doc.querySelector('link[rel="preload"][data-logo]')) {
    const preload = doc.createElement('link');
    preload.rel = 'preload';
    preload.as = 'image';
    preload.href = merchant.dark_logo;
    preload.dataset.logo = '';
    doc.head.appendChild(preload);
  }
}
