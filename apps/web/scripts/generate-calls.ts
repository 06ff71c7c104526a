// Writes apps/web/src/lib/generated/<table>-calls.ts from the call tables of packages/contract/src/api:
// for each call its method and path (and whether it answers a raw file), typed by the declaration
// itself. The web imports these rather than the tables, whose zod schemas would
// otherwise ride along into every screen's first load. Run after a table changes:
//   npm run generate:calls -w @portal/web
// (the unit test apps/web/src/lib/generated-calls.test.ts fails while a file is out of date).
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '../../..');
const tablesFolder = path.join(root, 'packages/contract/src/api');
export const generatedFolder = path.join(root, 'apps/web/src/lib/generated');

interface DeclaredCall {
  method: string;
  path: string;
  raw?: string;
}

const isCall = (value: unknown): value is DeclaredCall =>
  typeof value === 'object' && value !== null && typeof (value as DeclaredCall).method === 'string' && typeof (value as DeclaredCall).path === 'string';

const isTable = (value: unknown): value is Record<string, DeclaredCall> =>
  typeof value === 'object' && value !== null && Object.values(value).length > 0 && Object.values(value).every(isCall);

/** A string as the sources write one. */
const quoted = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const RESERVED = new Set(['delete', 'default', 'new', 'class', 'function', 'import', 'export', 'in', 'do', 'if', 'for', 'var', 'let', 'const']);

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/**
 * A table's files: one module a call (`<table>/<call>.ts`), so a screen's scripts carry only the calls
 * it makes, and `<table>-calls.ts` naming them all for the screens to import.
 */
function filesOfTable(module: string, exportName: string, table: Record<string, DeclaredCall>): Array<[string, string]> {
  const banner = `// Generated from packages/contract/src/api/${module}.ts by apps/web/scripts/generate-calls.ts: do not edit.`;
  const files: Array<[string, string]> = [];
  const index = [banner];
  for (const [name, declared] of Object.entries(table)) {
    if (!IDENTIFIER.test(name) || RESERVED.has(name)) throw new Error(`${module}.ts: the call ${name} cannot be exported under its name`);
    const raw = declared.raw === undefined ? '' : `, raw: ${quoted(declared.raw)}`;
    const file = `${module}/${kebab(name)}.ts`;
    const lines = [
      banner,
      `import type { ${exportName} as declared } from '@portal/contract/api/${module}';`,
      `import type { CallRef } from '../../api-client.ts';`,
      '',
      `export const ${name}: CallRef<(typeof declared)['${name}']> = { method: ${quoted(declared.method)}, path: ${quoted(declared.path)}${raw} };`,
    ];
    files.push([file, `${lines.join('\n')}\n`]);
    index.push(`export { ${name} } from './${file}';`);
  }
  files.push([`${module}-calls.ts`, `${index.join('\n')}\n`]);
  return files;
}

/** Every file the tables make, by its path in the generated folder. */
export async function callFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  // every table is one of the contract's index of every call (portalCalls)
  const { portalCalls }: { portalCalls: Record<string, unknown> } = await import(pathToFileURL(path.join(tablesFolder, 'calls.ts')).href);
  const modules = readdirSync(tablesFolder)
    // console*.ts are the merchant console's tables (apps/console calls them), none of the portal's
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && name !== 'calls.ts' && !name.startsWith('console'))
    .map((name) => name.replace(/\.ts$/, ''))
    .sort();
  for (const module of modules) {
    const exports: Record<string, unknown> = await import(pathToFileURL(path.join(tablesFolder, `${module}.ts`)).href);
    const tables = Object.entries(exports).filter(([, value]) => isTable(value)) as Array<[string, Record<string, DeclaredCall>]>;
    if (tables.length > 1) throw new Error(`${module}.ts declares ${tables.length} tables: one a file`);
    const [table] = tables;
    if (!table) continue;
    const area = Object.entries(portalCalls).find(([, value]) => value === table[1])?.[0];
    if (!area) throw new Error(`${module}.ts: ${table[0]} is not in portalCalls (calls.ts)`);
    for (const [name, text] of filesOfTable(module, table[0], table[1])) files.set(name, text);
  }
  return files;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const files = await callFiles();
  rmSync(generatedFolder, { recursive: true, force: true });
  mkdirSync(generatedFolder, { recursive: true });
  for (const [name, text] of files) {
    mkdirSync(path.dirname(path.join(generatedFolder, name)), { recursive: true });
    writeFileSync(path.join(generatedFolder, name), text);
  }
  console.log(`${files.size} files in ${path.relative(root, generatedFolder)}`);
}
