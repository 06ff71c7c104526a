import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/engine.ts';
import type { Clock } from './lib/clock.ts';
import { createSealer, dataKeyFrom, type Sealer } from './lib/sealed.ts';
import { developmentSecret } from './lib/secrets.ts';
import { createAccountDirectory } from './modules/accounts/directory.ts';
import { createAccountCredentials } from './modules/accounts/credentials-service.ts';
import { createAccountService } from './modules/accounts/service.ts';
import { createAgreementService } from './modules/agreements/service.ts';
import { createBatchProgress, createBatchService, createCardExportService } from './modules/batches/service.ts';
import { createBulkService } from './modules/bulk/service.ts';
import { createCardProductService } from './modules/card-products/service.ts';
import { createCardReconciler } from './modules/card-reconcile/service.ts';
import { createCardRevealService } from './modules/card-reveal/service.ts';
import { createCardService } from './modules/cards/service.ts';
import { createApiKeyService } from './modules/api-keys/service.ts';
import { createWebhookService } from './modules/webhooks/service.ts';
import { createBalanceRuleService } from './modules/balance-rules/service.ts';
import { createSpendingFigures, createSpendingService, holdExpiryPart } from './modules/spending/service.ts';
import { createJobQueue } from './jobs/queue.ts';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createCodeService } from './modules/codes/service.ts';
import { createEventPublisher } from './modules/events/publisher.ts';
import { createIssuerEventService } from './modules/issuer/service.ts';
import { createManagerService } from './modules/managers/service.ts';
import { createOperatorService } from './modules/operators/service.ts';
import { createConsoleAdminService } from './modules/console-admin/service.ts';
import { createConsoleMoneyService } from './modules/console-money/service.ts';
import { createCommandLineService } from './modules/command-line/service.ts';
import { createCustomerService } from './modules/customers/service.ts';
import { createMerchantService } from './modules/merchants/service.ts';
import { createMessageService } from './modules/messages/service.ts';
import { createSecurityService } from './modules/security/service.ts';
import { createActivityService } from './modules/activity/service.ts';
import { createSessionService } from './modules/sessions/service.ts';
import { createInvitationService, createTeamService } from './modules/team/service.ts';
import { createBooksService } from './modules/books/service.ts';
import { createLedgerService } from './modules/ledger/service.ts';
import { createStatementService } from './modules/statements/service.ts';
import { createWalletService } from './modules/wallet/service.ts';
import { createFundingService } from './modules/funding/service.ts';
import { usdtReconcilePart } from './modules/funding/usdt-reconcile.ts';
import type { MailSender } from './providers/mail/port.ts';
import { mailSenderFor, smsSenderFor } from './providers/select.ts';
import { issuerUrlFor } from './providers/issuer/built-in.ts';
import { createHttpIssuer } from './providers/issuer/http.ts';
import type { CardIssuer } from './providers/issuer/port.ts';
import type { SmsSender } from './providers/sms/port.ts';
import { gatewayUrlFor } from './providers/crypto/built-in.ts';
import { createHttpGateway } from './providers/crypto/http.ts';
import type { CryptoGateway } from './providers/crypto/port.ts';
import { cryptoWebhookSecretFor } from './lib/secrets.ts';

export interface Platform {
  config: Config;
  database: Database;
  clock: Clock;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** the providers the configuration names, unless given (tests hand in their own) */
  sms?: SmsSender | undefined;
  /** the card issuer; by default the HTTP issuer at the configured address */
  issuer?: CardIssuer | undefined;
  mail?: (MailSender & { close?(): void }) | undefined;
  /** the crypto gateway; by default the HTTP gateway at the configured address (none in production without CRYPTO_GATEWAY_URL) */
  cryptoGateway?: CryptoGateway | undefined;
  /** the process sends jobs and runs none (the operator command line: jobs/queue.ts `sendOnly`) */
  jobsSendOnly?: boolean;
}

/**
 * Card data and ID numbers are sealed with CARD_DATA_KEY (outside production one made in DATA_DIR),
 * read when first used.
 */
export function sealerFor(config: Pick<Config, 'cardDataKey' | 'dataDir'>): Sealer {
  let dataSealer: Sealer | undefined;
  const sealed = () => {
    dataSealer ??= createSealer(dataKeyFrom(config.cardDataKey ?? developmentSecret(config.dataDir, 'card-data.key')));
    return dataSealer;
  };
  return {
    seal: (text) => sealed().seal(text),
    open: (text) => sealed().open(text),
    sealStream: (label) => sealed().sealStream(label),
    openStream: (label) => sealed().openStream(label),
  };
}

/**
 * The one place the modules are put together: each service is built once, from only what it uses,
 * and handed to whoever needs it (the HTTP routes in app.ts, the operator commands, the demo data).
 */
export function createServices({ config, database, clock, log, ...given }: Platform) {
  const { db } = database;
  // the key codes and reset tickets are hashed with: read or made when first asked for (the server asks at
  // start), so an operator command that sends no code never makes one
  let codeHashKey: string | undefined;
  const hashKey = () => {
    codeHashKey ??= config.codeHashKey ?? developmentSecret(config.dataDir, 'code-hash.key');
    return codeHashKey;
  };

  const sealer = sealerFor(config);

  const events = createEventPublisher();
  const merchants = createMerchantService({ database, cacheSeconds: config.merchantCacheSeconds });
  const sessions = createSessionService({ db, clock, events });
  const codes = createCodeService({ db, clock, hashKey });
  const managers = createManagerService({ db });
  const agreements = createAgreementService({ db });
  const messages = createMessageService({ db, clock, events });
  const sms = given.sms ?? smsSenderFor(config, db, log);
  const mail = given.mail ?? mailSenderFor(config, db, log);
  // the security centre changes the account's row through the accounts module's credentials; the
  // account's own flows reach the security centre only through what is handed to them here
  const credentials = createAccountCredentials({ db, clock, codes, sms, mail });
  const security = createSecurityService({ db, clock, codes, sessions, managers, messages, mail, credentials });
  // invitations come before the accounts: sign-up with an invitation's token joins that team
  const invitations = createInvitationService({ db, clock, config, merchants, sms, mail });
  const accounts = createAccountService({ db, clock, config, codes, sessions, managers, merchants, sms, mail, security, invitations, codeHashKey: hashKey });
  const directory = createAccountDirectory({ db });
  const activity = createActivityService({ db, clock });
  // the durable jobs: registered here, started by the server (app.ts)
  const jobs = createJobQueue(database, { superviseSeconds: config.jobs.superviseSeconds, log, sendOnly: given.jobsSendOnly === true });
  // webhooks come before every module whose changes they tell of: each emits inside its own transaction
  const webhooks = createWebhookService({ db, clock, sealer, jobs, messages, settings: config.webhooks, production: config.production, log });
  const ledger = createLedgerService({ db, clock, events, webhooks });
  const books = createBooksService({ db, clock });
  const wallet = createWalletService({ db, books, messages });
  const statements = createStatementService({ db, clock, webDist: config.webDist });
  const products = createCardProductService({ db, clock, sealer });
  let webhookSecret: string | undefined;
  const issuerSecret = () => {
    webhookSecret ??= config.issuerWebhookSecret ?? developmentSecret(config.dataDir, 'issuer-webhook.key');
    return webhookSecret;
  };
  const issuer = createIssuerEventService({ db, clock, secret: issuerSecret });
  // the issuer at ISSUER_URL, or the simulated one this process (or `npm run issuer-sim`) runs
  const cardIssuer = given.issuer ?? createHttpIssuer({ url: () => issuerUrlFor(config), secret: issuerSecret });
  // cards come first: spending and batches reach a card through the card service, and hand it back
  // only what it reads of them (a card list's spending figures, a batch counting its cards)
  const cards = createCardService({
    db,
    clock,
    sealer,
    ledger,
    books,
    issuer: cardIssuer,
    events,
    webhooks,
    messages,
    products,
    spendingFigures: createSpendingFigures({ db, clock }),
    // the balance-rules module is built after the cards (its top-ups are theirs); asked only once requests run
    autoRechargeOf: (ids, tx) => balanceRules.briefs(ids, tx),
    tagsChanged: (tx, card) => balanceRules.tagsChanged(tx, card),
    openingSettled: createBatchProgress({ events, webhooks, messages, clock }).cardSettled,
  });
  const team = createTeamService({ db, clock, sessions, cards, messages });
  const spending = createSpendingService({ db, clock, ledger, events, webhooks, messages, cards });
  const reveals = createCardRevealService({
    db,
    clock,
    sealer,
    cards,
    useAccessCode: (merchantId, account, channel, captcha) => accounts.useAccessCode(merchantId, account, channel, captcha),
  });
  const cardBatches = createBatchService({ db, clock, ledger, issuer: cardIssuer, events, webhooks, cards, products, jobs }, { concurrency: config.jobs.batchConcurrency });
  const cardExports = createCardExportService({ db, clock, sealer, books, events, gate: reveals.gate, jobs }, {
    folder: path.join(config.dataDir, 'exports'),
    warn: (message, facts) => log.warn(facts, message),
  });
  const balanceRules = createBalanceRuleService({ db, clock, ledger, books, cards, products, messages, mail, team, jobs, log, webhooks });
  const cardBulk = createBulkService(
    { db, clock, ledger, books, products, cards, spending, team, events, webhooks, messages, jobs, log, rules: balanceRules },
    { leaseSeconds: config.jobs.bulkLeaseSeconds ?? 30, workers: config.jobs.bulkWorkers ?? 2 },
  );
  // production without CRYPTO_WEBHOOK_SECRET has no gateway: a fresh random key each time makes every webhook's signature fail
  const cryptoSecret = () => (config.production && !config.crypto.secret ? randomBytes(32).toString('hex') : cryptoWebhookSecretFor(config));
  // production offers USDT only with a real gateway and its secret; elsewhere the simulated one stands in
  const cryptoReady = !config.production || (config.crypto.url !== undefined && config.crypto.secret !== undefined);
  const cryptoGateway = given.cryptoGateway ?? (cryptoReady ? createHttpGateway({ url: () => gatewayUrlFor(config), secret: cryptoSecret }) : null);
  const funding = createFundingService({
    db,
    webhooks,
    gateway: cryptoGateway,
    secret: cryptoSecret,
    events,
    clock,
    ledger,
    spending,
    messages,
    mail,
    directory,
    log,
    receiptsFolder: path.join(config.dataDir, 'receipts'),
    // the embedded database has one connection: a statement's chunks run one after another there
    importWorkers: database.kind === 'pglite' ? 1 : 4,
  });
  // a credit's e-mail that a stopped process did not send goes out from whichever server runs next
  jobs.work('funding-mail', async () => {
    await funding.deliverMails();
  });
  jobs.schedule('funding-mail', '* * * * *');
  // USDT deposits whose gateway events were lost are asked about, and applied by the webhook's own path
  const usdtReconciler = usdtReconcilePart({ db, clock, gateway: cryptoGateway }, { applyEvent: funding.applyGatewayDeposit }, jobs, {
    afterSeconds: config.usdtReconcileAfterSeconds,
  });
  const cardHolds = holdExpiryPart(spending, jobs, config.authHoldExpiryDays);
  const cardHandlers = { ...cards.issuerHandlers(), ...spending.issuerHandlers() };
  for (const [type, handler] of Object.entries(cardHandlers)) issuer.on(type, handler);
  // cards whose issuer events were lost are asked about, and settled by the same handlers
  const cardReconciler = createCardReconciler({ db, clock, issuer: cardIssuer, cards, products }, jobs, {
    afterSeconds: config.cardReconcileAfterSeconds,
    handlers: cardHandlers,
    batches: cardBatches.seen,
  });

  const apiKeys = createApiKeyService({ db, clock });
  const operators = createOperatorService({ db, clock, sealer, codeHashKey: hashKey });
  const consoleAdmin = createConsoleAdminService({ db, products, agreements, messages, operators });
  const consoleMoney = createConsoleMoneyService({ db, clock, operators, funding, ledger, wallet });
  // the console's customers: read through each module's service, acted on with the operator's code
  const customers = createCustomerService({ db, operators, books, wallet, cards, team, products, security, funding, messages, spending, countCap: config.customerSearchCountCap });
  // the operator command line's actions on customers, audit-logged as the console's are
  const commandLine = createCommandLineService({ db, operators, ledger, funding, wallet, cards, messages });
  return { commandLine, consoleAdmin, config, consoleMoney, database, clock, sealer, apiKeys, operators, customers, webhooks, codeHashKey: hashKey, events, merchants, sessions, codes, managers, agreements, messages, accounts, security, directory, activity, ledger, books, wallet, statements, products, cards, spending, reveals, cardBatches, cardExports, cardBulk, funding, balanceRules, cardHolds, cardReconciler, usdtReconciler, jobs, issuer, issuerSecret, cardIssuer, cryptoGateway, cryptoSecret, sms, mail, team, invitations };
}

export type Services = ReturnType<typeof createServices>;
