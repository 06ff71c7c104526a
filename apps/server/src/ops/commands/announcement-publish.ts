import { defineCommand, UsageError } from '../command.ts';
import * as input from '../input.ts';
import { merchantByHost } from '../lookup.ts';
import { cliActor } from './operator.ts';

const MAX_CONTENT = 50_000;

export const announcementPublish = defineCommand({
  name: 'announcement:publish',
  summary: 'Publish an announcement to every account of a merchant; open portal tabs show it at once',
  usage: ['announcement:publish --host HOST --title TITLE --content HTML'],
  flags: {
    host: { type: 'string', value: 'HOST', description: 'the merchant, by one of its hosts' },
    title: { type: 'string', value: 'TITLE', description: 'the announcement title' },
    content: { type: 'string', value: 'HTML', description: 'the announcement text (HTML allowed; cleaned when shown)' },
  },
  examples: ['announcement:publish --host orange.localhost --title 费率调整公告 --content "<p>自12月1日起……</p>"'],
  async run(flags, { services }) {
    const command = 'announcement:publish';
    const host = input.requireFlag(flags.host, 'host', command);
    const title = input.text(input.requireFlag(flags.title, 'title', command), 'title', { max: 100 });
    const content = input.requireFlag(flags.content, 'content', command);
    if (content.trim() === '') throw new UsageError(`${command}: --content must not be empty`);
    if (content.length > MAX_CONTENT) throw new UsageError(`${command}: --content is longer than ${MAX_CONTENT} characters`);
    const merchant = await merchantByHost(services, host);
    const announcement = await services.consoleAdmin.publishAnnouncement(merchant.id, { title, content }, cliActor());
    return [`Published announcement "${announcement.title}" to every account of merchant ${merchant.slug}:`, `  id  ${announcement.id}`].join('\n');
  },
});
