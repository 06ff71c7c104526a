import type { MerchantColor } from './enums.ts';

/** Spec §9 theme colours, with the light background tint each theme uses. */
export const themeColors: Record<MerchantColor, { primary: string; tint: string; name: string }> = {
  MERCHANT_COLOR_BLUE: { primary: '#3399FF', tint: '#EBF5FF', name: 'blue' },
  MERCHANT_COLOR_ORANGE: { primary: '#FB7812', tint: '#FFF3E8', name: 'orange' },
  MERCHANT_COLOR_PURPLE: { primary: '#A17DF5', tint: '#F5F1FE', name: 'purple' },
  MERCHANT_COLOR_RED: { primary: '#F75346', tint: '#FEEEEC', name: 'red' },
  MERCHANT_COLOR_YELLOW: { primary: '#F9B700', tint: '#FEF8E5', name: 'yellow' },
};

export const DEFAULT_MERCHANT_COLOR: MerchantColor = 'MERCHANT_COLOR_BLUE';

export const themeFor = (color: string | null | undefined) =>
  themeColors[(color as MerchantColor) ?? DEFAULT_MERCHANT_COLOR] ?? themeColors[DEFAULT_MERCHANT_COLOR];
