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
  SMS_PROVIDER: z.enum(['dev']).default('dev'),
  CARD_DATA_KEY: z.string().optional(),
  WEB_DIST: z.string().optional(),
  SEED_DEMO: z.enum(['true', 'false']).default('true'),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
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
  smsProvider: 'dev';
  cardDataKey: string | undefined;
  webDist: string;
  seedDemo: boolean;
  /** true behind a load balancer that sets X-Forwarded-For */
  trustProxy: boolean;
  dbPoolSize: number;
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
    cardDataKey: e.CARD_DATA_KEY,
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : DEFAULT_WEB_DIST,
    seedDemo: e.SEED_DEMO === 'true',
    trustProxy: e.TRUST_PROXY === 'true',
    dbPoolSize: e.DB_POOL_SIZE,
  };
}
