import { MERCHANT_COLORS, type MerchantColor } from '@portal/contract/enums';
import { VERSION_PATTERN } from '@portal/contract/merchant';
import { themeColors } from '@portal/contract/theme';
import { parseOrigin } from '../modules/merchants/service.ts';
import { OpsError, UsageError } from './command.ts';

/** Checks and normalises what an operator types; each failure says what was expected. */

export function requireFlag<T>(value: T | undefined, flag: string, command: string): T {
  if (value === undefined) throw new UsageError(`${command}: --${flag} is required`);
  return value;
}

/** A non-empty line of text, trimmed. */
export function text(value: string, flag: string, { max }: { max: number }) {
  const trimmed = value.trim();
  if (!trimmed) throw new OpsError(`--${flag} must not be empty`);
  if ([...trimmed].some((char) => char < ' ' || char === '\u007f')) throw new OpsError(`--${flag} must be one line of text, without control characters`);
  if ([...trimmed].length > max) throw new OpsError(`--${flag} is longer than ${max} characters`);
  return trimmed;
}

/** Text that may also be empty, to clear the field. */
export function optionalText(value: string, flag: string, { max }: { max: number }) {
  return value.trim() === '' ? '' : text(value, flag, { max });
}

const COLOR_NAMES = MERCHANT_COLORS.map((color) => themeColors[color].name);

/** `blue`, `Blue` or `MERCHANT_COLOR_BLUE` → `MERCHANT_COLOR_BLUE`. */
export function color(value: string): MerchantColor {
  const wanted = value.trim().toUpperCase();
  const found = MERCHANT_COLORS.find((color) => color === wanted || color === `MERCHANT_COLOR_${wanted}`);
  if (!found) {
    throw new OpsError(`unknown colour "${value}": use one of ${COLOR_NAMES.join(', ')} (or ${MERCHANT_COLORS.join(', ')})`);
  }
  return found;
}

export const colorName = (value: string) => themeColors[value as MerchantColor]?.name ?? value;

/** `2021`, or a range `2019-2026` that does not run backwards. */
export function version(value: string) {
  const trimmed = value.trim();
  const match = VERSION_PATTERN.test(trimmed) ? /^(\d{4})(?:-(\d{4}))?$/.exec(trimmed) : null;
  if (!match) throw new OpsError(`--version must be a year (2021) or a range of years (2019-2026), not "${value}"`);
  if (match[2] && Number(match[2]) < Number(match[1])) {
    throw new OpsError(`--version ${trimmed} runs backwards: the first year must not be after the second`);
  }
  return trimmed;
}

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

export function slug(value: string) {
  const trimmed = value.trim();
  if (!SLUG.test(trimmed)) {
    throw new OpsError(`--slug must be 1–40 lower-case letters, digits and inner hyphens (e.g. acme-cards), not "${value}"`);
  }
  return trimmed;
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;

/**
 * A host name as the server sees it in a request's Host header, without port: lower case, no
 * trailing dot. Internationalised names are given in their xn-- form.
 */
export function host(value: string, flag = 'host') {
  const trimmed = value.trim().toLowerCase().replace(/\.$/, '');
  if (!trimmed) throw new OpsError(`--${flag} must not be empty`);
  if (trimmed.includes('://') || trimmed.includes('/')) {
    throw new OpsError(`--${flag} is a host name such as shop.example.com, without http:// or a path, not "${value}"`);
  }
  if (IPV6.test(trimmed) || IPV4.test(trimmed)) return trimmed;
  if (/:\d*$/.test(trimmed)) throw new OpsError(`--${flag} is a host name without a port, not "${value}"`);
  const labels = trimmed.split('.');
  if (trimmed.length > 253 || !labels.every((label) => LABEL.test(label))) {
    throw new OpsError(
      `--${flag} "${value}" is not a valid host name (letters, digits, hyphens and dots; a Chinese domain is given in its xn-- form)`,
    );
  }
  return trimmed;
}

/** The site's address as shown in the copyright line, e.g. bluewhale.example or https://bluewhale.example. */
export function website(value: string) {
  const trimmed = text(value, 'website', { max: 200 });
  if (/\s/.test(trimmed)) throw new OpsError(`--website must not contain spaces, not "${value}"`);
  return trimmed;
}

/** A picture the portal loads: a path on this site (/brand/…) or an https:// address; empty clears it. */
export function asset(value: string, flag: string) {
  const trimmed = value.trim();
  if (trimmed === '') return '';
  if (/\s/.test(trimmed) || trimmed.length > 500 || !(/^\/[^/]/.test(trimmed) || /^https:\/\/[^/]+/.test(trimmed))) {
    throw new OpsError(`--${flag} must be a path on this site (/brand/acme/logo.svg) or an https:// address, not "${value}"`);
  }
  return trimmed;
}

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** An e-mail address; empty clears it. */
export function email(value: string, flag: string) {
  const trimmed = value.trim();
  if (trimmed === '') return '';
  if (!EMAIL.test(trimmed) || trimmed.length > 254) throw new OpsError(`--${flag} must be an e-mail address, not "${value}"`);
  return trimmed;
}

/** Where a merchant's mailed links point: scheme://host[:port] (see parseOrigin); empty clears it. */
export function origin(value: string, context: { production: boolean }) {
  if (value.trim() === '') return '';
  const parsed = parseOrigin(value, context);
  if ('refused' in parsed) throw new OpsError(`--origin: ${parsed.refused}`);
  return parsed.origin;
}
