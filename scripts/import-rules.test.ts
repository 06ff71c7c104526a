// The one-way arrows of the layout (shared/design/architecture.md, conventions): web → contract ←
// server; a web feature never imports another feature; the web app's shared folders never import a
// feature or the app shell. Every relative import and every workspace import of the sources is read
// and placed in its part of the tree.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

/** Where a file stands, as the rules name places: `web/features/cards`, `web/lib`, `server`, `contract`, … */
function placeOf(file: string): string | null {
  const relative = path.relative(root, file).split(path.sep).join('/');
  const web = /^apps\/web\/src\/(?:(features)\/([^/]+)|([^/]+)\/)/.exec(relative);
  if (web) return web[1] ? `web/features/${web[2]}` : `web/${web[3]}`;
  if (relative.startsWith('apps/web/src/')) return 'web';
  if (relative.startsWith('apps/web/')) return 'web/build';
  if (relative.startsWith('apps/server/')) return 'server';
  if (relative.startsWith('packages/contract/')) return 'contract';
  return null;
}

const SHARED_WEB = ['web/components', 'web/lib', 'web/locales', 'web/stores'];

/** Why an import from `from` to `to` breaks a rule, or null when it keeps them all. */
function brokenRule(from: string, to: string): string | null {
  if (from === to) return null;
  if (from.startsWith('web/features/') && to.startsWith('web/features/')) return 'a feature never imports another feature';
  if (SHARED_WEB.includes(from) && (to.startsWith('web/features/') || to === 'web/app')) {
    return 'shared folders never import a feature or the app shell';
  }
  if (from.startsWith('web') && to === 'server') return 'the web app never imports the server';
  if (from === 'server' && to.startsWith('web')) return 'the server never imports the web app';
  if (from === 'contract' && to !== 'contract') return 'the contract imports neither half';
  return null;
}

const SOURCE = /\.(?:ts|tsx|mts|mjs)$/;
const SKIP = new Set(['node_modules', 'dist', 'dist-ssr', 'data', 'test-results']);

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return SOURCE.test(entry.name) ? [full] : [];
  });
}

/** Static imports and re-exports, `import()` and `import type`, each with its specifier. */
const IMPORT = /\b(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|\bimport\s+['"]([^'"]+)['"]/g;

/** The file a specifier of `file` names, for the parts the rules know; null for a package. */
function targetOf(file: string, specifier: string): string | null {
  if (specifier.startsWith('.')) return path.resolve(path.dirname(file), specifier);
  if (specifier.startsWith('@portal/contract')) return path.join(root, 'packages/contract/src/index.ts');
  if (specifier.startsWith('@portal/server')) return path.join(root, 'apps/server/src/index.ts');
  if (specifier.startsWith('@portal/web')) return path.join(root, 'apps/web/src/index.ts');
  return null;
}

/** Every import of `files` that breaks a rule, as `file → specifier: rule`. */
function importViolations(files: Array<{ file: string; text: string }>): string[] {
  const found: string[] = [];
  for (const { file, text } of files) {
    const from = placeOf(file);
    if (!from) continue;
    for (const match of text.matchAll(IMPORT)) {
      const specifier = (match[1] ?? match[2] ?? match[3]) as string;
      const target = targetOf(file, specifier);
      const to = target ? placeOf(target) : null;
      const rule = to ? brokenRule(from, to) : null;
      if (rule) found.push(`${path.relative(root, file)} → ${specifier}: ${rule}`);
    }
  }
  return found;
}

describe('the import rules of the layout', () => {
  it('hold for every source file of the web app, the server and the contract', () => {
    const files = ['apps/web/src', 'apps/server/src', 'apps/server/test', 'packages/contract/src']
      .flatMap((folder) => sourceFiles(path.join(root, folder)))
      .map((file) => ({ file, text: readFileSync(file, 'utf8') }));
    expect(files.length).toBeGreaterThan(100);
    expect(importViolations(files)).toEqual([]);
  });

  it('catch each kind of crossing', () => {
    const at = (relative: string) => path.join(root, relative);
    const violations = importViolations([
      { file: at('apps/web/src/features/cards/routes/cards.tsx'), text: "import { wallet } from '../../wallet/api/get-balance.ts';" },
      { file: at('apps/web/src/lib/http.ts'), text: "const m = await import('../features/auth/api/login.ts');" },
      { file: at('apps/web/src/components/code-input.tsx'), text: "import type { X } from '../app/router.tsx';" },
      { file: at('apps/web/src/stores/session.ts'), text: "export { y } from '../../../server/src/config.ts';" },
      { file: at('apps/server/src/app.ts'), text: "import '../../web/src/main.tsx';" },
      { file: at('packages/contract/src/money.ts'), text: "import { z } from '../../../apps/server/src/lib/html.ts';" },
      // allowed: within a feature, feature → shared, app shell → feature, both halves → contract
      { file: at('apps/web/src/features/cards/routes/cards.tsx'), text: "import { a } from '../api/get-cards.ts';\nimport { b } from '../../../lib/http.ts';" },
      { file: at('apps/web/src/app/router.tsx'), text: "import x from '../features/wallet/routes/wallet.tsx';" },
      { file: at('apps/server/src/app.ts'), text: "import { ErrorCode } from '@portal/contract/errors';" },
    ]);
    expect(violations.map((line) => line.split(': ')[1])).toEqual([
      'a feature never imports another feature',
      'shared folders never import a feature or the app shell',
      'shared folders never import a feature or the app shell',
      'the web app never imports the server',
      'the server never imports the web app',
      'the contract imports neither half',
    ]);
  });
});
