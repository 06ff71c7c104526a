import { createServices, type Services } from '../composition.ts';
import { type Config, loadConfig } from '../config.ts';
import { type Clock, systemClock } from '../lib/clock.ts';
import { AppError } from '../http/errors.ts';
import { Refused } from '../lib/refused.ts';
import { commandHelp, HELP, type OpsCommand, OpsError, OpsPartial, parseFlags, UsageError } from './command.ts';
import { type OperatorDatabase, openOperatorDatabase } from './connect.ts';
import { commands as registeredCommands } from './registry.ts';

export interface OpsIo {
  env: NodeJS.ProcessEnv;
  out(text: string): void;
  err(text: string): void;
  /** how the database is reached; tests hand in their own */
  open?(config: Config): Promise<OperatorDatabase>;
  commands?: OpsCommand[];
  /** the time the command acts at; tests hand in theirs */
  clock?: Clock;
}

/** Exit codes: 0 done, 1 refused (bad input, unknown host, …) or failed, 2 the command line is wrong. */
export const EXIT = { ok: 0, refused: 1, usage: 2 } as const;

/**
 * `npm run ops -- <command> [flags]`: the one place that parses, opens the database, runs the
 * command, prints and decides the exit code.
 */
export async function runOps(argv: string[], io: OpsIo): Promise<number> {
  const commands = io.commands ?? registeredCommands;
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.err : io.out)(overview(commands));
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    const near = commands.filter((candidate) => candidate.name.startsWith(name.split(':')[0] ?? name)).map((c) => c.name);
    io.err(
      `error: unknown command "${name}".${near.length ? ` Did you mean ${near.join(' or ')}?` : ''} \`npm run ops -- --help\` lists the commands.`,
    );
    return EXIT.usage;
  }

  let opened: OperatorDatabase | undefined;
  let services: Services | undefined;
  try {
    const flags = parseFlags(command, rest);
    if (flags === HELP) {
      io.out(commandHelp(command));
      return EXIT.ok;
    }
    let config: Config;
    try {
      config = loadConfig(io.env);
    } catch (error) {
      throw new OpsError((error as Error).message);
    }
    if (command.database === false) {
      io.out(await command.run(flags, { production: config.production, config }));
      return EXIT.ok;
    }
    opened = await (io.open ?? openOperatorDatabase)(config);
    io.err(`(database: ${opened.description})`);
    services = createServices({ config, database: opened.database, clock: io.clock ?? systemClock, log: quietLog, jobsSendOnly: true });
    // money a command moves may start a job (an auto top-up, a low-balance alert): sent within its transaction, run by a server
    await services.jobs.start();
    io.out(await command.run(flags, { production: config.production, config, services }));
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`error: ${error.message}\n\`npm run ops -- ${command.name} --help\` shows its flags.`);
      return EXIT.usage;
    }
    if (error instanceof OpsPartial) {
      io.out(error.output);
      io.err(`error: ${error.message}`);
      return EXIT.refused;
    }
    if (error instanceof OpsError || error instanceof Refused || error instanceof AppError) {
      io.err(`error: ${error.message}\nNothing was changed.`);
      return EXIT.refused;
    }
    const failure = error as Error;
    io.err(`error: ${command.name} failed: ${failure.message}${io.env.OPS_DEBUG ? `\n${failure.stack}` : ' (OPS_DEBUG=1 shows where)'}`);
    return EXIT.refused;
  } finally {
    await services?.jobs.stop().catch((error: Error) => io.err(`warning: closing the job queue: ${error.message}`));
    services?.mail.close?.();
    await opened?.close().catch((error: Error) => io.err(`warning: closing the database: ${error.message}`));
  }
}

/** The services' own log lines (a development provider's "see the outbox") are not the operator's output. */
const quietLog = { info() {}, warn() {}, error() {} };

export function overview(commands: OpsCommand[]) {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    'Usage: npm run ops -- <command> [flags]',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    '`npm run ops -- <command> --help` shows a command\'s flags.',
    'Database: PostgreSQL at DATABASE_URL when set; otherwise the embedded one in DATA_DIR (default ./data),',
    'reached through the running server when there is one; a command never creates it (the server\'s first start does).',
    'Exit code 0 done, 1 refused or failed, 2 wrong usage.',
  ].join('\n');
}
