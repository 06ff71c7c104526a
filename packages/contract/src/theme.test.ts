import { describe, expect, it } from 'vitest';
import { pageBranding, themeColors } from './theme.ts';

const luminance = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrastOnWhite = (hex: string) => 1.05 / (luminance(hex) + 0.05);

describe('theme colours (spec §9)', () => {
  it('are the five spec colours', () => {
    expect(Object.values(themeColors).map((t) => t.primary)).toEqual(['#3399FF', '#FB7812', '#A17DF5', '#F75346', '#F9B700']);
  });
  it('give every theme a link colour readable on white', () => {
    for (const theme of Object.values(themeColors)) expect(contrastOnWhite(theme.link), theme.name).toBeGreaterThanOrEqual(4.5);
  });
});

describe('page branding (spec §1, §9)', () => {
  it('titles the page with the website in upper case and colours it with the merchant theme', () => {
    expect(pageBranding({ color: 'MERCHANT_COLOR_ORANGE', website: 'orangecard.example', favicon: '/brand/orange/favicon.svg' })).toEqual({
      title: 'ORANGECARD.EXAMPLE',
      cssVariables: { '--brand-primary': '#FB7812', '--brand-link': '#B24F00', '--brand-tint': '#FFF3E8' },
      faviconType: 'image/svg+xml',
    });
  });
  it('falls back to the blue theme and names no type for a favicon that is not SVG', () => {
    const branding = pageBranding({ color: null, website: 'x.example', favicon: '/favicon.ico' });
    expect(branding.cssVariables['--brand-primary']).toBe('#3399FF');
    expect(branding.faviconType).toBeNull();
  });
});
