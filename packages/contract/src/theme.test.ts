import { describe, expect, it } from 'vitest';
import { themeColors } from './theme.ts';

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
