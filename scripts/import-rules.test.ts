// The one-way arrows of the layout (docs/architecture.md): web → contract ← server; a web feature
// never imports another feature; the web app's shared folders never import a feature or the app
// shell; the server's layers (routes → service → store, operator commands → services, adapters and
// storage → no module) and no import cycle anywhere. Every relative import and every workspace
// import of the sources is read and placed in its part of the tree.
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

/** Where a server file stands in its layers: `modules/<m>/routes|service|store|part`, `ops`, `providers`, `db`, `lib`, `http`, `jobs` (the queue), `config`, `app`. */
function serverLayerOf(file: string): { area: string; module?: string; layer?: 'routes' | 'service' | 'store' | 'part' } | null {
  const relative = path.relative(path.join(root, 'apps/server/src'), file).split(path.sep).join('/');
  if (relative.startsWith('..')) return null;
  const inModule = /^modules\/([^/]+)\/(.+)$/.exec(relative);
  if (inModule) {
    const name = path.basename(inModule[2] as string);
    const layer = name === 'routes.ts' ? 'routes' : name === 'service.ts' ? 'service' : /(^|-)store\.ts$/.test(name) ? 'store' : 'part';
    return { area: 'modules', module: inModule[1] as string, layer };
  }
  const top = relative.split('/')[0] as string;
  // the typed configuration is read by whoever needs a setting
  if (relative === 'config.ts') return { area: 'config' };
  if (['ops', 'providers', 'db', 'lib', 'http', 'web', 'jobs'].includes(top)) {
    return { area: top, ...(/(^|-)store\.ts$/.test(path.basename(relative)) ? { layer: 'store' as const } : {}) };
  }
  return { area: 'app' };
}

/** Why a server import from `fromFile` to `toFile` breaks a layering rule, or null. */
function brokenServerRule(fromFile: string, toFile: string): string | null {
  const from = serverLayerOf(fromFile);
  const to = serverLayerOf(toFile);
  if (!from || !to) return null;
  if (from.area === 'modules' && to.area === 'app') return 'a module never imports the app or its composition';
  if (['providers', 'db', 'lib', 'http', 'jobs'].includes(from.area) && to.area === 'modules') return 'adapters, storage and shared code know no domain module';
  if (from.layer === 'store' && to.area === 'modules' && to.layer !== 'store' && to.layer !== 'part') return 'a store imports no service';
  if (from.area === 'ops' && to.layer === 'store') return 'operator commands call services, never a store';
  if (from.area === 'modules' && to.layer === 'store' && to.module !== from.module) return "no module imports another module's store";
  if (from.layer === 'routes' && to.layer === 'store') return 'routes call their service, never a store';
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
  const contract = /^@portal\/contract\/(.+)$/.exec(specifier);
  if (contract) return path.join(root, `packages/contract/src/${contract[1]}.ts`);
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
      const rule = (to ? brokenRule(from, to) : null) ?? (target && from === 'server' && to === 'server' ? brokenServerRule(file, target) : null);
      if (rule) found.push(`${path.relative(root, file)} → ${specifier}: ${rule}`);
    }
  }
  return found;
}

/**
 * Every import cycle among the files, type-only imports included (a cycle of types is still two
 * files that cannot be understood, changed or tested one without the other), each as the files
 * around it. Found as the strongly connected components of the import graph.
 */
function importCycles(files: Array<{ file: string; text: string }>): string[][] {
  const known = new Set(files.map(({ file }) => file));
  const edges = new Map<string, string[]>();
  for (const { file, text } of files) {
    const targets = new Set<string>();
    for (const match of text.matchAll(IMPORT)) {
      const target = targetOf(file, (match[1] ?? match[2] ?? match[3]) as string);
      if (target && known.has(target) && target !== file) targets.add(target);
    }
    edges.set(file, [...targets]);
  }
  // Tarjan's algorithm, iterative enough for a few hundred files
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(path.relative(root, member));
      } while (member !== node);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const file of known) if (!index.has(file)) visit(file);
  return cycles;
}

describe('the import rules of the layout', () => {
  it('hold for every source file of the web app, the server and the contract', () => {
    const files = ['apps/web/src', 'apps/server/src', 'apps/server/test', 'packages/contract/src']
      .flatMap((folder) => sourceFiles(path.join(root, folder)))
      .map((file) => ({ file, text: readFileSync(file, 'utf8') }));
    expect(files.length).toBeGreaterThan(100);
    expect(importViolations(files)).toEqual([]);
  });

  it('leave no import cycle in the web app, the server, its tests, the contract or the scripts', () => {
    const files = ['apps/web/src', 'apps/server/src', 'apps/server/test', 'packages/contract/src', 'e2e', 'bench', 'scripts']
      .flatMap((folder) => sourceFiles(path.join(root, folder)))
      .map((file) => ({ file, text: readFileSync(file, 'utf8') }));
    expect(importCycles(files)).toEqual([]);
  });

  it('find a cycle of any length, type imports included, and nothing in a tree without one', () => {
    const at = (relative: string) => path.join(root, relative);
    const cycles = importCycles([
      { file: at('apps/server/src/app.ts'), text: "import { walletRoutes } from './modules/wallet/routes.ts';" },
      { file: at('apps/server/src/modules/wallet/routes.ts'), text: "import { walletService } from './service.ts';" },
      { file: at('apps/server/src/modules/wallet/service.ts'), text: "import type { Deps } from '../../app.ts';" },
      { file: at('apps/web/src/lib/a.ts'), text: "export { b } from './b.ts';" },
      { file: at('apps/web/src/lib/b.ts'), text: "const a = () => import('./a.ts');" },
      { file: at('apps/web/src/lib/c.ts'), text: "import { a } from './a.ts';" },
    ]);
    expect(cycles).toEqual([
      ['apps/server/src/app.ts', 'apps/server/src/modules/wallet/routes.ts', 'apps/server/src/modules/wallet/service.ts'],
      ['apps/web/src/lib/a.ts', 'apps/web/src/lib/b.ts'],
    ]);
    expect(importCycles([{ file: at('apps/web/src/lib/c.ts'), text: "import { a } from './a.ts';" }])).toEqual([]);
  });

  it("catch each breach of the server's layers", () => {
    const at = (relative: string) => path.join(root, relative);
    const violations = importViolations([
      { file: at('apps/server/src/modules/wallet/service.ts'), text: "import type { Deps } from '../../app.ts';" },
      { file: at('apps/server/src/modules/cards/service.ts'), text: "import { x } from '../../composition.ts';" },
      { file: at('apps/server/src/providers/sms/dev.ts'), text: "import { maskPhone } from '../../modules/codes/service.ts';" },
      { file: at('apps/server/src/db/seed.ts'), text: "import { rechargeInTx } from '../modules/ledger/service.ts';" },
      { file: at('apps/server/src/modules/wallet/store.ts'), text: "import { ledger } from '../ledger/service.ts';" },
      { file: at('apps/server/src/ops/commands/account-list.ts'), text: "import { listAccounts } from '../../modules/accounts/store.ts';" },
      { file: at('apps/server/src/modules/accounts/service.ts'), text: "import { revokeSession } from '../sessions/store.ts';" },
      { file: at('apps/server/src/modules/wallet/routes.ts'), text: "import { findWalletStatus } from './store.ts';" },
      // allowed: routes → own service, service → own store and parts, ops → services, app → modules, store → its module's parts
      { file: at('apps/server/src/modules/wallet/routes.ts'), text: "import { x } from './service.ts';" },
      { file: at('apps/server/src/modules/ledger/service.ts'), text: "import { a } from './store.ts';\nimport { b } from './accounts.ts';\nimport type { M } from '../messages/service.ts';" },
      { file: at('apps/server/src/ops/commands/wallet-show.ts'), text: "import type { Services } from '../../composition.ts';" },
      { file: at('apps/server/src/app.ts'), text: "import { walletRoutes } from './modules/wallet/routes.ts';" },
      { file: at('apps/server/src/modules/ledger/store.ts'), text: "import type { AccountRef } from './accounts.ts';" },
    ]);
    expect(violations.map((line) => line.split(': ')[1])).toEqual([
      'a module never imports the app or its composition',
      'a module never imports the app or its composition',
      'adapters, storage and shared code know no domain module',
      'adapters, storage and shared code know no domain module',
      'a store imports no service',
      'operator commands call services, never a store',
      "no module imports another module's store",
      'routes call their service, never a store',
    ]);
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
