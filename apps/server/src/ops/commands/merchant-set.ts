import type { Services } from '../../composition.ts';
import type { MerchantChanges } from '../../modules/merchants/service.ts';
import { defineCommand, type FlagValues, OpsError, type OpsContext, UsageError } from '../command.ts';
import * as input from '../input.ts';
import { merchantByHost } from '../lookup.ts';
import { cliActor } from './operator.ts';
import { AMOUNT_PATTERN, fromMinorUnits, toMinorUnits } from '@portal/contract/money';

type BrandingColumn = 'name' | 'color' | 'website' | 'favicon' | 'darkLogo' | 'lightLogo' | 'icp' | 'version' | 'supportEmail' | 'origin';

/** The flags that set a column of the merchant, the column each sets, and how its value is checked. */
const branding: Array<{
  flag: keyof typeof flags;
  column: BrandingColumn;
  parse: (value: string, context: OpsContext) => string;
  show?: (value: string) => string;
}> = [
  { flag: 'name', column: 'name', parse: (v) => input.text(v, 'name', { max: 60 }) },
  { flag: 'color', column: 'color', parse: input.color, show: input.colorName },
  { flag: 'website', column: 'website', parse: input.website },
  { flag: 'favicon', column: 'favicon', parse: (v) => input.asset(v, 'favicon') },
  { flag: 'dark-logo', column: 'darkLogo', parse: (v) => input.asset(v, 'dark-logo') },
  { flag: 'light-logo', column: 'lightLogo', parse: (v) => input.asset(v, 'light-logo') },
  { flag: 'icp', column: 'icp', parse: (v) => input.optionalText(v, 'icp', { max: 100 }) },
  { flag: 'version', column: 'version', parse: input.version },
  { flag: 'support-email', column: 'supportEmail', parse: (v) => input.email(v, 'support-email') },
  { flag: 'origin', column: 'origin', parse: input.origin },
];

const flags = {
  host: { type: 'string', value: 'HOST', description: 'choose the merchant by one of its hosts (with --create: its first host)' },
  slug: { type: 'string', value: 'SLUG', description: 'choose the merchant by its slug (with --create: the new slug)' },
  create: { type: 'boolean', description: 'create a new merchant; needs --slug, --name and --host' },
  name: { type: 'string', value: 'NAME', description: 'name of the merchant, e.g. 蓝鲸卡' },
  color: {
    type: 'string',
    value: 'COLOUR',
    description: 'theme: blue, orange, purple, red or yellow (or MERCHANT_COLOR_BLUE …)',
  },
  website: { type: 'string', value: 'SITE', description: 'website shown as page title and in the copyright line, e.g. bluewhale.example' },
  favicon: { type: 'string', value: 'URL', description: 'favicon: a path on this site (/brand/…) or an https:// address; "" clears it' },
  'dark-logo': { type: 'string', value: 'URL', description: 'logo for light backgrounds, as --favicon' },
  'light-logo': { type: 'string', value: 'URL', description: 'logo for dark backgrounds, as --favicon' },
  icp: { type: 'string', value: 'TEXT', description: 'ICP filing number shown in the footer, e.g. 沪ICP备2021018801号-1; "" clears it' },
  version: { type: 'string', value: 'YEARS', description: 'copyright years: YYYY (runs to this year) or YYYY-YYYY' },
  'support-email': { type: 'string', value: 'EMAIL', description: 'customer support e-mail address; "" clears it' },
  origin: {
    type: 'string',
    value: 'ORIGIN',
    description:
      'where links in mail (password reset) point: https://host[:port], one of its hosts, no path; http:// only for localhost names outside production; "" clears it',
  },
  'add-host': { type: 'string', value: 'HOST', multiple: true, description: 'add a host name; a host belongs to one merchant only' },
  'approval-threshold': {
    type: 'string',
    value: 'AMOUNT',
    description: 'the console\'s four-eyes threshold, the same in each currency: a recharge, deduction or adjustment above it waits for a second operator (default 1000.00); with --host',
  },
  'remove-host': {
    type: 'string',
    value: 'HOST',
    multiple: true,
    description: "remove a host name (never the merchant's last one)",
  },
} as const;

type Values = FlagValues<typeof flags>;

export const merchantSet = defineCommand({
  name: 'merchant:set',
  summary: "Change a merchant's branding, theme and hosts, or create a merchant",
  usage: [
    'merchant:set (--host HOST | --slug SLUG) [--name NAME] [--color COLOUR] [--website SITE] … [--add-host HOST] [--remove-host HOST]',
    'merchant:set --create --slug SLUG --name NAME --host HOST [--color COLOUR] [--website SITE] …',
  ],
  description:
    'Running servers show the change at once. A new merchant gets the blue theme, its host as website and this year as version unless told otherwise.',
  flags,
  examples: [
    'merchant:set --host localhost --website newsite.example --color red',
    'merchant:set --slug orange --version 2023-2026 --icp "粤ICP备2023045502号-2"',
    'merchant:set --slug orange --add-host shop.orange.example --remove-host orange.localhost',
    'merchant:set --slug orange --add-host portal.orange.example --origin https://portal.orange.example',
    'merchant:set --host localhost --approval-threshold 5000.00',
    'merchant:set --create --slug acme --name "极光卡" --host acme.localhost --color purple',
  ],
  async run(values, context) {
    const changes = brandingChanges(values, context);
    const addHosts = hostList(values['add-host'], 'add-host');
    const removeHosts = hostList(values['remove-host'], 'remove-host');
    const both = addHosts.find((host) => removeHosts.includes(host));
    if (both) throw new UsageError(`merchant:set: ${both} is given to both --add-host and --remove-host`);
    if (values.create) {
      if (values['approval-threshold'] !== undefined) throw new UsageError('merchant:set: --approval-threshold does not go with --create; set it once the merchant exists');
      return create(context.services, values, changes, addHosts, removeHosts);
    }
    const threshold = values['approval-threshold'];
    if (threshold !== undefined) {
      const told = await setThreshold(context.services, values, threshold);
      if (Object.keys(changes).length === 0 && addHosts.length === 0 && removeHosts.length === 0) return told;
      return `${await update(context.services, values, changes, addHosts, removeHosts)}\n${told}`;
    }
    return update(context.services, values, changes, addHosts, removeHosts);
  },
});

/** --approval-threshold: an amount above zero with at most two decimals. */
function thresholdOf(raw: string) {
  const value = raw.trim().replaceAll(',', '');
  if (!AMOUNT_PATTERN.test(value) || toMinorUnits(value) <= 0n) {
    throw new OpsError(`--approval-threshold must be an amount above zero with at most two decimals, such as 1000 or 5000.00, not "${raw}"`);
  }
  return toMinorUnits(value);
}

async function setThreshold(services: Services, values: Values, raw: string) {
  if (values.host === undefined) throw new UsageError('merchant:set: --approval-threshold needs the merchant by --host');
  const merchant = await merchantByHost(services, values.host);
  const amount = thresholdOf(raw);
  const { before, after } = await services.consoleMoney.setThreshold(merchant.id, amount, cliActor());
  return `Approval threshold of ${merchant.slug}: ${fromMinorUnits(before)} → ${fromMinorUnits(after)} (in each currency; a console recharge, deduction or adjustment above it waits for a second operator)`;
}

function brandingChanges(values: Values, context: OpsContext) {
  const changes: MerchantChanges = {};
  for (const field of branding) {
    const raw = values[field.flag];
    if (typeof raw === 'string') changes[field.column] = field.parse(raw, context);
  }
  return changes;
}

function hostList(raw: string[] | undefined, flag: string) {
  const hosts = (raw ?? []).map((value) => input.host(value, flag));
  const twice = hosts.find((host, index) => hosts.indexOf(host) !== index);
  if (twice) throw new UsageError(`merchant:set: --${flag} ${twice} is given twice`);
  return hosts;
}

async function update(services: Services, values: Values, changes: MerchantChanges, addHosts: string[], removeHosts: string[]) {
  if (values.host !== undefined && values.slug !== undefined) {
    throw new UsageError('merchant:set: choose the merchant with --host or with --slug, not both');
  }
  if (values.host === undefined && values.slug === undefined) {
    throw new UsageError('merchant:set: choose the merchant with --host HOST or --slug SLUG (or make a new one with --create)');
  }
  if (Object.keys(changes).length === 0 && addHosts.length === 0 && removeHosts.length === 0) {
    throw new UsageError(
      `merchant:set: nothing to change; give at least one of ${[...branding.map((f) => `--${f.flag}`), '--add-host', '--remove-host', '--approval-threshold'].join(', ')}`,
    );
  }
  const which = values.host === undefined ? { slug: input.slug(values.slug as string) } : { host: input.host(values.host) };
  const result = await services.merchants.update(which, changes, { add: addHosts, remove: removeHosts });

  const lines = [`Updated merchant ${result.after.slug} (${result.after.name}):`];
  const rows: Array<[string, string]> = [];
  for (const field of branding) {
    if (changes[field.column] === undefined) continue;
    const show = field.show ?? ((value: string) => value);
    const before = show(result.before[field.column]);
    const after = show(result.after[field.column]);
    rows.push([field.flag, before === after ? `${after} (unchanged)` : `${quoted(before)} → ${quoted(after)}`]);
  }
  if (addHosts.length > 0) rows.push(['added', addHosts.join(', ')]);
  if (removeHosts.length > 0) rows.push(['removed', removeHosts.join(', ')]);
  if (addHosts.length > 0 || removeHosts.length > 0) rows.push(['hosts', result.hosts.join(', ')]);
  lines.push(...aligned(rows));
  if (result.notice) lines.push(`Note: ${result.notice}`);
  return lines.join('\n');
}

async function create(services: Services, values: Values, changes: MerchantChanges, addHosts: string[], removeHosts: string[]) {
  if (removeHosts.length > 0) throw new UsageError('merchant:set: --remove-host does not go with --create');
  if (values.slug === undefined || changes.name === undefined || values.host === undefined) {
    const missing = [values.slug === undefined && '--slug', changes.name === undefined && '--name', values.host === undefined && '--host']
      .filter(Boolean)
      .join(', ');
    throw new UsageError(`merchant:set --create needs --slug, --name and --host; missing ${missing}`);
  }
  const slug = input.slug(values.slug);
  const firstHost = input.host(values.host);
  if (addHosts.includes(firstHost)) throw new UsageError(`merchant:set: ${firstHost} is given to both --host and --add-host`);
  const hosts = [firstHost, ...addHosts];
  const { merchant, notice } = await services.merchants.create({ ...changes, slug, name: changes.name }, hosts);

  const lines = [`Created merchant ${merchant.slug} (${merchant.name}):`];
  lines.push(
    ...aligned([
      ['hosts', hosts.join(', ')],
      ['theme', input.colorName(merchant.color)],
      ['website', merchant.website],
      ['version', merchant.version],
      ['icp', merchant.icp || '-'],
      ['favicon', merchant.favicon || '-'],
      ['dark-logo', merchant.darkLogo || '-'],
      ['light-logo', merchant.lightLogo || '-'],
      ['support-email', merchant.supportEmail || '-'],
      ['origin', merchant.origin || '-'],
    ]),
  );
  if (notice) lines.push(`Note: ${notice}`);
  return lines.join('\n');
}

function aligned(rows: Array<[string, string]>) {
  const width = Math.max(0, ...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`);
}

const quoted = (value: string) => (value === '' ? '""' : value);
