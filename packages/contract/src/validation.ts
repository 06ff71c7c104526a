import { z } from 'zod';
import { messages, PHONE_PREFIX, type Rule, rules } from './rules.ts';

export * from './rules.ts';

/**
 * Control characters (C0 but tab, line feed and carriage return; DEL; C1) have no place in any text a
 * call carries: a NUL cannot even be stored. Every call's body, query and path are checked for them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is what this is for
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

export const hasControlCharacter = (text: string) => CONTROL_CHARACTER.test(text);

/** The first field (a dotted path; '' for the value itself) whose text holds a control character, or null. */
export function controlCharacterField(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return hasControlCharacter(value) ? path : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = controlCharacterField(item, path ? `${path}.${index}` : String(index));
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const child = path ? `${path}.${key}` : key;
      if (hasControlCharacter(key)) return child;
      const found = controlCharacterField(item, child);
      if (found !== null) return found;
    }
  }
  return null;
}

/** A zod string checked by one of the rules above, so the server answers the form's message. */
export const ruled = (rule: Rule) =>
  z.string({ error: messages.required }).superRefine((value, ctx) => {
    const message = rule(value);
    if (message) ctx.addIssue({ code: 'custom', message });
  });

/**
 * trx_password on a call that moves money out of the wallet or a card: the server requires it once
 * the account has a trade password. It is not held to the rule here, so a text that breaks the rule
 * is answered as any wrong trade password is.
 */
export const trxPasswordField = z.string().max(100).optional();

export const phoneInfoSchema = z.object({
  phone: ruled(rules.phone),
  phone_prefix: z.literal(PHONE_PREFIX, { error: messages.phoneFormat }),
});
export type PhoneInfo = z.infer<typeof phoneInfoSchema>;
