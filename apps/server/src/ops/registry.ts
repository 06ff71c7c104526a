import type { OpsCommand } from './command.ts';
import { accountList } from './commands/account-list.ts';
import { agreementPublish } from './commands/agreement-publish.ts';
import { announcementPublish } from './commands/announcement-publish.ts';
import { managerCreate } from './commands/manager-create.ts';
import { merchantList } from './commands/merchant-list.ts';
import { merchantSet } from './commands/merchant-set.ts';
import { messageSend } from './commands/message-send.ts';

/** Every operator command, in the order `--help` lists them. A new command is one file and one line here. */
export const commands: OpsCommand[] = [
  merchantList,
  merchantSet,
  agreementPublish,
  managerCreate,
  accountList,
  messageSend,
  announcementPublish,
];
