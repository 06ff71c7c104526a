import { paths } from '../../../lib/paths.ts';

/**
 * What in a path could take the browser off the portal: a protocol-relative start (`//host`), a
 * backslash (browsers read `/\host` as `//host`), and control characters (stripped by browsers before
 * they read an address, so `/\t/host` is `//host`).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here
const LEAVES_PORTAL = /^\/\/|[\\\u0000-\u001f\u007f]/;

/**
 * Where a verification screen goes on once the data is given: the `from` of its address when it is
 * a path of this portal (it starts with one `/`), else the card opening. An absolute address
 * (`https://…`) or anything else that could leave the portal is ignored.
 */
export function returnTarget(from: string | null): string {
  if (from?.startsWith('/') && !LEAVES_PORTAL.test(from)) return from;
  return paths.createCard.getHref();
}
