import { cardBatchErrors } from './error-catalogue-batches.ts';
import { cardErrors } from './error-catalogue-cards.ts';
import { balanceRuleErrors } from './error-catalogue-balance-rules.ts';
import { moneyErrors } from './error-catalogue-money.ts';
import { fundingErrors } from './error-catalogue-funding.ts';
import { usdtErrors } from './error-catalogue-usdt.ts';
import { developerErrors } from './error-catalogue-developer.ts';
import { consoleErrors } from './console-errors.ts';
import { consoleAdminErrors } from './console-admin-errors.ts';
import { consoleMoneyErrors } from './console-money-errors.ts';
import { consoleCustomerErrors } from './console-customers-errors.ts';
import { webhookErrors } from './error-catalogue-webhooks.ts';
import { platformErrors } from './error-catalogue-platform.ts';
import { securityErrors } from './error-catalogue-security.ts';
import { signInErrors } from './error-catalogue-sign-in.ts';
import { teamErrors } from './error-catalogue-team.ts';
import type { CatalogueEntry } from './error-catalogue-entry.ts';

export type { CatalogueEntry } from './error-catalogue-entry.ts';

/**
 * The error catalogue: each code's HTTP status, its 中文 message and what it means. Messages may hold
 * `{name}` placeholders filled from the error's params (formatMessage in errors.ts). The server answers
 * from it; the portal shows the message the server sent, so these files are not part of its code.
 * Each area keeps its codes in `error-catalogue-<area>.ts`; this is every code the API answers.
 */
export const errorCatalogue: Record<number, CatalogueEntry> = {
  ...platformErrors,
  ...signInErrors,
  ...securityErrors,
  ...cardErrors,
  ...moneyErrors,
  ...cardBatchErrors,
  ...teamErrors,
  ...fundingErrors,
  ...balanceRuleErrors,
  ...usdtErrors,
  ...developerErrors,
  ...consoleErrors,
  ...consoleAdminErrors,
  ...consoleMoneyErrors,
  ...consoleCustomerErrors,
  ...webhookErrors,
};
