/**
 * Every table, by the area that owns it (`schema/<area>.ts`). The stores, the migrations' generator
 * (drizzle.config.ts) and the database handle all read the tables from here.
 */
export { merchants, merchantHosts, agreements, customerManagers } from './schema/merchants.ts';
export { devOutbox, verificationCodes } from './schema/codes.ts';
export { accounts, members, sessions, trustedDevices, loginAttempts, unknownSignIns, resetTickets } from './schema/accounts.ts';
export { invitations, budgetUsage, activityLog } from './schema/team.ts';
export { stationMessages, announcements, announcementReads } from './schema/messages.ts';
export { ledgerAccounts, ledgerTransactions, ledgerPostings, ledgerHolds, ledgerIdempotencyKeys, requestKeys, ledgerWatches } from './schema/ledger.ts';
export { wallets } from './schema/wallet.ts';
export { cardProducts, cardVerifications, cards, cardReveals, cardRevealGrants } from './schema/cards.ts';
export { issuerEvents, cardTransactions, cardFigures, cardSpendDays, cardControls, chargesOwed } from './schema/spending.ts';
export { cardBatches, cardExports } from './schema/batches.ts';
export { cardBulkActions, cardBulkItems } from './schema/bulk-actions.ts';
export { depositAccounts, depositReferences, depositReceipts, deposits, statementLines } from './schema/funding.ts';
export { cardAutoRecharge, autoRechargeRuns, balanceAlertSettings, balanceAlertMarks, balanceAlerts, tagAutoRecharge, autoRechargePauseMails } from './schema/balance-rules.ts';
export { usdtSettings, usdtAddresses, cryptoGatewayEvents } from './schema/usdt.ts';
export { apiKeys, apiKeyRate, apiKeyReplays } from './schema/developer.ts';
export { operators, operatorSessions, operatorRecoveryCodes, operatorAudit } from './schema/operators.ts';
export { webhookEndpoints, webhookEvents, webhookDeliveries, webhookAttempts } from './schema/webhooks.ts';
export { moneyRequests, approvalThresholds } from './schema/money-requests.ts';
