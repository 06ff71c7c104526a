import type { MerchantColor } from './enums.ts';

/**
 * Spec §9 theme colours, with the light background tint each theme uses, and a darker shade of the
 * same hue for text links, which must stay readable on white (contrast of at least 4.5 : 1).
 */
export const themeColors: Record<MerchantColor, { primary: string; tint: string; link: string; name: string }> = {
  MERCHANT_COLOR_BLUE: { primary: '#3399FF', tint: '#EBF5FF', link: '#1765C1', name: 'blue' },
  MERCHANT_COLOR_ORANGE: { primary: '#FB7812', tint: '#FFF3E8', link: '#B24F00', name: 'orange' },
  MERCHANT_COLOR_PURPLE: { primary: '#A17DF5', tint: '#F5F1FE', link: '#6E45CF', name: 'purple' },
  MERCHANT_COLOR_RED: { primary: '#F75346', tint: '#FEEEEC', link: '#C0291D', name: 'red' },
  MERCHANT_COLOR_YELLOW: { primary: '#F9B700', tint: '#FEF8E5', link: '#8A6100', name: 'yellow' },
};

export const DEFAULT_MERCHANT_COLOR: MerchantColor = 'MERCHANT_COLOR_BLUE';

export const themeFor = (color: string | null | undefined) =>
  themeColors[(color as MerchantColor) ?? DEFAULT_MERCHANT_COLOR] ?? themeColors[DEFAULT_MERCHANT_COLOR];

/**
 * What a page shows of its merchant before anything else (spec §1, §9): the website in upper case as
 * the title, the theme's colours as the CSS variables our styles read, and the favicon's type. The
 * browser applies it (apps/web/src/lib/theme.ts) and so does the server on the pages it draws.
 */
export function pageBranding(merchant: { color: string | null | undefined; website: string; favicon: string }) {
  const { primary, link, tint } = themeFor(merchant.color);
  return {
    title: merchant.website.toUpperCase(),
    cssVariables: { '--brand-primary': primary, '--brand-link': link, '--brand-tint': tint },
    faviconType: merchant.favicon.endsWith('.svg') ? 'image/svg+xml' : null,
  };
}
