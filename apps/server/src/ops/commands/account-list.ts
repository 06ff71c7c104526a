import { defineCommand } from '../command.ts';
import * as input from '../input.ts';
import { merchantByHost } from '../lookup.ts';
import { textTable } from '../table.ts';

export const accountList = defineCommand({
  name: 'account:list',
  summary: "List a merchant's accounts: phone, e-mail, status, customer manager, created",
  usage: ['account:list --host HOST [--json]'],
  flags: {
    host: { type: 'string', value: 'HOST', description: 'the merchant, by one of its hosts' },
    json: { type: 'boolean', description: 'print the accounts as JSON, for scripts' },
  },
  examples: ['account:list --host localhost'],
  async run(flags, { services }) {
    const merchant = await merchantByHost(services, input.requireFlag(flags.host, 'host', 'account:list'));
    const accounts = await services.directory.list(merchant.id);
    const rows = accounts.map((a) => ({
      id: a.id,
      phone: `+${a.phonePrefix} ${a.phone}`,
      email: a.email,
      status: a.status,
      manager: a.managerName ? `${a.managerName} (${a.invitationCode})` : null,
      created_at: a.createdAt.toISOString(),
    }));
    if (flags.json) return JSON.stringify(rows, null, 2);
    if (rows.length === 0) return `Merchant ${merchant.slug} has no accounts yet.`;
    const table = textTable(
      ['PHONE', 'EMAIL', 'STATUS', 'MANAGER', 'CREATED'],
      rows.map((r) => [r.phone, r.email ?? '-', r.status, r.manager ?? '-', r.created_at.slice(0, 19).replace('T', ' ')]),
    );
    return `${table}\n${rows.length} account${rows.length === 1 ? '' : 's'} at merchant ${merchant.slug}`;
  },
});
