import { MERCHANT_COLORS } from '@portal/contract/enums';
import { contrastRatio, INK_SECONDARY, themeColors } from '@portal/contract/theme';
import { describe, expect, it } from 'vitest';
import { STATUS_TEXT, themeConfig } from './theme.ts';

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

  it.each(MERCHANT_COLORS)('draws the chosen tab and page number of %s in its readable link shade, not the brand colour', (color) => {
    const { components } = themeConfig(color);
    const { link } = themeColors[color];
    expect(components?.Tabs).toMatchObject({ itemSelectedColor: link, itemHoverColor: link, itemActiveColor: link });
    expect(components?.Pagination).toMatchObject({ itemActiveColor: link, itemActiveColorHover: link });
  });

  it('draws status text (errors, tags) and secondary text in colours that reach 4.5 : 1 on white', () => {
    for (const text of Object.values(STATUS_TEXT)) expect(contrastRatio(text, '#FFFFFF'), text).toBeGreaterThanOrEqual(4.5);
    const { token, components } = themeConfig(undefined);
    expect(token).toMatchObject({ colorError: STATUS_TEXT.error, colorTextTertiary: INK_SECONDARY, colorTextDescription: INK_SECONDARY, colorTextPlaceholder: INK_SECONDARY });
    expect(components?.Tag).toMatchObject({ colorSuccess: STATUS_TEXT.success, colorWarning: STATUS_TEXT.warning });
  });

  it('falls back to the blue theme for a missing or unknown colour', () => {
    expect(themeConfig(undefined).token?.colorPrimary).toBe('#3399FF');
    expect(themeConfig('MERCHANT_COLOR_GREEN').token?.colorPrimary).toBe('#3399FF');
  });
});
