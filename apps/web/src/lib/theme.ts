import type { Merchant } from '@portal/contract/merchant';
import { INK_SECONDARY, pageBranding, themeFor } from '@portal/contract/theme';
import type { ThemeConfig } from 'antd';

const FONT_FAMILY =
  "-apple-system, BlinkMacSystemFont, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Source Han Sans SC', 'Helvetica Neue', Arial, sans-serif";

/**
 * The one set of antd CSS variables of the page. Nested ConfigProviders name the same set, so they
 * reuse the tokens instead of computing and writing them again.
 */
export const THEME_CSS_VAR = { key: 'portal-theme' } as const;

/**
 * Text in a status colour: antd's own error, warning and success colours are 3.3, 2.0 and 2.3 : 1 on
 * white; these darker shades of the same hues reach 4.5 : 1 on white and on their light backgrounds.
 */
export const STATUS_TEXT = { error: '#CF1322', warning: '#AD4E00', success: '#237804' } as const;

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
      // field errors, the danger menu entry and error tags are text: its error red must read on white
      colorError: STATUS_TEXT.error,
      // secondary text (descriptions' labels, empty states, placeholders) in the portal's readable grey
      colorTextTertiary: INK_SECONDARY,
      colorTextDescription: INK_SECONDARY,
      colorTextPlaceholder: INK_SECONDARY,
      borderRadius: 8,
      controlHeight: 40,
      fontFamily: FONT_FAMILY,
    },
    components: {
      // buttons keep the brand colour, with text that reads on it (4.5 : 1)
      Button: { primaryColor: onPrimary },
      // a chosen tab or page number is text: drawn in the readable shade, the brand colour marks it
      Tabs: { itemSelectedColor: link, itemHoverColor: link, itemActiveColor: link },
      Pagination: { itemActiveColor: link, itemActiveColorHover: link },
      // a status tag's text, on the light background antd draws it on
      Tag: { colorSuccess: STATUS_TEXT.success, colorWarning: STATUS_TEXT.warning },
    },
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
