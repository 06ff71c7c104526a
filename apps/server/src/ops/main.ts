import { runOps } from './cli.ts';

const code = await runOps(process.argv.slice(2), {
  env: process.env,
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
});
process.exitCode = code;
// a connection attempt that timed out may still hold a handle; it must not keep the command alive
setTimeout(() => process.exit(code), 2_000).unref();
