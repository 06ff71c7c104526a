import { defineConfig, type Plugin } from 'vitest/config';

/**
 * The web app's screens import `virtual:antd-prebuilt.css?components=…`, a stylesheet the web build
 * makes (apps/web/vite.config.ts). Component tests run in jsdom, which draws nothing: an empty
 * stylesheet stands in for it.
 */
function prebuiltStylesStandIn(): Plugin {
  return {
    name: 'portal:antd-prebuilt-styles-stand-in',
    resolveId: (id) => (id.startsWith('virtual:antd-prebuilt.css') ? '\0antd-prebuilt-stand-in.css' : null),
    load: (id) => (id === '\0antd-prebuilt-stand-in.css' ? '' : null),
  };
}

/**
 * Test projects: `unit` (pure code, both halves, and the web app's component tests, which ask for
 * jsdom with `// @vitest-environment jsdom`), `api-pglite` and `api-postgres` (the same API suite on
 * each engine, selected by TEST_ENGINE), `e2e` (Chromium against a started server).
 */
export default defineConfig({
  test: {
    projects: [
      {
        plugins: [prebuiltStylesStandIn()],
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}', 'apps/server/test/unit/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['apps/web/src/testing/setup.ts'],
          // the screens' component tests render antd in jsdom, several seconds each on a busy 2-core
          // machine: the limit guards against a hang, it is not what they measure
          testTimeout: 20_000,
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'api-pglite',
          include: ['apps/server/test/api/**/*.test.ts'],
          env: { TEST_ENGINE: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'api-postgres',
          include: ['apps/server/test/api/**/*.test.ts', 'apps/server/test/postgres/**/*.test.ts'],
          env: { TEST_ENGINE: 'postgres' },
          // its concurrency files race hundreds of calls over two servers: the limit guards against a
          // hang, and a busy machine must make them slower, not red
          testTimeout: 60_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // one file at a time: each drives its own server, database and browser, which keep two cores
          // busy (two files at once took each test twice as long, for no time saved)
          maxWorkers: 1,
          fileParallelism: false,
        },
      },
    ],
  },
});
