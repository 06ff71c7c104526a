// Writes apps/console/src/lib/console-calls.gen.ts from the contract's consoleCalls: for each call its
// method and path (and whether it answers a raw file), typed by the declaration itself. The console's
// http client imports this rather than the table, whose schemas would otherwise ride along into its
// first load. Run after the table changes:
//   npm run generate:calls -w @portal/console
// (the unit test apps/console/src/lib/console-calls.test.ts fails while the file is out of date).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '../../..');
export const generatedFile = path.join(root, 'apps/console/src/lib/console-calls.gen.ts');

const quoted = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The generated file's text. */
export async function consoleCallsFile(): Promise<string> {
  const { consoleCalls, CONSOLE_API_BASE } = (await import(pathToFileURL(path.join(root, 'packages/contract/src/api/console.ts')).href)) as {
    consoleCalls: Record<string, { method: string; path: string; raw?: string }>;
    CONSOLE_API_BASE: string;
  };
  const lines = [
    '// Generated from packages/contract/src/api/console.ts by apps/console/scripts/generate-calls.ts: do not edit.',
    "import type { consoleCalls } from '@portal/contract/api/console';",
    '',
    `export const CONSOLE_API_BASE = ${quoted(CONSOLE_API_BASE)};`,
    '',
    '/** Each console call’s method and path (below CONSOLE_API_BASE). */',
    'export const consoleCallRefs = {',
    ...Object.entries(consoleCalls).map(
      ([name, call]) => `  ${name}: { method: ${quoted(call.method)}, path: ${quoted(call.path)}${call.raw === undefined ? '' : `, raw: ${quoted(call.raw)}`} },`,
    ),
    '} as const satisfies Record<keyof typeof consoleCalls, { method: string; path: string; raw?: string }>;',
    '',
  ];
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(generatedFile, await consoleCallsFile());
  console.log(`wrote ${path.relative(root, generatedFile)}`);
}
