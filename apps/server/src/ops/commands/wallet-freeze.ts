import { defineCommand } from '../command.ts';
import * as input from '../input.ts';
import { accountOf, merchantByHost } from '../lookup.ts';
import { cliActor } from './operator.ts';
import { walletFlags, whoIs } from './wallet-money.ts';

export const walletFreeze = defineCommand({
  name: 'wallet:freeze',
  summary: "Freeze an account's wallet: no money leaves it until wallet:unfreeze",
  usage: ['wallet:freeze --host HOST --account PHONE|EMAIL [--reason TEXT]'],
  description:
    'While frozen, nothing leaves the wallet: no deduction or adjustment, no hold, no card opening, no transfer to a card (money may still come in, and held money may be released back). The customer gets a FREEZE station message, and an open wallet screen shows the frozen banner at once. Freezing a frozen wallet changes nothing.',
  flags: {
    ...walletFlags,
    reason: { type: 'string', value: 'TEXT', description: 'why, shown to the customer (e.g. 账户安全审核中)' },
  },
  examples: ['wallet:freeze --host localhost --account 13800138000 --reason 账户安全审核中'],
  async run(flags, { services }) {
    const host = input.requireFlag(flags.host, 'host', 'wallet:freeze');
    const who = input.requireFlag(flags.account, 'account', 'wallet:freeze');
    const reason = flags.reason === undefined ? '' : input.text(flags.reason, 'reason', { max: 200 });
    const merchant = await merchantByHost(services, host);
    const account = await accountOf(services, merchant, who);
    const changed = await services.commandLine.walletStatus('FREEZE', merchant.id, account, reason, cliActor());
    if (!changed) {
      const status = await services.wallet.status(merchant.id, account.id);
      return `The wallet of ${whoIs(account)} at merchant ${merchant.slug} was frozen already${
        status.changed_at ? ` (since ${status.changed_at}${status.reason ? `, reason: ${status.reason}` : ''})` : ''
      }; nothing changed and no message was sent.`;
    }
    return [
      `Froze the wallet of ${whoIs(account)} at merchant ${merchant.slug}.`,
      `  reason   ${reason || '-'}`,
      '  The customer got a FREEZE station message; no money leaves the wallet until wallet:unfreeze.',
    ].join('\n');
  },
});
