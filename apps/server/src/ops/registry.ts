import type { OpsCommand } from './command.ts';
import { agreementPublish } from './commands/agreement-publish.ts';
import { merchantList } from './commands/merchant-list.ts';
import { merchantSet } from './commands/merchant-set.ts';

/** Every operator command, in the order `--help` lists them. A new command is one file and one line here. */
export const commands: OpsCommand[] = [merchantList, merchantSet, agreementPublish];
