// `npm test`: the type check and the linter, then every test project in turn — unit, API on PGlite, API on PostgreSQL, then the web
// build and the browser tests. A failure stops nothing: all runs go, then the exit code is
// non-zero if anything failed, and the last line is exactly "N passed, M failed" (tests counted
// across all runs from vitest's JSON report).
//
// PostgreSQL is TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test. When it cannot be
// reached the PostgreSQL run counts as failed, unless SKIP_POSTGRES=1.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { consoleIsStale } from './console-build.mjs';
import { webIsStale } from './web-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const vitestBin = path.join(root, 'node_modules/vitest/vitest.mjs');
const reportDir = mkdtempSync(path.join(os.tmpdir(), 'portal-test-report-'));
const postgresUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const skipPostgres = process.env.SKIP_POSTGRES === '1';

/** one line per run: name, passed, failed, seconds, note */
const results = [];
/** every failed test, `project › file › name`, repeated after the summary so the end of the output names them */
const failures = [];
const started = Date.now();

function run(command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', (error) => {
      console.error(error);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

function banner(text) {
  console.log(`\n\x1b[1m━━ ${text} ${'━'.repeat(Math.max(0, 70 - text.length))}\x1b[0m`);
}

/** Runs one vitest project and counts its tests from the JSON report. */
async function vitestProject(project, env = {}) {
  banner(`vitest --project ${project}`);
  const t0 = Date.now();
  const report = path.join(reportDir, `${project}.json`);
  const code = await run(
    process.execPath,
    [vitestBin, 'run', '--project', project, '--passWithNoTests', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    env,
  );
  let passed = 0;
  let failed = 0;
  let note = '';
  try {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    passed = json.numPassedTests ?? 0;
    failed = json.numFailedTests ?? 0;
    for (const file of json.testResults ?? []) {
      const where = path.relative(root, file.name ?? '');
      const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
      for (const test of failedTests) failures.push(`${project} › ${where} › ${test.fullName ?? test.title}`);
      if (failedTests.length === 0 && file.status === 'failed') failures.push(`${project} › ${where} › (outside the tests) ${String(file.message ?? '').split('\n')[0].slice(0, 200)}`);
    }
    // a file that fails outside a test (a hook, an import) fails no test but must still count
    if (code !== 0 && failed === 0) {
      failed = Math.max(1, json.numFailedTestSuites ?? 0);
      note = 'failed outside the tests (hook, import or set-up)';
    }
  } catch {
    if (code !== 0) {
      failed = 1;
      note = `vitest exited ${code} without a report`;
    }
  }
  results.push({ name: project, passed, failed, seconds: (Date.now() - t0) / 1000, note });
}

async function postgresReachable() {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

banner('typecheck');
{
  const t0 = Date.now();
  const code = await run('npm', ['run', 'typecheck']);
  results.push({ name: 'typecheck', passed: 0, failed: code === 0 ? 0 : 1, seconds: (Date.now() - t0) / 1000, note: code === 0 ? 'server, contract, tests, web, console' : 'type errors' });
}

banner('lint');
{
  const t0 = Date.now();
  const code = await run('npm', ['run', 'lint']);
  results.push({ name: 'lint', passed: 0, failed: code === 0 ? 0 : 1, seconds: (Date.now() - t0) / 1000, note: code === 0 ? 'biome' : 'lint errors' });
}

await vitestProject('unit');
await vitestProject('api-pglite');

const reachable = await postgresReachable();
if (reachable === true) {
  await vitestProject('api-postgres');
} else {
  const lines = [
    `PostgreSQL is NOT reachable at ${postgresUrl}`,
    `  (${reachable})`,
    'The API suite did NOT run on PostgreSQL.',
    skipPostgres
      ? 'SKIP_POSTGRES=1: going on without it.'
      : 'Start it (pg_ctlcluster --skip-systemctl-redirect <version> main start), set TEST_DATABASE_URL, or set SKIP_POSTGRES=1.',
  ];
  const width = Math.max(...lines.map((line) => line.length)) + 4;
  console.error(`\n\x1b[1;31m${'!'.repeat(width)}\n${lines.map((line) => `! ${line}`).join('\n')}\n${'!'.repeat(width)}\x1b[0m\n`);
  results.push({
    name: 'api-postgres',
    passed: 0,
    failed: skipPostgres ? 0 : 1,
    seconds: 0,
    note: skipPostgres ? 'SKIPPED: PostgreSQL not reachable, SKIP_POSTGRES=1' : 'PostgreSQL not reachable',
  });
}

banner('web build');
{
  const t0 = Date.now();
  if (webIsStale()) {
    const code = await run('npm', ['run', 'build', '-w', '@portal/web']);
    results.push({
      name: 'web build',
      passed: 0,
      failed: code === 0 ? 0 : 1,
      seconds: (Date.now() - t0) / 1000,
      note: code === 0 ? 'built' : `build exited ${code}`,
    });
  } else {
    console.log('apps/web/dist is up to date');
    results.push({ name: 'web build', passed: 0, failed: 0, seconds: 0, note: 'up to date' });
  }
  // the merchant's console is built beside the portal: the browser tests open it too
  const t1 = Date.now();
  if (consoleIsStale()) {
    const code = await run('npm', ['run', 'build', '-w', '@portal/console'], { NODE_ENV: 'production' });
    results.push({ name: 'console build', passed: 0, failed: code === 0 ? 0 : 1, seconds: (Date.now() - t1) / 1000, note: code === 0 ? 'built' : `build exited ${code}` });
  } else {
    console.log('apps/console/dist is up to date');
  }
}

await vitestProject('e2e');

rmSync(reportDir, { recursive: true, force: true });

const passed = results.reduce((sum, r) => sum + r.passed, 0);
const failed = results.reduce((sum, r) => sum + r.failed, 0);
banner(`summary (${((Date.now() - started) / 1000).toFixed(0)} s)`);
for (const r of results) {
  const status = r.failed > 0 ? '\x1b[31mFAIL\x1b[0m' : '\x1b[32m ok \x1b[0m';
  console.log(
    `${status} ${r.name.padEnd(14)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(3)} failed ${r.seconds.toFixed(0).padStart(5)} s${r.note ? `  ${r.note}` : ''}`,
  );
}
if (failures.length > 0) {
  console.log('failed:');
  for (const line of failures) console.log(`  ${line}`);
}
if (reachable !== true) {
  console.log(`\x1b[1;31m!! PostgreSQL was not reachable at ${postgresUrl}: the API suite did not run on it\x1b[0m`);
}
// .ci/run passes its start time, so the whole CI run's time shows too
const ciStarted = Number(process.env.CI_STARTED_AT);
if (ciStarted > 0) console.log(`CI elapsed ${Math.round(Date.now() / 1000 - ciStarted)} s (installs included)`);
process.exitCode = failed > 0 ? 1 : 0;
console.log(`${passed} passed, ${failed} failed`);
