import { floorDecimal } from './money.ts';

/**
 * Money as the portal shows it (wallet, cards, exports): floored to two decimals (spec §9's number helper) and grouped by
 * thousands. Works on the decimal strings of the API, never through a binary float.
 */
export function formatAmount(text: string): string {
  const floored = floorDecimal(text, 2);
  const negative = floored.startsWith('-');
  const [whole = '0', fraction = '00'] = (negative ? floored.slice(1) : floored).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}.${fraction}`;
}

/** A movement's amount with its direction: "+1,000.00" into the wallet, "-12.50" out of it. */
export function formatSignedAmount(text: string): string {
  const formatted = formatAmount(text);
  if (formatted.startsWith('-') || /^[0.,]+$/.test(formatted)) return formatted;
  return `+${formatted}`;
}

/** Whether an amount moves money into the wallet (positive), out of it (negative), or neither. */
export function directionOf(text: string): 'in' | 'out' | 'none' {
  const formatted = floorDecimal(text, 2);
  if (formatted.startsWith('-')) return 'out';
  return /^[0.]+$/.test(formatted) ? 'none' : 'in';
}
