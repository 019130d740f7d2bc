import path from 'node:path';
import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// (leave it unset for the embedded SQLite file)')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  APP_KEY: z
    .string()
    .regex(/^(base64:)?[A-Za-z0-9+/=]{43,}$/, 'must be 32 random bytes in base64 (openssl rand -base64 32)')
    .optional(),
  PUBLIC_URL: z.url('must be an absolute URL such as https://chat.example.com').optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  SUPERADMIN_EMAIL: z.email('must be an email address').default('admin@hablabot.local'),
  SUPERADMIN_PASSWORD: z.string().min(8, 'must have at least 8 characters').optional(),
  WEB_DIST: z.string().optional(),
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
});

export type Env = z.infer<typeof ZEnv>;

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  appKey?: string;
  publicUrl: string;
  logLevel: Env['LOG_LEVEL'];
  superAdmin: { email: string; password?: string };
  webDist: string;
  trustProxy: boolean;
}

export class ConfigError extends Error {}

/** Parses the environment; the first bad variable stops the start with one line that names it. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZEnv.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`Invalid environment variable ${name}: ${issue.message}`);
  }
  const e = parsed.data;
  const repoRoot = path.resolve(import.meta.dirname, '../../../..');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    appKey: e.APP_KEY,
    publicUrl: e.PUBLIC_URL ?? `http://${e.HOST === '0.0.0.0' ? 'localhost' : e.HOST}:${e.PORT}`,
    logLevel: e.LOG_LEVEL,
    superAdmin: { email: e.SUPERADMIN_EMAIL.toLowerCase(), password: e.SUPERADMIN_PASSWORD },
    webDist: path.resolve(e.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist')),
    trustProxy: e.TRUST_PROXY,
  };
}
