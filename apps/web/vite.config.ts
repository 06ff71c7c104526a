import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import postcss from 'postcss';
import { defineConfig, type Plugin } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const earlyStartEntry = path.join(here, 'src/app/early-start.ts');

/**
 * Builds src/app/early-start.ts as an entry of its own and puts it first in index.html. Inside the
 * main entry it would run only after React and antd are evaluated; on its own it starts the first
 * screen's downloads as soon as the page is parsed.
 */
function earlyStart(): Plugin {
  return {
    name: 'portal:early-start',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const chunk = Object.values(context.bundle ?? {}).find(
          (output) => output.type === 'chunk' && output.isEntry && output.facadeModuleId === earlyStartEntry,
        );
        if (!chunk) throw new Error('the early-start entry was not built');
        return [{ tag: 'script', attrs: { type: 'module', crossorigin: true, src: `/${chunk.fileName}` }, injectTo: 'head-prepend' }];
      },
    },
  };
}

/**
 * Preload lists without what the app's start has loaded already. A lazy screen's import preloads its
 * whole static graph, React and antd's core included; the route table names every screen, so each
 * chunk the app starts with would be named again in its lists, and those lists are part of the first
 * load (the sign-in page's budget). Any import made once the app runs (the route table's, and those
 * inside the app's own graph) finds these chunks loaded, so naming them again only costs bytes.
 */
function preloadWhatIsMissing() {
  const appEntry = path.join(here, 'src/main.tsx');
  let started = new Set<string>();
  let hosts = new Set<string>();
  const plugin: Plugin = {
    name: 'portal:preload-what-is-missing',
    apply: 'build',
    enforce: 'pre',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
      const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const closure = (fileName: string, seen = new Set<string>()) => {
        if (seen.has(fileName)) return seen;
        seen.add(fileName);
        for (const imported of byName.get(fileName)?.imports ?? []) closure(imported, seen);
        return seen;
      };
      const main = chunks.find((chunk) => chunk.moduleIds.includes(appEntry));
      started = main ? closure(main.fileName) : new Set();
      // every chunk but the entries (the page's first scripts, which start the app) runs once it has started
      hosts = new Set(chunks.filter((chunk) => !chunk.isEntry).map((chunk) => chunk.fileName));
    },
  };
  const resolveDependencies = (_file: string, deps: string[], { hostId }: { hostId: string }) => 
    hosts.has(hostId) ? deps.filter((dep) => !started.has(dep)) : deps;
  return { plugin, resolveDependencies };
}

/** The API server the dev server forwards /api to; the Host header is kept so the merchant resolves. */
const apiTarget = process.env.API_TARGET ?? 'http://localhost:3000';

const PREBUILT_ANTD_STYLES = 'virtual:antd-prebuilt.css';

/**
 * `import 'virtual:antd-prebuilt.css?components=btn,input'` gives the stylesheet rules of those antd
 * components, taken from the stylesheet antd ships for its zero-runtime mode (antd/dist/antd.css,
 * the same version as the components). Under <PrebuiltStyles> the components use these rules instead
 * of generating their styles while the page starts, which is much of the start-up's CPU time.
 */
function prebuiltAntdStyles(): Plugin {
  const require = createRequire(import.meta.url);
  let sheet: postcss.Root | undefined;
  return {
    name: 'portal:antd-prebuilt-styles',
    resolveId(id) {
      return id.startsWith(PREBUILT_ANTD_STYLES) ? `\0${id}` : null;
    },
    load(id) {
      if (!id.startsWith(`\0${PREBUILT_ANTD_STYLES}`)) return null;
      const components = new URLSearchParams(id.split('?')[1] ?? '').get('components')?.split(',').filter(Boolean) ?? [];
      if (components.length === 0) throw new Error(`${PREBUILT_ANTD_STYLES} needs ?components=name,name`);
      sheet ??= postcss.parse(readFileSync(require.resolve('antd/dist/antd.css'), 'utf8'));
      // `.ant-input` but not `.ant-input-number`: a component's class, or its class with a suffix
      const classes = new RegExp(`\\.ant-(${components.join('|')})(?![\\w-]*-(number|search|textarea|group)\\b)(?=[\\s.:,\\[>+~)-]|$)`);
      const keyframes = new Set<string>();
      const picked = postcss.root();
      sheet.each((node) => {
        if (node.type === 'rule' && classes.test(node.selector)) {
          picked.append(node.clone());
          node.walkDecls(/^animation(-name)?$/, (decl) => {
            for (const word of decl.value.split(/[\s,]+/)) keyframes.add(word);
          });
        } else if (node.type === 'atrule' && node.name !== 'keyframes') {
          const scoped = node.clone();
          scoped.walkRules((rule) => {
            if (!classes.test(rule.selector)) rule.remove();
          });
          if (scoped.nodes?.length) picked.append(scoped);
        }
      });
      sheet.each((node) => {
        if (node.type === 'atrule' && node.name === 'keyframes' && keyframes.has(node.params)) picked.append(node.clone());
      });
      return picked.toString();
    },
  };
}

const preload = preloadWhatIsMissing();

export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: isSsrBuild ? [react(), prebuiltAntdStyles()] : [react(), earlyStart(), prebuiltAntdStyles(), preload.plugin],
  // the server's renderer (`vite build --ssr`, see src/app/server-shell.tsx) is one file with its
  // packages inside: antd's deep imports do not resolve under Node's own module rules
  ...(isSsrBuild ? { publicDir: false, ssr: { noExternal: true }, define: { 'process.env.NODE_ENV': JSON.stringify('production') } } : {}),
  resolve: {
    // react-router's package points every bundler at its build with development warnings switched on
    alias:
      command === 'build'
        ? [
            {
              find: /^react-router$/,
              replacement: createRequire(import.meta.url)
                .resolve('react-router')
                .replace(/([\\/]dist[\\/])development([\\/]index)\.m?js$/, '$1production$2.mjs'),
            },
          ]
        : [],
  },
  server: {
    port: 5173,
    // *.localhost names pick the demo merchants
    allowedHosts: ['.localhost'],
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/healthz': { target: apiTarget, changeOrigin: false },
    },
  },
  build: isSsrBuild
    ? { outDir: 'dist-ssr', emptyOutDir: true, sourcemap: false, rolldownOptions: { input: path.join(here, 'src/app/server-shell.tsx') } }
    : {
    outDir: 'dist',
    emptyOutDir: true,
    // the server reads it to link a drawn page's stylesheets and scripts (dist/.vite/manifest.json)
    manifest: true,
    // keeps every asset a file, so the CSP never meets an inline data: script or style
    assetsInlineLimit: 0,
    sourcemap: false,
    modulePreload: { resolveDependencies: preload.resolveDependencies },
    rolldownOptions: {
      // boot: the entry of the pages the server draws (src/app/boot.ts), named by the manifest
      input: { index: path.join(here, 'index.html'), 'early-start': earlyStartEntry, boot: path.join(here, 'src/app/boot.ts') },
      output: {
        // a chunk is named by its hash alone: every script of the first load imports others by file
        // name, and the route table lists them all, so names are bytes each start downloads. Seven
        // characters is the shortest the bundler accepts for this many chunks (it says so, and stops,
        // should the chunks grow past what seven can name apart)
        chunkFileNames: 'assets/[hash:7].js',
        // stylesheets too: the route table names each lazy route's sheets beside its chunks
        assetFileNames: 'assets/[hash:7][extname]',
        codeSplitting: {
          // the field rules and the server's field errors, which sign-in and the card screens share, with
          // the typed client: one small chunk, not four (each chunk costs the first load its imports and
          // exports)
          groups: [
            {
              name: 'form-rules',
              test: /(src[\\/]lib[\\/](form-(rules|errors)|api-client)|contract[\\/]src[\\/]rules)\.ts$/,
            },
          ],
        },
      },
    },
  },
}));
