import type { MerchantColor } from './enums.ts';

/** The relative luminance of a #RRGGBB colour (WCAG 2). */
export function luminance(hex: string) {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two #RRGGBB colours (WCAG 2): 1 to 21; body text needs 4.5. */
export function contrastRatio(a: string, b: string) {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

export const WHITE = '#FFFFFF';
/** the portal's body text colour, also the text on a theme colour too light for white text */
export const INK = '#1F2329';
/**
 * the portal's secondary text colour (hints, times, a currency beside its amount, the footer): it keeps
 * 4.5 : 1 on white, on the page greys and on every theme's tint
 */
export const INK_SECONDARY = '#646A73';

/** White on the colour where white reaches 4.5 : 1, else the dark body text colour. */
export const textOn = (background: string) => (contrastRatio(WHITE, background) >= 4.5 ? WHITE : INK);

const theme = (primary: string, tint: string, link: string, name: string) => ({ primary, tint, link, name, onPrimary: textOn(primary) });

/**
 * Spec §9 theme colours, with the light background tint each theme uses, a darker shade of the same
 * hue for text links, which must stay readable on white (contrast of at least 4.5 : 1), and the text
 * colour on the theme colour (buttons keep the brand colour; their text reaches 4.5 : 1 on it).
 */
export const themeColors: Record<MerchantColor, { primary: string; tint: string; link: string; name: string; onPrimary: string }> = {
  MERCHANT_COLOR_BLUE: theme('#3399FF', '#EBF5FF', '#1765C1', 'blue'),
  MERCHANT_COLOR_ORANGE: theme('#FB7812', '#FFF3E8', '#B24F00', 'orange'),
  MERCHANT_COLOR_PURPLE: theme('#A17DF5', '#F5F1FE', '#6E45CF', 'purple'),
  MERCHANT_COLOR_RED: theme('#F75346', '#FEEEEC', '#C0291D', 'red'),
  MERCHANT_COLOR_YELLOW: theme('#F9B700', '#FEF8E5', '#8A6100', 'yellow'),
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
  const { primary, link, tint, onPrimary } = themeFor(merchant.color);
  return {
    title: merchant.website.toUpperCase(),
    cssVariables: { '--brand-primary': primary, '--brand-link': link, '--brand-tint': tint, '--brand-on-primary': onPrimary },
    faviconType: merchant.favicon.endsWith('.svg') ? 'image/svg+xml' : null,
  };
}
