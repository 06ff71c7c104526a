import { z } from 'zod';
import { messages, PHONE_PREFIX, type Rule, rules } from './rules.ts';

export * from './rules.ts';

/** A zod string checked by one of the rules above, so the server answers the form's message. */
export const ruled = (rule: Rule) =>
  z.string({ error: messages.required }).superRefine((value, ctx) => {
    const message = rule(value);
    if (message) ctx.addIssue({ code: 'custom', message });
  });

export const phoneInfoSchema = z.object({
  phone: ruled(rules.phone),
  phone_prefix: z.literal(PHONE_PREFIX, { error: messages.phoneFormat }),
});
export type PhoneInfo = z.infer<typeof phoneInfoSchema>;
