import { accountCalls } from './account.ts';
import { cardBatchCalls } from './card-batches.ts';
import { cardBulkCalls } from './card-bulk.ts';
import { cardCalls } from './cards.ts';
import { developerCalls } from './developer.ts';
import { eventCalls } from './events.ts';
import { fundingCalls } from './funding.ts';
import { balanceRuleCalls } from './balance-rules.ts';
import { merchantCalls } from './merchant.ts';
import { messageCalls } from './messages.ts';
import { securityCalls } from './security.ts';
import { spendingCalls } from './spending.ts';
import { statementCalls } from './statements.ts';
import { teamCalls } from './team.ts';
import { walletCalls } from './wallet.ts';
import { webhookCalls } from './webhooks.ts';

/** Every call of the portal, by area: what the server must register, and nothing else under API_BASE. */
export const portalCalls = {
  merchant: merchantCalls,
  account: accountCalls,
  security: securityCalls,
  messages: messageCalls,
  events: eventCalls,
  wallet: walletCalls,
  funding: fundingCalls,
  statements: statementCalls,
  cards: cardCalls,
  spending: spendingCalls,
  cardBatches: cardBatchCalls,
  cardBulk: cardBulkCalls,
  team: teamCalls,
  balanceRules: balanceRuleCalls,
  developer: developerCalls,
  webhooks: webhookCalls,
} as const;
