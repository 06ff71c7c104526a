import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { defineCommand, OpsError, UsageError } from '../command.ts';
import * as input from '../input.ts';
import { merchantByHost } from '../lookup.ts';
import { cliActor } from './operator.ts';

const MAX_BYTES = 512 * 1024;

export const agreementPublish = defineCommand({
  name: 'agreement:publish',
  summary: "Publish a user agreement for a merchant; it becomes the one sign-up and the header menu show",
  usage: ['agreement:publish --host HOST --title TITLE (--file PATH.html | --text HTML)'],
  description:
    'The newest agreement is listed first (GET /api/v1/merchant/user-agreement/title) and is the one customers read; earlier ones stay readable by their id. The HTML is cleaned when shown.',
  flags: {
    host: { type: 'string', value: 'HOST', description: 'the merchant, by one of its hosts' },
    title: { type: 'string', value: 'TITLE', description: 'title of the agreement, e.g. 用户服务协议' },
    file: { type: 'string', value: 'PATH', description: 'a UTF-8 HTML file holding the agreement text' },
    text: { type: 'string', value: 'HTML', description: 'the agreement text itself, instead of --file' },
  },
  examples: [
    'agreement:publish --host localhost --title "蓝鲸卡用户服务协议（2026版）" --file ./agreement.html',
    'agreement:publish --host orange.localhost --title 用户服务协议 --text "<p>……</p>"',
  ],
  async run(flags, { services }) {
    if (flags.host === undefined) throw new UsageError('agreement:publish: --host is required');
    if (flags.title === undefined) throw new UsageError('agreement:publish: --title is required');
    if ((flags.file === undefined) === (flags.text === undefined)) {
      throw new UsageError('agreement:publish: give the agreement text with --file PATH or with --text HTML (one of the two)');
    }
    const host = input.host(flags.host);
    const title = input.text(flags.title, 'title', { max: 100 });
    const text = flags.file !== undefined ? await readAgreementFile(flags.file) : flags.text ?? '';
    if (text.trim() === '') throw new OpsError(`the agreement text ${flags.file !== undefined ? `in ${flags.file} ` : ''}is empty`);
    if (Buffer.byteLength(text) > MAX_BYTES) throw new OpsError(`the agreement text is larger than ${MAX_BYTES / 1024} KB`);

    const merchant = await merchantByHost(services, host);
    const agreement = await services.consoleAdmin.publishAgreement(merchant.id, { title, text }, cliActor());
    return [
      `Published agreement "${agreement.title}" for merchant ${merchant.slug} (${merchant.name}):`,
      `  id         ${agreement.id}`,
      `  length     ${[...text].length} characters`,
      `  published  ${agreement.published_at}`,
      'It is now the first in the agreement list, the one customers are shown.',
    ].join('\n');
  },
});

async function readAgreementFile(file: string) {
  // npm runs scripts from the repository root; a relative path means where the operator typed it
  const resolved = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(resolved);
  } catch {
    throw new OpsError(`cannot read --file ${file}: no such file (looked at ${resolved})`);
  }
  if (!info.isFile()) throw new OpsError(`--file ${file} is not a file`);
  if (info.size > MAX_BYTES) throw new OpsError(`--file ${file} is larger than ${MAX_BYTES / 1024} KB`);
  const bytes = await readFile(resolved);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw new OpsError(`--file ${file} is not UTF-8 text; save it as UTF-8 and try again`);
  }
}
