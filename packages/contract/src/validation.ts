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

/**
 * Half of a surrogate pair with no other half (JSON's "\ud800"): not a character at all, so no
 * database can store it as text (PostgreSQL refuses it in jsonb), and no field means it.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const hasLoneSurrogate = (text: string) => LONE_SURROGATE.test(text);

/** What is wrong with one text a call carries (a value or an object's key), or null. */
export const textProblem = (text: string) =>
  hasControlCharacter(text) ? messages.controlCharacter : hasLoneSurrogate(text) ? messages.invalidCharacter : null;

/**
 * The first field (a dotted path; '' for the value itself) whose text, or key, holds a control character
 * or a lone surrogate, with the message to answer; null when every text is clean. It walks with a list of
 * its own, not by recursion, so no nesting can exhaust the stack.
 */
export function badTextField(value: unknown): { field: string; message: string } | null {
  const pending: Array<[path: string, value: unknown]> = [['', value]];
  while (pending.length > 0) {
    const [path, item] = pending.pop() as [string, unknown];
    if (typeof item === 'string') {
      const message = textProblem(item);
      if (message) return { field: path, message };
      continue;
    }
    if (!item || typeof item !== 'object') continue;
    const children: Array<[string, unknown]> = [];
    for (const [key, child] of Array.isArray(item) ? item.entries() : Object.entries(item)) {
      const childPath = path ? `${path}.${key}` : String(key);
      if (typeof key === 'string') {
        const message = textProblem(key);
        if (message) return { field: childPath, message };
      }
      children.push([childPath, child]);
    }
    // last pushed is first walked: reversed, the fields are looked at in the order they came
    for (let index = children.length - 1; index >= 0; index--) pending.push(children[index] as [string, unknown]);
  }
  return null;
}

/** The deepest nesting of arrays and objects a JSON body may have: refused deeper, before it is parsed or walked. */
export const MAX_JSON_DEPTH = 32;

/** Whether JSON text nests arrays and objects deeper than `limit`: one pass over the text, brackets in strings not counted. */
export function jsonDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c) index++; // a backslash: the next character is escaped
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      if (++depth > limit) return true;
    } else if (char === 0x5d || char === 0x7d) depth--;
  }
  return false;
}

/** A zod string checked by one of the rules above, so the server answers the form's message. */
export const ruled = (rule: Rule) =>
  // a field left out is as empty as one sent empty: the rule's own message for it
  z.string({ error: rule('') ?? messages.required }).superRefine((value, ctx) => {
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
