import { MERCHANT_COLORS } from '@portal/contract/enums';
import { themeColors } from '@portal/contract/theme';
import { describe, expect, it } from 'vitest';
import { themeConfig } from './theme.ts';

describe('themeConfig', () => {
  it.each(MERCHANT_COLORS)('gives %s its primary colour for buttons and focus, and its readable link colour to links', (color) => {
    const { token } = themeConfig(color);
    const { primary, link } = themeColors[color];
    expect(token).toMatchObject({ colorPrimary: primary, colorLink: link, colorInfo: primary });
  });

  it('falls back to the blue theme for a missing or unknown colour', () => {
    expect(themeConfig(undefined).token?.colorPrimary).toBe('#3399FF');
    expect(themeConfig('MERCHANT_COLOR_GREEN').token?.colorPrimary).toBe('#3399FF');
  });
});
