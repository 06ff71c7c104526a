import { z } from 'zod';
import { MERCHANT_COLORS } from './enums.ts';

export { copyrightYears, VERSION_PATTERN } from './copyright.ts';

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

export const agreementTitleSchema = z.object({ id: z.string(), title: z.string() });
export const agreementTitleListSchema = z.array(agreementTitleSchema);
export type AgreementTitle = z.infer<typeof agreementTitleSchema>;

export const agreementSchema = z.object({ id: z.string(), title: z.string(), text: z.string() });
export type Agreement = z.infer<typeof agreementSchema>;

export const agreementIdParams = z.object({ id: z.uuid({ error: '用户协议不存在' }) });
