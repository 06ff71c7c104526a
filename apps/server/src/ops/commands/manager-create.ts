import { rules } from '@portal/contract/rules';
import { defineCommand, OpsError } from '../command.ts';
import * as input from '../input.ts';
import { merchantByHost } from '../lookup.ts';

export const managerCreate = defineCommand({
  name: 'manager:create',
  summary: 'Create a customer manager with an invitation code that ties new sign-ups to them',
  usage: ['manager:create --host HOST --name NAME [--code CODE]'],
  description: 'The code is 4 letters or digits, unique within the merchant and matched without regard to case; without --code one is drawn.',
  flags: {
    host: { type: 'string', value: 'HOST', description: 'the merchant, by one of its hosts' },
    name: { type: 'string', value: 'NAME', description: "the manager's name" },
    code: { type: 'string', value: 'CODE', description: 'the invitation code, 4 letters or digits' },
  },
  examples: ['manager:create --host localhost --name 赵经理', 'manager:create --host red.localhost --name 周经理 --code RD88'],
  async run(flags, { services }) {
    const host = input.requireFlag(flags.host, 'host', 'manager:create');
    const name = input.text(input.requireFlag(flags.name, 'name', 'manager:create'), 'name', { max: 50 });
    const wanted = flags.code?.trim();
    if (wanted !== undefined && rules.invitationCode(wanted) !== null) throw new OpsError(`--code must be 4 letters or digits, not "${flags.code}"`);
    const merchant = await merchantByHost(services, host);
    const manager = await services.managers.create({ merchantId: merchant.id, name, invitationCode: wanted }, merchant.slug);
    return `Created customer manager ${manager.name} at merchant ${merchant.slug} with the invitation code ${manager.invitationCode}`;
  },
});
