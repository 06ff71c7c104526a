import path from 'node:path';
import { DEFAULT_AUTH_HOLD_EXPIRY_DAYS } from '@portal/contract/card-spending';
import { customerLimits } from '@portal/contract/console-customers';
import { WEBHOOK_GIVE_UP_SECONDS, WEBHOOK_RETRY_DELAYS_SECONDS, WEBHOOK_RETRY_EVERY_SECONDS } from '@portal/contract/webhooks';
import { z } from 'zod';

/** A number setting, `what` it must be said in its messages; empty means "not set": the default applies. */
function numberSetting(name: string, what: string, { min, max, whole }: { min: number; max: number; whole: boolean }, fallback: number) {
  const error = `${name} must be ${what}`;
  let number = z.number({ error }).min(min, error).max(max, error);
  if (whole) number = number.int(error);
  return z.preprocess((value) => (value === '' ? undefined : value), z.coerce.number({ error }).pipe(number).default(fallback));
}

/** The built-in issuer simulator's settings (ISSUER_URL unset), shared with `npm run issuer-sim`. */
const issuerSimulatorSettings = {
  /** 0: any free port */
  ISSUER_SIM_PORT: numberSetting('ISSUER_SIM_PORT', 'a port, 0 to 65535 (0: any free port)', { min: 0, max: 65_535, whole: true }, 4100),
  /** how long the simulated issuer takes to answer a request with its event */
  ISSUER_SIM_DELAY_MS: numberSetting('ISSUER_SIM_DELAY_MS', 'whole milliseconds, 0 to 600000', { min: 0, max: 600_000, whole: true }, 800),
  /** the share of issuances the simulator fails on its own */
  ISSUER_SIM_FAIL_RATE: numberSetting('ISSUER_SIM_FAIL_RATE', 'a share between 0 and 1 (e.g. 0.2)', { min: 0, max: 1, whole: false }, 0),
};
/** What the mail transport can be built from: smtp(s)://, a host, and a user and password that decode. */
function isSmtpUrl(value: string) {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  if (!['smtp:', 'smtps:'].includes(url.protocol) || url.hostname === '') return false;
  try {
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
  } catch {
    return false;
  }
  return true;
}

/** A setting given as an empty or blank value is not given: the default applies, or it is missing. */
const blankIsUnset = <T extends z.ZodType>(setting: T) => z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), setting);

const issuerWebhookSecret = blankIsUnset(z.string().min(32, 'ISSUER_WEBHOOK_SECRET must be at least 32 characters').optional());

const cryptoWebhookSecret = blankIsUnset(z.string().min(32, 'CRYPTO_WEBHOOK_SECRET must be at least 32 characters').optional());
const cryptoSimPort = numberSetting('CRYPTO_SIM_PORT', 'a port, 0 to 65535 (0: any free port)', { min: 0, max: 65_535, whole: true }, 4200);

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .refine((value) => /^postgres(ql)?:\/\//.test(value) && URL.canParse(value), 'DATABASE_URL must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  NODE_ENV: z.enum(['production', 'development', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z
    .enum(['json', 'pretty'])
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** the value itself never appears in the message: it may hold the mail server's password */
  SMTP_URL: blankIsUnset(
    z.string().refine(isSmtpUrl, 'SMTP_URL must be an smtp:// or smtps:// address: smtp://user:pass@host:port (special characters in the user or password %-encoded)').optional(),
  ),
  MAIL_FROM: z
    .string()
    .regex(/^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/, 'MAIL_FROM must be an e-mail address, or a name and one: Name <no-reply@example.com>')
    .default('no-reply@localhost'),
  SMS_PROVIDER: z.enum(['dev', 'aliyun']).default('dev'),
  ALIYUN_SMS_ACCESS_KEY_ID: z.string().optional(),
  ALIYUN_SMS_ACCESS_KEY_SECRET: z.string().optional(),
  ALIYUN_SMS_SIGN_NAME: z.string().optional(),
  ALIYUN_SMS_TEMPLATE_REGISTER: z.string().optional(),
  ALIYUN_SMS_TEMPLATE_ACCESS: z.string().optional(),
  ALIYUN_SMS_TEMPLATE_RESET_PASSWORD: z.string().optional(),
  ALIYUN_SMS_TEMPLATE_INVITATION: z.string().optional(),
  ALIYUN_SMS_ENDPOINT: z.string().optional(),
  /** 32 bytes, base64 (or 64 hex digits): the AES-256-GCM key of card data and ID numbers */
  CARD_DATA_KEY: blankIsUnset(
    z
      .string()
      .refine((value) => /^[0-9a-f]{64}$/i.test(value) || Buffer.from(value, 'base64').length === 32, 'CARD_DATA_KEY must be 32 bytes, base64 or 64 hex digits')
      .optional(),
  ),
  /** the key a card issuer signs its webhooks with (HMAC-SHA256): at least 32 characters */
  ISSUER_WEBHOOK_SECRET: issuerWebhookSecret,
  /** the card issuer's address (its HTTP API, providers/issuer/protocol.ts); unset: the built-in simulator */
  ISSUER_URL: z
    .url({ protocol: /^https?$/, error: 'ISSUER_URL must be an http:// or https:// address' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  ...issuerSimulatorSettings,
  /** the key the crypto gateway signs its webhooks with, and the portal its requests: at least 32 characters */
  CRYPTO_WEBHOOK_SECRET: cryptoWebhookSecret,
  /** the crypto gateway's address (providers/crypto/protocol.ts); unset: the built-in simulator (never in production) */
  CRYPTO_GATEWAY_URL: z
    .url({ protocol: /^https?$/, error: 'CRYPTO_GATEWAY_URL must be an http:// or https:// address' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  CRYPTO_SIM_PORT: cryptoSimPort,
  /** the key of the codes' and reset tickets' keyed hashes: at least 32 characters */
  CODE_HASH_KEY: blankIsUnset(z.string().min(32, 'CODE_HASH_KEY must be at least 32 characters').optional()),
  WEB_DIST: z.string().optional(),
  CONSOLE_DIST: z.string().optional(),
  SEED_DEMO: z.enum(['true', 'false']).default('true'),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  API_DOCS: z.enum(['true', 'false']).optional(),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(20),
  /** batch cards this process asks the issuer for at once */
  BATCH_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(10),
  /** seconds a process keeps which merchant owns a host; a change made elsewhere is announced and drops it at once */
  MERCHANT_CACHE_SECONDS: z.coerce.number().int().min(1).max(3600).default(5),
  /** seconds between the job queue's checks for jobs of a process that died (their heartbeat lapsed) */
  JOBS_SUPERVISE_SECONDS: z.coerce.number().int().min(1).max(300).default(10),
  /** seconds a worker may hold a card of a bulk action before another process takes it as lost */
  BULK_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(30),
  /** bulk actions on cards worked at once per process, each a card at a time */
  BULK_WORKERS: z.coerce.number().int().min(0).max(16).default(2),
  /** days an authorisation's hold waits for its settlement or reversal before it is released */
  AUTH_HOLD_EXPIRY_DAYS: numberSetting('AUTH_HOLD_EXPIRY_DAYS', 'whole days, 1 to 90', { min: 1, max: 90, whole: true }, DEFAULT_AUTH_HOLD_EXPIRY_DAYS),
  /** how many matches the console's customer search counts at most; beyond, it answers the cap and "+" */
  CUSTOMER_SEARCH_COUNT_CAP: numberSetting('CUSTOMER_SEARCH_COUNT_CAP', 'a whole number, 1 to 100000', { min: 1, max: 100_000, whole: true }, customerLimits.countCap),
  /** a card still waiting for the issuer (opening, freezing, unfreezing, cancelling) this long is asked about */
  CARD_RECONCILE_AFTER_SECONDS: numberSetting('CARD_RECONCILE_AFTER_SECONDS', 'whole seconds, 10 to 86400', { min: 10, max: 86_400, whole: true }, 60),
  USDT_RECONCILE_AFTER_SECONDS: numberSetting('USDT_RECONCILE_AFTER_SECONDS', 'whole seconds, 10 to 86400', { min: 10, max: 86_400, whole: true }, 300),
  /** milliseconds a webhook send may take before it counts as failed */
  WEBHOOK_TIMEOUT_MS: numberSetting('WEBHOOK_TIMEOUT_MS', 'whole milliseconds, 100 to 30000', { min: 100, max: 30_000, whole: true }, 30_000),
  /** seconds between a webhook's failed tries (comma list; the last repeats until WEBHOOK_GIVE_UP_SECONDS); empty: the contract's schedule */
  WEBHOOK_RETRY_DELAYS_SECONDS: blankIsUnset(
    z
      .string()
      .regex(/^\d+(\.\d+)?(,\d+(\.\d+)?)*$/, 'WEBHOOK_RETRY_DELAYS_SECONDS must be seconds separated by commas, e.g. 5,30,120')
      .optional(),
  ),
  WEBHOOK_GIVE_UP_SECONDS: numberSetting('WEBHOOK_GIVE_UP_SECONDS', 'whole seconds, 1 to 604800', { min: 1, max: 604_800, whole: true }, WEBHOOK_GIVE_UP_SECONDS),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  production: boolean;
  logLevel: string;
  /** json: one JSON object a line, for log collectors; pretty: readable lines for a person at a terminal */
  logFormat: 'json' | 'pretty';
  smtpUrl: string | undefined;
  mailFrom: string;
  /** dev: codes go to the development outbox (never in production); aliyun: Aliyun SMS (aliyunSms) */
  smsProvider: 'dev' | 'aliyun';
  aliyunSms: AliyunSmsSettings | undefined;
  cardDataKey: string | undefined;
  /** required in production; elsewhere made in DATA_DIR when missing (lib/secrets.ts) */
  codeHashKey: string | undefined;
  /** required in production; elsewhere made in DATA_DIR when missing */
  issuerWebhookSecret: string | undefined;
  issuer: IssuerSettings;
  /** USDT top-ups: the gateway's address (undefined: the built-in simulator, none in production) and its secret */
  crypto: { url: string | undefined; secret: string | undefined; simPort: number };
  webDist: string;
  /** the built console (apps/console/dist), served at /console/ on the merchants' hosts */
  consoleDist: string;
  seedDemo: boolean;
  /** true behind a load balancer that sets X-Forwarded-For */
  trustProxy: boolean;
  /** /api/docs: on outside production, in production only with API_DOCS=true */
  apiDocs: boolean;
  dbPoolSize: number;
  /** the durable jobs (src/jobs): batch cards asked at once per process, and how often lost jobs are looked for */
  jobs: { batchConcurrency: number; superviseSeconds: number; bulkLeaseSeconds?: number; bulkWorkers?: number };
  /** how long a process keeps which merchant owns a host (modules/merchants) */
  merchantCacheSeconds: number;
  /** days an authorisation's hold waits for the issuer before the hourly job releases it */
  authHoldExpiryDays: number;
  /** how many matches the console's customer search counts at most (modules/customers/search-store.ts) */
  customerSearchCountCap: number;
  /** how long a card waits for the issuer's event before the issuer is asked about it (modules/card-reconcile/reconcile.ts) */
  cardReconcileAfterSeconds: number;
  /** how long a pending USDT deposit goes without news from the crypto gateway before the gateway is asked about it (modules/funding/usdt-reconcile.ts) */
  usdtReconcileAfterSeconds: number;
  /** customers' webhooks (modules/webhooks): a send's time limit, the waits between failed tries, when an event is given up */
  webhooks: WebhookSettings;
}

export interface WebhookSettings {
  timeoutMs: number;
  /** after the nth failed try the nth wait; past the list, its last one again */
  retryDelaysSeconds: number[];
  giveUpSeconds: number;
}

/** The card issuer: a real one at `url`, or (url unset, never in production) the built-in simulator. */
export interface IssuerSettings {
  /** ISSUER_URL; undefined: the server starts the simulator on 127.0.0.1:simPort (main.ts) */
  url: string | undefined;
  /** 0: any free port */
  simPort: number;
  simDelayMs: number;
  /** 0..1 */
  simFailRate: number;
}

/** Aliyun SMS (Dysmsapi SendSms): the key pair, the approved signature, one approved template per message. */
export interface AliyunSmsSettings {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templates: { register: string; access: string; resetPassword: string; invitation: string };
  /** the API's address; tests point it at a local server */
  endpoint: string;
}

/** The settings SMS_PROVIDER=aliyun needs, by environment variable. */
const ALIYUN_SMS_SETTINGS = [
  'ALIYUN_SMS_ACCESS_KEY_ID',
  'ALIYUN_SMS_ACCESS_KEY_SECRET',
  'ALIYUN_SMS_SIGN_NAME',
  'ALIYUN_SMS_TEMPLATE_REGISTER',
  'ALIYUN_SMS_TEMPLATE_ACCESS',
  'ALIYUN_SMS_TEMPLATE_RESET_PASSWORD',
  'ALIYUN_SMS_TEMPLATE_INVITATION',
] as const;
const ALIYUN_SMS_DEFAULT_ENDPOINT = 'https://dysmsapi.aliyuncs.com/';

/** The settings production cannot start without, each with what it is for when that helps. */
const PRODUCTION_REQUIRED = [
  ['SMTP_URL', ''],
  ['CARD_DATA_KEY', ''],
  ['CODE_HASH_KEY', ''],
  ['ISSUER_WEBHOOK_SECRET', ''],
  ['ISSUER_URL', " (the card issuer's https:// address; the issuer simulator never runs in production)"],
] as const;

const given = (value: string | undefined) => value !== undefined && value.trim() !== '';

/**
 * What is wrong with the settings that depend on others (production's required ones, the Aliyun SMS
 * set), read from the environment itself so they are named even when another setting is malformed.
 * A setting already refused for its form (`refused`) is not named twice.
 */
function dependentProblems(env: NodeJS.ProcessEnv, refused: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const production = env.NODE_ENV === 'production';
  if (production) {
    for (const [name, why] of PRODUCTION_REQUIRED) {
      if (!refused.has(name) && !given(env[name])) problems.push(`${name} is required in production${why}`);
    }
    const issuerUrl = env.ISSUER_URL;
    if (!refused.has('ISSUER_URL') && issuerUrl !== undefined && given(issuerUrl) && !isHttpsOrLoopback(issuerUrl)) {
      problems.push('ISSUER_URL must be an https:// address in production (http:// only to 127.0.0.1 or localhost)');
    }
  }
  const smsProvider = env.SMS_PROVIDER || 'dev';
  // the development SMS provider writes every code to the outbox and sends nothing
  if (production && smsProvider === 'dev') {
    problems.push(`production sends SMS through a real provider, not SMS_PROVIDER=dev: set SMS_PROVIDER=aliyun with ${ALIYUN_SMS_SETTINGS.join(', ')}`);
  }
  if (smsProvider === 'aliyun') {
    const missing = ALIYUN_SMS_SETTINGS.filter((name) => !given(env[name]));
    if (missing.length > 0) problems.push(`SMS_PROVIDER=aliyun needs ${missing.join(', ')}`);
    // the phone number and the code travel in the request: only over TLS, or to this machine
    const endpoint = env.ALIYUN_SMS_ENDPOINT?.trim() || ALIYUN_SMS_DEFAULT_ENDPOINT;
    if (!isHttpsOrLoopback(endpoint)) {
      problems.push('ALIYUN_SMS_ENDPOINT must be an https:// address (http:// only to 127.0.0.1 or localhost)');
    }
  }
  return problems;
}

function aliyunSmsSettings(e: z.infer<typeof schema>): AliyunSmsSettings {
  const value = (name: (typeof ALIYUN_SMS_SETTINGS)[number]) => e[name]?.trim() ?? '';
  return {
    accessKeyId: value('ALIYUN_SMS_ACCESS_KEY_ID'),
    accessKeySecret: value('ALIYUN_SMS_ACCESS_KEY_SECRET'),
    signName: value('ALIYUN_SMS_SIGN_NAME'),
    templates: {
      register: value('ALIYUN_SMS_TEMPLATE_REGISTER'),
      access: value('ALIYUN_SMS_TEMPLATE_ACCESS'),
      resetPassword: value('ALIYUN_SMS_TEMPLATE_RESET_PASSWORD'),
      invitation: value('ALIYUN_SMS_TEMPLATE_INVITATION'),
    },
    endpoint: e.ALIYUN_SMS_ENDPOINT?.trim() || ALIYUN_SMS_DEFAULT_ENDPOINT,
  };
}

/** https://, or http:// to this machine only: what may carry personal data. */
function isHttpsOrLoopback(address: string) {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return false;
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  return url.protocol === 'https:' || (url.protocol === 'http:' && loopback);
}

const here = path.dirname(new URL(import.meta.url).pathname);
export const DEFAULT_WEB_DIST = path.resolve(here, '../../web/dist');
export const DEFAULT_CONSOLE_DIST = path.resolve(here, '../../console/dist');

/** Environment → typed configuration, validated once at start; a bad value stops the start. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  const formProblems = parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  const refused = new Set(parsed.success ? [] : parsed.error.issues.map((issue) => String(issue.path[0])));
  // every problem at once: an operator fixes them in one go rather than one start at a time
  const problems = [...formProblems, ...dependentProblems(env, refused)];
  if (problems.length === 1) throw new Error(`Invalid configuration: ${problems[0]}`);
  if (problems.length > 1 || !parsed.success) throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const aliyunSms = e.SMS_PROVIDER === 'aliyun' ? aliyunSmsSettings(e) : undefined;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    production,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (production ? 'json' : 'pretty'),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    smsProvider: e.SMS_PROVIDER,
    aliyunSms,
    cardDataKey: e.CARD_DATA_KEY,
    codeHashKey: e.CODE_HASH_KEY,
    issuerWebhookSecret: e.ISSUER_WEBHOOK_SECRET,
    issuer: { url: e.ISSUER_URL, simPort: e.ISSUER_SIM_PORT, simDelayMs: e.ISSUER_SIM_DELAY_MS, simFailRate: e.ISSUER_SIM_FAIL_RATE },
    crypto: { url: e.CRYPTO_GATEWAY_URL, secret: e.CRYPTO_WEBHOOK_SECRET, simPort: e.CRYPTO_SIM_PORT },
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : DEFAULT_WEB_DIST,
    consoleDist: e.CONSOLE_DIST ? path.resolve(e.CONSOLE_DIST) : DEFAULT_CONSOLE_DIST,
    seedDemo: e.SEED_DEMO === 'true',
    trustProxy: e.TRUST_PROXY === 'true',
    apiDocs: e.API_DOCS === undefined ? !production : e.API_DOCS === 'true',
    dbPoolSize: e.DB_POOL_SIZE,
    jobs: { batchConcurrency: e.BATCH_CONCURRENCY, superviseSeconds: e.JOBS_SUPERVISE_SECONDS, bulkLeaseSeconds: e.BULK_LEASE_SECONDS, bulkWorkers: e.BULK_WORKERS },
    merchantCacheSeconds: e.MERCHANT_CACHE_SECONDS,
    authHoldExpiryDays: e.AUTH_HOLD_EXPIRY_DAYS,
    customerSearchCountCap: e.CUSTOMER_SEARCH_COUNT_CAP,
    cardReconcileAfterSeconds: e.CARD_RECONCILE_AFTER_SECONDS,
    usdtReconcileAfterSeconds: e.USDT_RECONCILE_AFTER_SECONDS,
    webhooks: {
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      retryDelaysSeconds: e.WEBHOOK_RETRY_DELAYS_SECONDS
        ? e.WEBHOOK_RETRY_DELAYS_SECONDS.split(',').map(Number)
        : [...WEBHOOK_RETRY_DELAYS_SECONDS, WEBHOOK_RETRY_EVERY_SECONDS],
      giveUpSeconds: e.WEBHOOK_GIVE_UP_SECONDS,
    },
  };
}

/** What `npm run issuer-sim` (providers/issuer/standalone.ts) runs with. */
export interface IssuerSimulatorConfig {
  port: number;
  delayMs: number;
  failRate: number;
  /** the portal's webhook, PORTAL_WEBHOOK_URL */
  webhookUrl: string;
  /** ISSUER_WEBHOOK_SECRET; undefined: the development one in dataDir, as the server reads it */
  secret: string | undefined;
  dataDir: string;
}

export const DEFAULT_PORTAL_WEBHOOK_URL = 'http://127.0.0.1:3000/api/v1/issuer/webhook';

const simulatorSchema = z.object({
  ...issuerSimulatorSettings,
  ISSUER_WEBHOOK_SECRET: issuerWebhookSecret,
  DATA_DIR: z.string().default('./data'),
  PORTAL_WEBHOOK_URL: z
    .url({ protocol: /^https?$/, error: 'PORTAL_WEBHOOK_URL must be an http:// or https:// address' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  NODE_ENV: z.string().optional(),
});

/** The simulator's own environment, validated like the server's; it refuses to run in production. */
export function loadIssuerSimulatorConfig(env: NodeJS.ProcessEnv = process.env): IssuerSimulatorConfig {
  const parsed = simulatorSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production') throw new Error('Invalid configuration: the issuer simulator does not run in production (NODE_ENV=production)');
  return {
    port: e.ISSUER_SIM_PORT,
    delayMs: e.ISSUER_SIM_DELAY_MS,
    failRate: e.ISSUER_SIM_FAIL_RATE,
    webhookUrl: e.PORTAL_WEBHOOK_URL ?? DEFAULT_PORTAL_WEBHOOK_URL,
    secret: e.ISSUER_WEBHOOK_SECRET,
    dataDir: path.resolve(e.DATA_DIR),
  };
}

/** What `npm run crypto-sim` (providers/crypto/standalone.ts) runs with. */
export interface CryptoSimulatorConfig {
  port: number;
  /** the portal's crypto webhook, PORTAL_CRYPTO_WEBHOOK_URL */
  webhookUrl: string;
  /** CRYPTO_WEBHOOK_SECRET; undefined: the development one in dataDir, as the server reads it */
  secret: string | undefined;
  dataDir: string;
}

export const DEFAULT_PORTAL_CRYPTO_WEBHOOK_URL = 'http://127.0.0.1:3000/api/v1/crypto/webhook';

/** The crypto gateway simulator's own environment; it refuses to run in production. */
export function loadCryptoSimulatorConfig(env: NodeJS.ProcessEnv = process.env): CryptoSimulatorConfig {
  const parsed = z
    .object({
      CRYPTO_SIM_PORT: cryptoSimPort,
      CRYPTO_WEBHOOK_SECRET: cryptoWebhookSecret,
      DATA_DIR: z.string().default('./data'),
      PORTAL_CRYPTO_WEBHOOK_URL: z.url({ protocol: /^https?$/, error: 'PORTAL_CRYPTO_WEBHOOK_URL must be an http:// or https:// address' }).optional(),
      NODE_ENV: z.string().optional(),
    })
    .safeParse(env);
  if (!parsed.success) throw new Error(`Invalid configuration:\n${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('\n')}`);
  const e = parsed.data;
  if (e.NODE_ENV === 'production') throw new Error('Invalid configuration: the crypto gateway simulator does not run in production (NODE_ENV=production)');
  return { port: e.CRYPTO_SIM_PORT, webhookUrl: e.PORTAL_CRYPTO_WEBHOOK_URL ?? DEFAULT_PORTAL_CRYPTO_WEBHOOK_URL, secret: e.CRYPTO_WEBHOOK_SECRET, dataDir: path.resolve(e.DATA_DIR) };
}
