// Builds the merchant's console (apps/console) when its dist is missing or older than its sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sources = ['apps/console/src', 'apps/console/index.html', 'apps/console/vite.config.ts', 'apps/console/package.json', 'packages/contract/src'].map((p) =>
  path.join(root, p),
);
const builtMarker = path.join(root, 'apps/console/dist/index.html');

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

export function consoleIsStale() {
  if (!existsSync(builtMarker)) return true;
  const built = statSync(builtMarker).mtimeMs;
  return sources.some((source) => newestMtime(source) > built);
}

export function buildConsoleIfStale({ force = false } = {}) {
  if (!force && !consoleIsStale()) return;
  console.log('building the console…');
  const result = spawnSync('npm', ['run', 'build', '-w', '@portal/console'], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (result.status !== 0) {
    console.error('the console did not build');
    process.exit(result.status ?? 1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildConsoleIfStale({ force: process.argv.includes('--force') });
