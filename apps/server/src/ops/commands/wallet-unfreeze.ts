import { defineCommand } from '../command.ts';
import * as input from '../input.ts';
import { accountOf, merchantByHost } from '../lookup.ts';
import { cliActor } from './operator.ts';
import { walletFlags, whoIs } from './wallet-money.ts';

export const walletUnfreeze = defineCommand({
  name: 'wallet:unfreeze',
  summary: "Unfreeze an account's wallet: money may leave it again",
  usage: ['wallet:unfreeze --host HOST --account PHONE|EMAIL'],
  description:
    'The customer gets a station message (of type FREEZE, so an open wallet screen checks the status again and drops its banner). Unfreezing a wallet that is not frozen changes nothing.',
  flags: walletFlags,
  examples: ['wallet:unfreeze --host localhost --account 13800138000'],
  async run(flags, { services }) {
    const host = input.requireFlag(flags.host, 'host', 'wallet:unfreeze');
    const who = input.requireFlag(flags.account, 'account', 'wallet:unfreeze');
    const merchant = await merchantByHost(services, host);
    const account = await accountOf(services, merchant, who);
    const changed = await services.commandLine.walletStatus('UNFREEZE', merchant.id, account, '', cliActor());
    if (!changed) return `The wallet of ${whoIs(account)} at merchant ${merchant.slug} was not frozen; nothing changed and no message was sent.`;
    return `Unfroze the wallet of ${whoIs(account)} at merchant ${merchant.slug}; the customer got a station message.`;
  },
});
