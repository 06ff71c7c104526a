import { MERCHANT_COLORS } from '@portal/contract/enums';
import { contrastRatio, themeColors } from '@portal/contract/theme';
import { describe, expect, it } from 'vitest';
import { themeConfig } from './theme.ts';

describe('themeConfig', () => {
  it.each(MERCHANT_COLORS)('gives %s its primary colour for buttons and focus, and its readable link colour to links', (color) => {
    const { token } = themeConfig(color);
    const { primary, link } = themeColors[color];
    expect(token).toMatchObject({ colorPrimary: primary, colorLink: link, colorInfo: primary });
  });

  it.each(MERCHANT_COLORS)('gives %s primary buttons a text colour that reaches 4.5 : 1 on the brand colour', (color) => {
    const { primary } = themeColors[color];
    const text = themeConfig(color).components?.Button?.primaryColor as string;
    expect(contrastRatio(text, primary)).toBeGreaterThanOrEqual(4.5);
  });

  it('falls back to the blue theme for a missing or unknown colour', () => {
    expect(themeConfig(undefined).token?.colorPrimary).toBe('#3399FF');
    expect(themeConfig('MERCHANT_COLOR_GREEN').token?.colorPrimary).toBe('#3399FF');
  });
});
