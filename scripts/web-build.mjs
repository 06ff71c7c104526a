// Builds the web app when apps/web/dist (or the page renderer beside it) is missing or older than its sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sources = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'apps/web/scripts',
  'packages/contract/src',
].map((p) => path.join(root, p));
const builtMarker = path.join(root, 'apps/web/dist/index.html');
// the server's page renderer (`vite build --ssr`), built by the same command
const builtRenderer = path.join(root, 'apps/web/dist-ssr/server-shell.js');

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

export function webIsStale() {
  if (!existsSync(builtMarker) || !existsSync(builtRenderer)) return true;
  const built = statSync(builtMarker).mtimeMs;
  return sources.some((source) => newestMtime(source) > built);
}

export function buildWebIfStale({ force = false } = {}) {
  if (!force && !webIsStale()) return;
  console.log('building the web app…');
  const result = spawnSync('npm', ['run', 'build', '-w', '@portal/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('the web app did not build');
    process.exit(result.status ?? 1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildWebIfStale({ force: process.argv.includes('--force') });
