import { rules } from '@portal/contract/rules';
import { findManagerByCode, insertManager } from '../../modules/managers/store.ts';
import { defineCommand, OpsError } from '../command.ts';
import * as input from '../input.ts';
import { merchantByHost } from '../lookup.ts';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

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
  async run(database, flags) {
    const host = input.requireFlag(flags.host, 'host', 'manager:create');
    const name = input.text(input.requireFlag(flags.name, 'name', 'manager:create'), 'name', { max: 50 });
    const wanted = flags.code?.trim();
    if (wanted !== undefined && rules.invitationCode(wanted) !== null) throw new OpsError(`--code must be 4 letters or digits, not "${flags.code}"`);
    const manager = await database.db.transaction(async (tx) => {
      const merchant = await merchantByHost(tx, host);
      let code = wanted?.toUpperCase();
      if (code) {
        if (await findManagerByCode(tx, merchant.id, code)) throw new OpsError(`merchant ${merchant.slug} already has the invitation code ${code}`);
      } else {
        for (let attempt = 0; attempt < 50 && !code; attempt++) {
          const drawn = Array.from({ length: 4 }, () => ALPHABET[Math.floor(Math.random() * ALPHABET.length)]).join('');
          if (!(await findManagerByCode(tx, merchant.id, drawn))) code = drawn;
        }
        if (!code) throw new OpsError('could not draw a free invitation code; give one with --code');
      }
      return { merchant, row: await insertManager(tx, { merchantId: merchant.id, name, invitationCode: code }) };
    });
    return `Created customer manager ${manager.row.name} at merchant ${manager.merchant.slug} with the invitation code ${manager.row.invitationCode}`;
  },
});
