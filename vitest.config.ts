import { defineConfig } from 'vitest/config';

/**
 * Test projects: `unit` (pure code, both halves), `api-pglite` and `api-postgres` (the same API suite
 * on each engine, selected by TEST_ENGINE), `e2e` (Chromium against a started server).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}', 'apps/server/test/unit/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
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
          testTimeout: 30_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          maxWorkers: 1,
          fileParallelism: false,
        },
      },
    ],
  },
});
