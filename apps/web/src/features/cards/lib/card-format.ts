/** How the card screens write a card's number, expiry and fee rate. */

const DOTS = '••••';

/** "•••• 1234" where a line has room for the last four only; null before the issuer has numbered the card. */
export const shortMaskedNumber = (last4: string | null) => (last4 ? `${DOTS} ${last4}` : null);

/** "•••• •••• •••• 1234", as the card's face shows it until it is revealed. */
export const maskedNumber = (last4: string | null) => `${DOTS} ${DOTS} ${DOTS} ${last4 ?? DOTS}`;

/** A full number in groups of four, as printed on a card: "4242 4242 4242 4242". */
export const groupedNumber = (pan: string) => pan.replace(/\D/g, '').replace(/(\d{4})(?=\d)/g, '$1 ');

/** "08/29" from the month and a two- or four-digit year. */
export const expiryText = (month: string, year: string) => `${month.padStart(2, '0')}/${year.slice(-2).padStart(2, '0')}`;

export const MASKED_EXPIRY = '**/**';
export const MASKED_CVV = '***';

/**
 * A fee rate the API writes as a decimal fraction ("0.015"), as a percentage ("1.5%"), moved by two
 * places in the text itself: a rate is exact, and a float would show 1.4999999999999998.
 */
export function ratePercent(rate: string): string {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(rate.trim());
  if (!match) return rate;
  const [, whole = '0', fraction = ''] = match;
  const digits = `${whole}${fraction.padEnd(2, '0')}`;
  const point = whole.length + 2;
  const integer = digits.slice(0, point).replace(/^0+(?=\d)/, '');
  const decimals = digits.slice(point).replace(/0+$/, '');
  return `${integer}${decimals ? `.${decimals}` : ''}%`;
}
