import { z } from 'zod';
import { MERCHANT_COLORS } from './enums.ts';

/** GET /api/v1/merchant — the branding of the merchant that owns the request's host. */
export const merchantSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  color: z.enum(MERCHANT_COLORS),
  website: z.string(),
  favicon: z.string(),
  dark_logo: z.string(),
  light_logo: z.string(),
  icp: z.string(),
  version: z.string(),
  support_email: z.string(),
});
export type Merchant = z.infer<typeof merchantSchema>;

/** "2021" or "2021-2026": a single year, or a range ending at the current year. */
export const VERSION_PATTERN = /^\d{4}(-\d{4})?$/;

/** The copyright years from the merchant's version: a start year becomes a range up to this year. */
export function copyrightYears(version: string, now: Date = new Date()): string {
  const current = now.getFullYear();
  const match = /^(\d{4})(?:-(\d{4}))?$/.exec(version.trim());
  if (!match) return String(current);
  const start = Number(match[1]);
  if (start >= current) return String(start);
  return `${start}-${current}`;
}

export const agreementTitleSchema = z.object({ id: z.string(), title: z.string() });
export const agreementTitleListSchema = z.array(agreementTitleSchema);
export type AgreementTitle = z.infer<typeof agreementTitleSchema>;

export const agreementSchema = z.object({ id: z.string(), title: z.string(), text: z.string() });
export type Agreement = z.infer<typeof agreementSchema>;

export const agreementIdParams = z.object({ id: z.uuid({ error: '用户协议不存在' }) });
