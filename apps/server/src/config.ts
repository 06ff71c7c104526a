import path from 'node:path';
import { z } from 'zod';

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  NODE_ENV: z.enum(['production', 'development', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z
    .enum(['json', 'pretty'])
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('no-reply@localhost'),
  SMS_PROVIDER: z.enum(['dev', 'aliyun']).default('dev'),
  ALIYUN_SMS_ACCESS_KEY_ID: z.string().optional(),
  ALIYUN_SMS_ACCESS_KEY_SECRET: z.string().optional(),
  ALIYUN_SMS_SIGN_NAME: z.string().optional(),
  ALIYUN_SMS_TEMPLATE_REGISTER: z.string().optional(),
  ALIYUN_SMS_TEMPLATE_ACCESS: z.string().optional(),
  ALIYUN_SMS_TEMPLATE_RESET_PASSWORD: z.string().optional(),
  ALIYUN_SMS_ENDPOINT: z.string().optional(),
  /** 32 bytes, base64 (or 64 hex digits): the AES-256-GCM key of card data and ID numbers */
  CARD_DATA_KEY: z
    .string()
    .refine((value) => /^[0-9a-f]{64}$/i.test(value) || Buffer.from(value, 'base64').length === 32, 'CARD_DATA_KEY must be 32 bytes, base64 or 64 hex digits')
    .optional(),
  /** the key a card issuer signs its webhooks with (HMAC-SHA256): at least 32 characters */
  ISSUER_WEBHOOK_SECRET: z.string().min(32, 'ISSUER_WEBHOOK_SECRET must be at least 32 characters').optional(),
  /** the key of the codes' and reset tickets' keyed hashes: at least 32 characters */
  CODE_HASH_KEY: z.string().min(32, 'CODE_HASH_KEY must be at least 32 characters').optional(),
  WEB_DIST: z.string().optional(),
  SEED_DEMO: z.enum(['true', 'false']).default('true'),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  API_DOCS: z.enum(['true', 'false']).optional(),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(20),
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
  webDist: string;
  seedDemo: boolean;
  /** true behind a load balancer that sets X-Forwarded-For */
  trustProxy: boolean;
  /** /api/docs: on outside production, in production only with API_DOCS=true */
  apiDocs: boolean;
  dbPoolSize: number;
}

/** Aliyun SMS (Dysmsapi SendSms): the key pair, the approved signature, one approved template per message. */
export interface AliyunSmsSettings {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templates: { register: string; access: string; resetPassword: string };
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
] as const;
const ALIYUN_SMS_DEFAULT_ENDPOINT = 'https://dysmsapi.aliyuncs.com/';

function aliyunSmsSettings(e: z.infer<typeof schema>): AliyunSmsSettings {
  const value = (name: (typeof ALIYUN_SMS_SETTINGS)[number]) => e[name]?.trim() ?? '';
  const missing = ALIYUN_SMS_SETTINGS.filter((name) => value(name) === '');
  if (missing.length > 0) throw new Error(`Invalid configuration: SMS_PROVIDER=aliyun needs ${missing.join(', ')}`);
  const endpoint = e.ALIYUN_SMS_ENDPOINT?.trim() || ALIYUN_SMS_DEFAULT_ENDPOINT;
  // the phone number and the code travel in the request: only over TLS, or to this machine
  let url: URL | undefined;
  try {
    url = new URL(endpoint);
  } catch {
    url = undefined;
  }
  const loopback = url && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (!url || !(url.protocol === 'https:' || (url.protocol === 'http:' && loopback))) {
    throw new Error('Invalid configuration: ALIYUN_SMS_ENDPOINT must be an https:// address (http:// only to 127.0.0.1 or localhost)');
  }
  return {
    accessKeyId: value('ALIYUN_SMS_ACCESS_KEY_ID'),
    accessKeySecret: value('ALIYUN_SMS_ACCESS_KEY_SECRET'),
    signName: value('ALIYUN_SMS_SIGN_NAME'),
    templates: {
      register: value('ALIYUN_SMS_TEMPLATE_REGISTER'),
      access: value('ALIYUN_SMS_TEMPLATE_ACCESS'),
      resetPassword: value('ALIYUN_SMS_TEMPLATE_RESET_PASSWORD'),
    },
    endpoint,
  };
}

const here = path.dirname(new URL(import.meta.url).pathname);
export const DEFAULT_WEB_DIST = path.resolve(here, '../../web/dist');

/** Environment → typed configuration, validated once at start; a bad value stops the start. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  if (production && !e.SMTP_URL) throw new Error('Invalid configuration: SMTP_URL is required in production');
  if (production && !e.CARD_DATA_KEY)
    throw new Error('Invalid configuration: CARD_DATA_KEY is required in production');
  if (production && !e.CODE_HASH_KEY)
    throw new Error('Invalid configuration: CODE_HASH_KEY is required in production');
  if (production && !e.ISSUER_WEBHOOK_SECRET)
    throw new Error('Invalid configuration: ISSUER_WEBHOOK_SECRET is required in production');
  // the development SMS provider writes every code to the outbox and sends nothing
  if (production && e.SMS_PROVIDER === 'dev') {
    throw new Error(
      `Invalid configuration: production sends SMS through a real provider, not SMS_PROVIDER=dev: set SMS_PROVIDER=aliyun with ${ALIYUN_SMS_SETTINGS.join(', ')}`,
    );
  }
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
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : DEFAULT_WEB_DIST,
    seedDemo: e.SEED_DEMO === 'true',
    trustProxy: e.TRUST_PROXY === 'true',
    apiDocs: e.API_DOCS === undefined ? !production : e.API_DOCS === 'true',
    dbPoolSize: e.DB_POOL_SIZE,
  };
}
