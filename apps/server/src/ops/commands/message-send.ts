import { defineCommand, UsageError } from '../command.ts';
import * as input from '../input.ts';
import { accountOf, merchantByHost } from '../lookup.ts';
import { cliActor } from './operator.ts';

const MAX_CONTENT = 20_000;

export const messageSend = defineCommand({
  name: 'message:send',
  summary: "Send a station message to one account; its open portal tabs show it at once",
  usage: ['message:send --host HOST --account PHONE|EMAIL --title TITLE --content HTML [--type TYPE] [--status success|fail]'],
  description: 'The content may be HTML; the portal cleans it when shown. The title is cut to 15 characters in the floating notice.',
  flags: {
    host: { type: 'string', value: 'HOST', description: 'the merchant, by one of its hosts' },
    account: { type: 'string', value: 'PHONE|EMAIL', description: 'the account, by its phone or e-mail' },
    title: { type: 'string', value: 'TITLE', description: 'the message title' },
    content: { type: 'string', value: 'HTML', description: 'the message text (HTML allowed)' },
    type: { type: 'string', value: 'TYPE', description: 'message type, NOTICE by default (FREEZE makes the portal re-check the wallet)' },
    status: { type: 'string', value: 'STATUS', description: 'success (default) or fail' },
  },
  examples: ['message:send --host localhost --account 13800138000 --title 系统维护通知 --content "<p>今晚22:00系统维护。</p>"'],
  async run(flags, { services }) {
    const command = 'message:send';
    const host = input.requireFlag(flags.host, 'host', command);
    const who = input.requireFlag(flags.account, 'account', command);
    const title = input.text(input.requireFlag(flags.title, 'title', command), 'title', { max: 100 });
    const content = input.requireFlag(flags.content, 'content', command);
    if (content.trim() === '') throw new UsageError(`${command}: --content must not be empty`);
    if (content.length > MAX_CONTENT) throw new UsageError(`${command}: --content is longer than ${MAX_CONTENT} characters`);
    const type = flags.type === undefined ? 'NOTICE' : input.text(flags.type, 'type', { max: 40 }).toUpperCase();
    if (!/^[A-Z_]+$/.test(type)) throw new UsageError(`${command}: --type is upper-case letters and underscores, e.g. NOTICE`);
    const status = flags.status ?? 'success';
    if (status !== 'success' && status !== 'fail') throw new UsageError(`${command}: --status is success or fail, not "${status}"`);

    const merchant = await merchantByHost(services, host);
    const account = await accountOf(services, merchant, who);
    const message = await services.commandLine.sendMessage({ merchantId: merchant.id, accountId: account.id, type, title, content, status }, account, cliActor());
    return [
      `Sent message "${message.title}" to ${account.email ?? account.phone} at merchant ${merchant.slug}:`,
      `  id      ${message.id}`,
      `  type    ${message.type}`,
      `  status  ${message.status}`,
    ].join('\n');
  },
});
