import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The API server the dev server forwards /api to; the Host header is kept so the merchant resolves. */
const apiTarget = process.env.API_TARGET ?? 'http://localhost:3000';

/** The merchant's console: its own bundle, served by the server at /console/ (decision 0015). */
/** react-router's package points bundlers at its development build: a build takes its production one beside it. */
const reactRouterProduction = () =>
  createRequire(import.meta.url)
    .resolve('react-router')
    .replace(/([\\/]dist[\\/])development([\\/]index)\.m?js$/, '$1production$2.mjs');

export default defineConfig(({ command }) => ({
  base: '/console/',
  plugins: [react()],
  resolve: { alias: command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction() }] : [] },
  server: { port: 5174, proxy: { '/api': { target: apiTarget, changeOrigin: false } } },
  build: {
    outDir: path.join(here, 'dist'),
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
  },
}));
