import { parseArgs } from 'node:util';
import type { Services } from '../composition.ts';
import type { Config } from '../config.ts';

/**
 * An operator command: its flags, and a run() that takes the parsed flags and the services (the same
 * ones the server builds, over the command's database) and answers the text to print. It throws
 * OpsError for bad input before changing anything; a service's refusal (Refused, AppError) leaves
 * nothing changed either, since each service call is one transaction.
 *
 * Adding one: write src/ops/commands/<area>-<verb>.ts exporting `defineCommand({...})`, and add
 * it to the list in src/ops/registry.ts.
 */
interface CommandParts<F extends Flags> {
  /** `area:verb`, e.g. `merchant:set` */
  name: string;
  /** one line, shown in the command list */
  summary: string;
  /** how it is called, after `npm run ops --`, e.g. `merchant:list [--json]`; the first line by default */
  usage?: string[];
  /** more about what it does, shown by `<command> --help` */
  description?: string;
  flags: F;
  /** a flag that may also be given as the one bare argument (`deposit:import FILE`) */
  positional?: keyof F & string;
  examples?: string[];
}

/** A command on the portal's database: the usual kind. */
export interface DatabaseCommand<F extends Flags = Flags> extends CommandParts<F> {
  database?: true;
  run(flags: FlagValues<F>, context: OpsContext): Promise<string>;
}

/**
 * A command that needs no database (it asks the card issuer, say): none is opened, so it also works
 * where DATA_DIR holds no database yet, and it gets no services.
 */
export interface PlainCommand<F extends Flags = Flags> extends CommandParts<F> {
  database: false;
  run(flags: FlagValues<F>, context: PlainOpsContext): Promise<string>;
}

export type OpsCommand<F extends Flags = Flags> = DatabaseCommand<F> | PlainCommand<F>;

/** What any command may need to know of where it runs. */
export interface PlainOpsContext {
  /** NODE_ENV=production: e.g. a merchant's origin must then be https:// */
  production: boolean;
  /** the configuration from the command's environment, as the server reads its own */
  config: Config;
}

/** ...and for a command on the database, the services it works through. */
export interface OpsContext extends PlainOpsContext {
  /** the modules' services on this database, as the server builds them (composition.ts) */
  services: Services;
}

export interface FlagSpec {
  type: 'string' | 'boolean';
  description: string;
  /** the placeholder shown in help, e.g. HOST */
  value?: string;
  /** may be given more than once; the values arrive as an array */
  multiple?: boolean;
}

export type Flags = Record<string, FlagSpec>;

export type FlagValue<S extends FlagSpec> = S['type'] extends 'boolean'
  ? boolean | undefined
  : S['multiple'] extends true
    ? string[] | undefined
    : string | undefined;

export type FlagValues<F extends Flags> = { [K in keyof F]: FlagValue<F[K]> };

export function defineCommand<const F extends Flags>(command: DatabaseCommand<F>): DatabaseCommand<F> {
  return command;
}

/** A command that opens no database (PlainCommand). */
export function definePlainCommand<const F extends Flags>(command: Omit<PlainCommand<F>, 'database'>): PlainCommand<F> {
  return { ...command, database: false };
}

/** Input the operator can fix: the message is printed as it is, the exit code is 1. */
export class OpsError extends Error {
  override name = 'OpsError';
}

/** A command that did part of its work: `output` is printed as the result, the message as the error, the exit code is 1. */
export class OpsPartial extends OpsError {
  override name = 'OpsPartial';
  constructor(
    readonly output: string,
    message: string,
  ) {
    super(message);
  }
}

/** The command line itself is wrong (unknown command or flag, a flag without its value): exit code 2. */
export class UsageError extends OpsError {
  override name = 'UsageError';
}

export const HELP = Symbol('help');

/** Parses a command's flags strictly; `--help` anywhere answers HELP. */
export function parseFlags<F extends Flags>(command: OpsCommand<F>, argv: string[]): FlagValues<F> | typeof HELP {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const [name, spec] of Object.entries(command.flags)) {
    options[name] = { type: spec.type, ...(spec.multiple ? { multiple: true } : {}) };
  }
  if (argv.includes('--help') || argv.includes('-h')) return HELP;
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options, strict: true, allowPositionals: command.positional !== undefined, tokens: true });
  } catch (error) {
    throw new UsageError(`${command.name}: ${describeParseError(error as NodeJS.ErrnoException)}`);
  }
  const seen = new Map<string, number>();
  for (const token of parsed.tokens ?? []) {
    if (token.kind === 'option') seen.set(token.name, (seen.get(token.name) ?? 0) + 1);
  }
  for (const [name, count] of seen) {
    if (count > 1 && !command.flags[name]?.multiple) {
      throw new UsageError(`${command.name}: --${name} is given ${count} times; give it once`);
    }
  }
  if (command.positional !== undefined && parsed.positionals.length > 0) {
    if (parsed.positionals.length > 1 || seen.has(command.positional)) {
      throw new UsageError(`${command.name}: give one ${command.flags[command.positional]?.value ?? command.positional}, either bare or with --${command.positional}`);
    }
    (parsed.values as Record<string, unknown>)[command.positional] = parsed.positionals[0];
  }
  return parsed.values as FlagValues<F>;
}

function describeParseError(error: NodeJS.ErrnoException) {
  const flag = /'(--?[^' ]+)/.exec(error.message)?.[1];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown flag ${flag ?? ''}`.trim();
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL': {
      const value = /Unexpected argument '([^']*)'/.exec(error.message)?.[1];
      return `unexpected argument ${value === undefined ? '' : `'${value}'`} (every value follows its flag, e.g. --name 蓝鲸卡)`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/does not take an argument/.test(error.message)) return `${flag} takes no value`;
      return `${flag} needs a value (a value that starts with "-" is written ${flag}=-value)`;
    default:
      return error.message;
  }
}

/** `npm run ops -- <command> --help` */
export function commandHelp(command: OpsCommand): string {
  const lines: string[] = [];
  const usage = command.usage ?? [`${command.name} [flags]`];
  for (const [index, line] of usage.entries()) lines.push(`${index === 0 ? 'Usage: ' : '       '}npm run ops -- ${line}`);
  lines.push('', command.summary);
  if (command.description) lines.push('', command.description);
  const rows = Object.entries(command.flags).map(([name, spec]) => {
    const left = `--${name}${spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : ''}`;
    return [left, `${spec.description}${spec.multiple ? ' (may be repeated)' : ''}`] as const;
  });
  rows.push(['--help', 'show this help']);
  const width = Math.max(...rows.map(([left]) => left.length));
  lines.push('', 'Flags:');
  for (const [left, right] of rows) lines.push(`  ${left.padEnd(width)}  ${right}`);
  if (command.examples?.length) {
    lines.push('', 'Examples:');
    for (const example of command.examples) lines.push(`  npm run ops -- ${example}`);
  }
  return lines.join('\n');
}
