// The one-way arrows of the layout (docs/architecture.md): web → contract ← server; a web feature
// never imports another feature; the web app's shared folders never import a feature or the app
// shell; the server's layers (routes → service → store, operator commands → services, adapters and
// storage → no module), no import cycle anywhere, between files or between server modules; a module
// reaches another only through its public face; the web calls the API only through its typed client;
// and the sizes a reader can hold stay bounded (docs/decisions/0010-module-boundaries.md). Every
// relative import and every workspace import of the sources is read and placed in its part of the tree.
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
  // the domain layer holds what several features share about the business (a transaction list, an
  // access-code step); features build on it, so it can never lean on one of them
  if (from === 'web/domain' && (to.startsWith('web/features/') || to === 'web/app')) return 'the web domain never imports a feature or the app shell';
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

/**
 * What a module shows the others: its service factory (`service.ts`, or a `*-service.ts` when a module
 * offers more than one) with the types it exports for its callers, and the few files declared here,
 * each a value every caller has to name the same way. Anything else (its store, its parts, its
 * routes) can change without a caller knowing.
 */
const PUBLIC_FACES: Record<string, string> = {
  // the port every module publishes its events through; the events module owns the stream behind it
  'events/publisher.ts': 'the event publisher',
  // the names of ledger accounts a caller hands to the ledger's service (a wallet, a card, the house's)
  'ledger/accounts.ts': 'ledger account references',
  // the recording of an issuer event as a CTE, carried by the first statement of whichever store
  // decides on that event, so that recording it costs no round trip of its own
  'issuer/event-record.ts': 'the issuer event record',
};

function isPublicFace(file: string): boolean {
  const relative = path.relative(path.join(root, 'apps/server/src/modules'), file).split(path.sep).join('/');
  return /(^|-)service\.ts$/.test(path.basename(relative)) || relative in PUBLIC_FACES;
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
  if (from.area === 'modules' && to.area === 'modules' && to.module !== from.module && !isPublicFace(toFile)) {
    return "a module imports only another module's public face";
  }
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

/** The files each file imports, among `files`, type-only imports included. */
function importGraph(files: Array<{ file: string; text: string }>): Map<string, string[]> {
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
  return edges;
}

/** The strongly connected components of more than one node (Tarjan's algorithm), each sorted. */
function stronglyConnected(edges: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
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
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return components;
}

/**
 * Every import cycle among the files, type-only imports included (a cycle of types is still two
 * files that cannot be understood, changed or tested one without the other), each as the files
 * around it.
 */
function importCycles(files: Array<{ file: string; text: string }>): string[][] {
  return stronglyConnected(importGraph(files)).map((component) => component.map((file) => path.relative(root, file)));
}

const MODULES = path.join(root, 'apps/server/src/modules');

/** The server module a file belongs to (`cards` for `modules/cards/spending/store.ts`), or null. */
function moduleOf(file: string): string | null {
  const relative = path.relative(MODULES, file).split(path.sep).join('/');
  const found = /^([^/]+)\//.exec(relative);
  return found && !relative.startsWith('..') ? (found[1] as string) : null;
}

/**
 * Every cycle between server modules, a module standing for all its files: two modules that import
 * each other, through any of their files, can only be understood, moved or split together. Each as
 * `a ⇄ b: the imports that close it`.
 */
function moduleCycles(files: Array<{ file: string; text: string }>): string[] {
  const fileEdges = importGraph(files);
  const edges = new Map<string, Set<string>>();
  const crossings = new Map<string, string[]>();
  for (const [file, targets] of fileEdges) {
    const from = moduleOf(file);
    if (!from) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    for (const target of targets) {
      const to = moduleOf(target);
      if (!to || to === from) continue;
      edges.get(from)?.add(to);
      const key = `${from}→${to}`;
      crossings.set(key, [...(crossings.get(key) ?? []), `${path.relative(MODULES, file)} → ${path.relative(MODULES, target)}`]);
    }
  }
  const graph = new Map([...edges].map(([module, targets]) => [module, [...targets]]));
  return stronglyConnected(graph)
    .map((component) => {
      const imports = component.flatMap((from) => component.flatMap((to) => crossings.get(`${from}→${to}`) ?? []));
      return `${component.join(' ⇄ ')}: ${imports.sort().join(', ')}`;
    })
    .sort();
}

/** The typed client, the one place of the web app that may spell an API path. */
const WEB_CLIENT = /^apps\/web\/src\/lib\/(?:api-client\.ts|api\/)/;
/** Tests answer the calls a screen makes by their path (a stubbed network), which is no call of its own. */
const TEST_FILE = /(?:\.test\.tsx?$|^apps\/web\/src\/testing\/)/;

/** Every line of the web app outside its typed client that spells an API path, as `file:line`. */
function webStringPaths(files: Array<{ file: string; text: string }>): string[] {
  return files.flatMap(({ file, text }) => {
    const relative = path.relative(root, file).split(path.sep).join('/');
    if (!relative.startsWith('apps/web/src/') || WEB_CLIENT.test(relative) || TEST_FILE.test(relative)) return [];
    return text.split('\n').flatMap((line, at) => (line.includes('/api/v1') ? [`${relative}:${at + 1}`] : []));
  });
}

/** The most lines a source file may hold. */
const FILE_LINE_LIMIT = 450;
/**
 * The most lines a server module (`modules/<name>/` with its subfolders) may hold. The goal is 1,500:
 * lower this to 1,500 once every module is under it.
 */
const MODULE_LINE_LIMIT = 2_000;

const linesOf = (text: string) => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));

/** Generated code is read by no one and rewritten by its generator; data tables live as JSON, which no source list holds. */
const isGenerated = (file: string) => path.relative(root, file).split(path.sep).includes('generated');

/** Every source file over the limit, as `file: lines`. */
function oversizedFiles(files: Array<{ file: string; text: string }>, limit = FILE_LINE_LIMIT): string[] {
  return files
    .filter(({ file }) => !isGenerated(file))
    .map(({ file, text }) => ({ file: path.relative(root, file), lines: linesOf(text) }))
    .filter(({ lines }) => lines > limit)
    .map(({ file, lines }) => `${file}: ${lines} lines (limit ${limit})`);
}

/** Every server module over the limit, its files summed, as `modules/<name>: lines`. */
function oversizedModules(files: Array<{ file: string; text: string }>, limit = MODULE_LINE_LIMIT): string[] {
  const sizes = new Map<string, number>();
  for (const { file, text } of files) {
    const module = moduleOf(file);
    if (module && !isGenerated(file)) sizes.set(module, (sizes.get(module) ?? 0) + linesOf(text));
  }
  return [...sizes]
    .filter(([, lines]) => lines > limit)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([module, lines]) => `modules/${module}: ${lines} lines (limit ${limit})`);
}

const read = (folders: string[]) =>
  folders.flatMap((folder) => sourceFiles(path.join(root, folder))).map((file) => ({ file, text: readFileSync(file, 'utf8') }));

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

  it('leave no cycle between the server modules', () => {
    expect(moduleCycles(read(['apps/server/src']))).toEqual([]);
  });

  it('leave the typed client the only place of the web app that spells an API path', () => {
    expect(webStringPaths(read(['apps/web/src']))).toEqual([]);
  });

  it(`keep every source file within ${FILE_LINE_LIMIT} lines and every server module within ${MODULE_LINE_LIMIT}`, () => {
    // tests are lists of independent cases read one at a time; the limit is for the code they check
    const sources = read(['apps/web/src', 'apps/server/src', 'packages/contract/src', 'scripts', 'bench']).filter(({ file }) => !/\.test\.tsx?$/.test(file));
    expect([...oversizedFiles(sources), ...oversizedModules(sources)]).toEqual([]);
  });

  it('find a cycle between modules through any of their files, and none when the arrows run one way', () => {
    const at = (relative: string) => path.join(root, relative);
    const files = [
      { file: at('apps/server/src/modules/events/routes.ts'), text: "import { m } from '../messages/service.ts';" },
      { file: at('apps/server/src/modules/messages/service.ts'), text: "import type { P } from '../events/publisher.ts';" },
      { file: at('apps/server/src/modules/events/publisher.ts'), text: "export const p = 1;" },
      // a cycle of three, no two of its files importing each other
      { file: at('apps/server/src/modules/a/service.ts'), text: "import { b } from '../b/service.ts';" },
      { file: at('apps/server/src/modules/b/parts/rule.ts'), text: "import { c } from '../../c/service.ts';" },
      { file: at('apps/server/src/modules/b/service.ts'), text: "export const b = 1;" },
      { file: at('apps/server/src/modules/c/store.ts'), text: "import type { A } from '../a/service.ts';" },
      { file: at('apps/server/src/modules/c/service.ts'), text: "export const c = 1;" },
    ];
    expect(importCycles(files)).toEqual([]);
    expect(moduleCycles(files)).toEqual([
      'a ⇄ b ⇄ c: a/service.ts → b/service.ts, b/parts/rule.ts → c/service.ts, c/store.ts → a/service.ts',
      'events ⇄ messages: events/routes.ts → messages/service.ts, messages/service.ts → events/publisher.ts',
    ]);
    expect(moduleCycles(files.filter(({ file }) => !file.endsWith('events/routes.ts') && !file.endsWith('c/store.ts')))).toEqual([]);
  });

  it("catch a module reaching into another module's internals, and let it use the public face", () => {
    const at = (relative: string) => path.join(root, relative);
    const violations = importViolations([
      { file: at('apps/server/src/modules/cards/service.ts'), text: "import { reserve } from '../ledger/postings.ts';" },
      { file: at('apps/server/src/modules/cards/spending/rules.ts'), text: "import type { Row } from '../../accounts/parts/profile.ts';" },
      { file: at('apps/server/src/modules/events/routes.ts'), text: "import { inbox } from '../messages/inbox.ts';" },
      // allowed: a service, a named service, a declared face, the module's own parts
      { file: at('apps/server/src/modules/cards/service.ts'), text: "import type { LedgerService } from '../ledger/service.ts';\nimport { s } from '../sessions/session-service.ts';" },
      { file: at('apps/server/src/modules/cards/service.ts'), text: "import type { EventPublisher } from '../events/publisher.ts';\nimport { walletOf } from '../ledger/accounts.ts';" },
      { file: at('apps/server/src/modules/cards/service.ts'), text: "import { open } from './opening.ts';\nimport { x } from './spending/rules.ts';" },
    ]);
    expect(violations).toEqual([
      "apps/server/src/modules/cards/service.ts → ../ledger/postings.ts: a module imports only another module's public face",
      "apps/server/src/modules/cards/spending/rules.ts → ../../accounts/parts/profile.ts: a module imports only another module's public face",
      "apps/server/src/modules/events/routes.ts → ../messages/inbox.ts: a module imports only another module's public face",
    ]);
  });

  it('catch an API path spelled outside the typed client, on every line it is spelled', () => {
    const at = (relative: string) => path.join(root, relative);
    const found = webStringPaths([
      { file: at('apps/web/src/features/cards/api/get-cards.ts'), text: "import { http } from '../../../lib/http.ts';\nexport const getCards = () => http.get('/api/v1/card');" },
      { file: at('apps/web/src/domain/money/api/get-balance.ts'), text: "const a = 1;\nconst b = 2;\nconst url = '/api/v1/balance/' + id;" },
      { file: at('apps/web/src/lib/http.ts'), text: "const prefix = '/api/v1';" },
      // allowed: the typed client itself, a test stubbing the network, the server
      { file: at('apps/web/src/lib/api-client.ts'), text: "const base = '/api/v1';" },
      { file: at('apps/web/src/lib/api/cards.ts'), text: "const path = '/api/v1/card';" },
      { file: at('apps/web/src/features/cards/routes/card.test.tsx'), text: "server.use(http.get('/api/v1/card', () => {}));" },
      { file: at('apps/server/src/app.ts'), text: "prefix: '/api/v1'" },
    ]);
    expect(found).toEqual(['apps/web/src/features/cards/api/get-cards.ts:2', 'apps/web/src/domain/money/api/get-balance.ts:3', 'apps/web/src/lib/http.ts:1']);
  });

  it('catch every file and every module over its size, generated code aside', () => {
    const at = (relative: string) => path.join(root, relative);
    const lines = (count: number) => 'const x = 1;\n'.repeat(count);
    const files = [
      { file: at('apps/server/src/modules/cards/spending.ts'), text: lines(451) },
      { file: at('apps/server/src/modules/cards/store.ts'), text: lines(450) },
      { file: at('apps/server/src/modules/cards/parts/issue.ts'), text: lines(440) },
      { file: at('apps/server/src/modules/cards/parts/more.ts'), text: lines(440) },
      { file: at('apps/server/src/modules/cards/parts/last.ts'), text: lines(220) },
      { file: at('apps/server/src/modules/wallet/service.ts'), text: lines(300) },
      { file: at('apps/web/src/features/cards/routes/create-card.tsx'), text: `${lines(496)}const y = 2;` },
      { file: at('packages/contract/src/generated/routes.ts'), text: lines(5_000) },
      { file: at('apps/server/src/modules/ledger/generated/table.ts'), text: lines(5_000) },
    ];
    expect(oversizedFiles(files)).toEqual([
      'apps/server/src/modules/cards/spending.ts: 451 lines (limit 450)',
      'apps/web/src/features/cards/routes/create-card.tsx: 497 lines (limit 450)',
    ]);
    expect(oversizedModules(files)).toEqual(['modules/cards: 2001 lines (limit 2000)']);
    expect(oversizedModules(files.filter(({ file }) => !file.endsWith('last.ts')))).toEqual([]);
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
      { file: at('apps/web/src/domain/transactions/transaction-list.tsx'), text: "import { x } from '../../features/cards/api/get-card.ts';" },
      { file: at('apps/web/src/domain/access-code/access-code-step.tsx'), text: "import type { R } from '../../app/router.tsx';" },
      // allowed: within a feature, feature → shared, app shell → feature, both halves → contract,
      // feature → domain, domain → shared
      { file: at('apps/web/src/features/cards/routes/cards.tsx'), text: "import { a } from '../api/get-cards.ts';\nimport { b } from '../../../lib/http.ts';" },
      { file: at('apps/web/src/app/router.tsx'), text: "import x from '../features/wallet/routes/wallet.tsx';" },
      { file: at('apps/server/src/app.ts'), text: "import { ErrorCode } from '@portal/contract/errors';" },
      { file: at('apps/web/src/features/wallet/routes/wallet.tsx'), text: "import { List } from '../../../domain/transactions/transaction-list.tsx';" },
      { file: at('apps/web/src/domain/transactions/transaction-list.tsx'), text: "import { http } from '../../lib/http.ts';\nimport { T } from '../money/money-text.tsx';" },
    ]);
    expect(violations.map((line) => line.split(': ')[1])).toEqual([
      'a feature never imports another feature',
      'shared folders never import a feature or the app shell',
      'shared folders never import a feature or the app shell',
      'the web app never imports the server',
      'the server never imports the web app',
      'the contract imports neither half',
      'the web domain never imports a feature or the app shell',
      'the web domain never imports a feature or the app shell',
    ]);
  });
});
