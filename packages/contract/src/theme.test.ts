import { describe, expect, it } from 'vitest';
import { contrastRatio, INK_SECONDARY, pageBranding, themeColors } from './theme.ts';

const contrastOnWhite = (hex: string) => contrastRatio(hex, '#FFFFFF');

describe('theme colours (spec §9)', () => {
  it('are the five spec colours', () => {
    expect(Object.values(themeColors).map((t) => t.primary)).toEqual(['#3399FF', '#FB7812', '#A17DF5', '#F75346', '#F9B700']);
  });
  it('give every theme a link colour readable on white', () => {
    for (const theme of Object.values(themeColors)) expect(contrastOnWhite(theme.link), theme.name).toBeGreaterThanOrEqual(4.5);
  });
  it('give every theme a text colour readable on its own colour, for buttons that keep the brand colour', () => {
    for (const theme of Object.values(themeColors)) expect(contrastRatio(theme.onPrimary, theme.primary), theme.name).toBeGreaterThanOrEqual(4.5);
    // white on yellow was 1.8 : 1 and on orange 2.7 : 1
    expect(themeColors.MERCHANT_COLOR_YELLOW.onPrimary).toBe('#1F2329');
    expect(themeColors.MERCHANT_COLOR_ORANGE.onPrimary).toBe('#1F2329');
    expect(contrastRatio('#FFFFFF', '#F9B700')).toBeCloseTo(1.8, 1);
  });
  it('keep secondary text readable on white, the page greys and every theme tint', () => {
    for (const background of ['#FFFFFF', '#F5F6F8', '#F7F8FA', ...Object.values(themeColors).map((t) => t.tint)]) {
      expect(contrastRatio(INK_SECONDARY, background), background).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe('page branding (spec §1, §9)', () => {
  it('titles the page with the website in upper case and colours it with the merchant theme', () => {
    expect(pageBranding({ color: 'MERCHANT_COLOR_ORANGE', website: 'orangecard.example', favicon: '/brand/orange/favicon.svg' })).toEqual({
      title: 'ORANGECARD.EXAMPLE',
      cssVariables: { '--brand-primary': '#FB7812', '--brand-link': '#B24F00', '--brand-tint': '#FFF3E8', '--brand-on-primary': '#1F2329' },
      faviconType: 'image/svg+xml',
    });
  });
  it('falls back to the blue theme and names no type for a favicon that is not SVG', () => {
    const branding = pageBranding({ color: null, website: 'x.example', favicon: '/favicon.ico' });
    expect(branding.cssVariables['--brand-primary']).toBe('#3399FF');
    expect(branding.faviconType).toBeNull();
  });
});
