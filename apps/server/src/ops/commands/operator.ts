import { userInfo } from 'node:os';
import { OPERATOR_ROLES, type OperatorRole, operatorRoleLabel, operatorStatusLabel } from '@portal/contract/console';
import { chinaDateTime } from '@portal/contract/date-time';
import type { AuditActor } from '../../modules/operators/service.ts';
import { defineCommand, OpsError } from '../command.ts';
import * as input from '../input.ts';
import { merchantByHost } from '../lookup.ts';
import { textTable } from '../table.ts';

/** The command line as the audit log names it: the shell user who ran the command. */
export const cliActor = (): AuditActor => {
  let user = process.env.USER ?? 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // a user with no entry in the password file keeps $USER
  }
  return { channel: 'CLI', user };
};

function role(value: string): OperatorRole {
  const wanted = value.trim().toUpperCase();
  if (!(OPERATOR_ROLES as readonly string[]).includes(wanted)) throw new OpsError(`--role must be one of ${OPERATOR_ROLES.join(', ')}, not "${value}"`);
  return wanted as OperatorRole;
}

function operatorEmail(value: string | undefined, command: string) {
  const email = input.email(input.requireFlag(value, 'email', command), 'email');
  if (email === '') throw new OpsError(`${command} needs --email`);
  return email.toLowerCase();
}

const hostFlag = { type: 'string', value: 'HOST', description: 'the merchant, by one of its hosts' } as const;
const emailFlag = { type: 'string', value: 'EMAIL', description: "the operator's e-mail, their sign-in name" } as const;

export const operatorCreate = defineCommand({
  name: 'operator:create',
  summary: "Create a console operator (SUPPORT, FINANCE, RISK or ADMIN) with a password shown once; they enrol TOTP at their first sign-in",
  usage: ['operator:create --host HOST --email EMAIL --role ROLE [--name NAME]'],
  description:
    'The password is printed this once and kept only hashed: hand it to the operator over a safe channel. At their first sign-in at https://HOST/console/ they scan a QR code into an authenticator app and are shown their recovery codes. Audit-logged.',
  flags: {
    host: hostFlag,
    email: emailFlag,
    role: { type: 'string', value: 'ROLE', description: `one of ${OPERATOR_ROLES.join(', ')}` },
    name: { type: 'string', value: 'NAME', description: 'the name the console shows (default: the part of the e-mail before @)' },
  },
  examples: ['operator:create --host localhost --email ops@example.com --role ADMIN --name 王运营'],
  async run(flags, { services }) {
    const email = operatorEmail(flags.email, 'operator:create');
    const wanted = role(input.requireFlag(flags.role, 'role', 'operator:create'));
    const name = flags.name === undefined ? undefined : input.text(flags.name, 'name', { max: 50 });
    const merchant = await merchantByHost(services, input.requireFlag(flags.host, 'host', 'operator:create'));
    const { operator, password } = await services.operators.create(merchant.id, { email, name, role: wanted }, cliActor());
    return [
      `Created operator ${operator.email} (${operator.name}, ${operator.role} ${operatorRoleLabel[operator.role]}) at merchant ${merchant.slug}`,
      `password: ${password}`,
      'It is shown this once. At the first sign-in at /console/ the operator enrols an authenticator app (TOTP).',
    ].join('\n');
  },
});

export const operatorList = defineCommand({
  name: 'operator:list',
  summary: "List a merchant's console operators: e-mail, name, role, status, TOTP enrolled, last sign-in",
  usage: ['operator:list --host HOST [--json]'],
  flags: { host: hostFlag, json: { type: 'boolean', description: 'print the operators as JSON, for scripts' } },
  examples: ['operator:list --host localhost'],
  async run(flags, { services }) {
    const merchant = await merchantByHost(services, input.requireFlag(flags.host, 'host', 'operator:list'));
    const operators = await services.operators.list(merchant.id);
    if (flags.json) return JSON.stringify(operators, null, 2);
    if (operators.length === 0) return `merchant ${merchant.slug} has no operators (operator:create adds one)`;
    return textTable(
      ['email', 'name', 'role', 'status', 'totp', 'last sign-in (China time)'],
      operators.map((each) => [
        each.email,
        each.name,
        `${each.role} ${operatorRoleLabel[each.role]}`,
        operatorStatusLabel[each.status],
        each.totp_enrolled ? 'enrolled' : 'not yet',
        each.last_sign_in_at ? chinaDateTime(each.last_sign_in_at) : '—',
      ]),
    );
  },
});

export const operatorDisable = defineCommand({
  name: 'operator:disable',
  summary: "Disable a console operator: they cannot sign in, and their sessions end at once",
  usage: ['operator:disable --host HOST --email EMAIL'],
  flags: { host: hostFlag, email: emailFlag },
  examples: ['operator:disable --host localhost --email ops@example.com'],
  async run(flags, { services }) {
    const email = operatorEmail(flags.email, 'operator:disable');
    const merchant = await merchantByHost(services, input.requireFlag(flags.host, 'host', 'operator:disable'));
    const operator = await services.operators.disable(merchant.id, email, cliActor());
    return `Disabled operator ${operator.email} at merchant ${merchant.slug}; their sessions have ended`;
  },
});

export const operatorReset = defineCommand({
  name: 'operator:reset',
  summary: "Reset a console operator's password and TOTP: a new password shown once, enrolment again at the next sign-in",
  usage: ['operator:reset --host HOST --email EMAIL'],
  description: 'For a lost phone or a forgotten password: the authenticator, the recovery codes and any lock are cleared and every session ends. A disabled operator stays disabled.',
  flags: { host: hostFlag, email: emailFlag },
  examples: ['operator:reset --host localhost --email ops@example.com'],
  async run(flags, { services }) {
    const email = operatorEmail(flags.email, 'operator:reset');
    const merchant = await merchantByHost(services, input.requireFlag(flags.host, 'host', 'operator:reset'));
    const { operator, password } = await services.operators.reset(merchant.id, email, cliActor());
    return [
      `Reset operator ${operator.email} at merchant ${merchant.slug}: their authenticator and recovery codes are cleared and their sessions have ended`,
      `password: ${password}`,
      'It is shown this once. At the next sign-in the operator enrols an authenticator app again.',
    ].join('\n');
  },
});
