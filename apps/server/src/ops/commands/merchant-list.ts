import { defineCommand } from '../command.ts';
import { colorName } from '../input.ts';
import { textTable } from '../table.ts';

export const merchantList = defineCommand({
  name: 'merchant:list',
  summary: 'List the merchants: slug, name, theme, website, hosts, origin of mailed links, filing number (icp), version',
  usage: ['merchant:list [--json]'],
  flags: {
    json: { type: 'boolean', description: 'print the merchants as JSON, for scripts' },
  },
  examples: ['merchant:list', 'merchant:list --json'],
  async run(flags, { services }) {
    const merchants = await services.merchants.list();
    if (flags.json) {
      return JSON.stringify(
        merchants.map((m) => ({
          slug: m.slug,
          name: m.name,
          color: m.color,
          website: m.website,
          hosts: m.hosts,
          icp: m.icp,
          version: m.version,
          favicon: m.favicon,
          dark_logo: m.darkLogo,
          light_logo: m.lightLogo,
          support_email: m.supportEmail,
          origin: m.origin,
        })),
        null,
        2,
      );
    }
    if (merchants.length === 0) {
      return 'No merchants yet. The server adds the demo merchants when it first starts; or create one with merchant:set --create.';
    }
    const table = textTable(
      ['SLUG', 'NAME', 'THEME', 'WEBSITE', 'ICP', 'VERSION', 'HOSTS', 'ORIGIN'],
      merchants.map((m) => [m.slug, m.name, colorName(m.color), m.website, m.icp || '-', m.version || '-', m.hosts.join(', '), m.origin || '-']),
    );
    return `${table}\n${merchants.length} merchant${merchants.length === 1 ? '' : 's'}`;
  },
});
