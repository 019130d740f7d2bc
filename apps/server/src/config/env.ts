import net from 'node:net';
import path from 'node:path';
import { PASSWORD_MIN, passwordProblem } from '@hablabot/contract';
import { z } from 'zod';
import { type AddressRange, parseAllowList } from '../integrations/http/address-policy';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Named address ranges the proxy list may use (as `proxy-addr` knows them). */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (!family || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits >= 0 && bits <= (family === 4 ? 32 : 128);
}

/**
 * Which X-Forwarded-For hops to believe when reading the client's address (rate limits use it):
 * `false` none (the socket's address counts); a number N the N proxies nearest to us; `true` the same as
 * 1 — only the proxy directly in front, never addresses a client wrote into the header itself; or a
 * comma-separated list of the proxies' addresses/CIDRs (`10.0.0.0/8, 192.168.1.10`, `loopback`).
 */
export type TrustProxy = false | number | string[];

const ZTrustProxy = z
  .string()
  .trim()
  .transform((v, ctx): TrustProxy => {
    const lower = v.toLowerCase();
    if (lower === 'false' || lower === '0') return false;
    if (lower === 'true') return 1;
    if (/^\d{1,2}$/.test(lower)) return Number(lower);
    const list = v
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const bad = list.find((e) => !isProxyAddress(e));
    if (list.length === 0 || bad !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `must be false, true, a hop count (1, 2) or a comma-separated list of proxy addresses or CIDRs${bad ? ` ('${bad}' is none of these)` : ''}`,
      });
      return z.NEVER;
    }
    return list;
  });

const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  // The value is repeated in the refusal (a port is no secret), so a typo shows at once.
  PORT: z
    .string()
    .default('3000')
    .transform((v, ctx) => {
      if (/^\d{1,5}$/.test(v.trim()) && Number(v) <= 65_535) return Number(v);
      const shown = v.length > 40 ? `${v.slice(0, 40)}…` : v;
      ctx.addIssue({
        code: 'custom',
        message: `'${shown}' is not a port: it must be a whole number from 0 to 65535 (3000 when unset)`,
      });
      return z.NEVER;
    }),
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
  // Keys and channels in Redis start with it: two HablaBot setups (or a test) can share one Redis.
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be 1 to 32 letters, digits, - or _')
    .default('hb'),
  APP_KEY: z
    .string()
    .regex(/^(base64:)?[A-Za-z0-9+/=]{43,}$/, 'must be 32 random bytes in base64 (openssl rand -base64 32)')
    .optional(),
  // The keys APP_KEY replaced, comma-separated: secrets sealed under them still open, and are sealed
  // again under APP_KEY at start-up (see docs/deploy.md, "Changing APP_KEY").
  APP_KEY_PREVIOUS: z
    .string()
    .regex(
      /^(base64:)?[A-Za-z0-9+/=]{43,}(\s*,\s*(base64:)?[A-Za-z0-9+/=]{43,})*$/,
      'must be a comma-separated list of keys like APP_KEY',
    )
    .optional(),
  PUBLIC_URL: z.url('must be an absolute URL such as https://chat.example.com').optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  SUPERADMIN_EMAIL: z.email('must be an email address').default('admin@hablabot.local'),
  SUPERADMIN_PASSWORD: z.string().optional(),
  WEB_DIST: z.string().optional(),
  TRUST_PROXY: ZTrustProxy.default(false),
  RUN_JOBS: z
    .enum(['true', 'false'], 'must be true or false')
    .default('true')
    .transform((v) => v === 'true'),
  // Private addresses/CIDRs tenants' URLs may reach although private (the demo's and tests' fakes).
  OUTBOUND_ALLOW_PRIVATE: z
    .string()
    .transform((v, ctx) => {
      try {
        return parseAllowList(v);
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a comma-separated list of addresses or CIDRs (${(error as Error).message})`,
        });
        return z.NEVER;
      }
    })
    .optional(),
  // Long enough not to be guessed: it is the only thing between the metrics and anyone who asks.
  METRICS_TOKEN: z.string().min(24, 'must have at least 24 characters (openssl rand -hex 24)').optional(),
  // How long a process holds the webhook deliveries it is processing; after it dies, the next process
  // takes them once this ran out.
  WEBHOOK_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
});

export type Env = z.infer<typeof ZEnv>;

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  /** The start of every Redis key and channel (`hb`). */
  redisPrefix: string;
  appKey?: string;
  /** Keys APP_KEY replaced (base64 text, as given). */
  previousAppKeys: string[];
  publicUrl: string;
  /** PUBLIC_URL as set; unset means addresses shown to admins are built from each request's origin. */
  publicUrlFromEnv?: string;
  logLevel: Env['LOG_LEVEL'];
  superAdmin: { email: string; password?: string };
  webDist: string;
  trustProxy: TrustProxy;
  /** Whether the HTTP server also runs the background jobs (false when `npm run worker` processes do). */
  runJobs: boolean;
  /** The bearer token of GET /api/v1/metrics; unset, there is no such route. */
  metricsToken?: string;
  /** The webhook inbox's lease, in ms (modules/messaging/webhook-inbox.ts). */
  webhookLeaseMs: number;
  /**
   * The outbound policy for URLs tenants set (see integrations/http/outbound.ts): the private addresses
   * of OUTBOUND_ALLOW_PRIVATE, and whether plain http is limited to them (production).
   */
  outbound: { httpsOnly: boolean; allowPrivate: AddressRange[] };
}

export class ConfigError extends Error {}

/** The password policy's refusals, said for the person starting the server. */
const PASSWORD_RULES_IN_WORDS: Record<string, string> = {
  'validation.required': 'must not be blank',
  'validation.password_min': `must have at least ${PASSWORD_MIN} characters`,
  'validation.password_max': 'must have at most 128 characters',
  'validation.password_weak': 'is too common or easy to guess; choose a longer, less predictable one',
  'validation.password_personal': 'must not be based on SUPERADMIN_EMAIL',
};

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
  const superAdminEmail = e.SUPERADMIN_EMAIL.toLowerCase();
  if (e.SUPERADMIN_PASSWORD !== undefined) {
    const problem = passwordProblem(e.SUPERADMIN_PASSWORD, { email: superAdminEmail });
    if (problem) {
      throw new ConfigError(
        `Invalid environment variable SUPERADMIN_PASSWORD: ${PASSWORD_RULES_IN_WORDS[problem] ?? 'is not an acceptable password'}`,
      );
    }
  }
  // This file is apps/server/src/config/env.ts under tsx, and part of apps/server/dist/main.js (or
  // worker.js) in the production build.
  const here = import.meta.dirname;
  const repoRoot = path.resolve(here, path.basename(here) === 'dist' ? '../../..' : '../../../..');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    appKey: e.APP_KEY,
    webhookLeaseMs: e.WEBHOOK_LEASE_SECONDS * 1000,
    previousAppKeys: e.APP_KEY_PREVIOUS ? e.APP_KEY_PREVIOUS.split(',').map((k) => k.trim()) : [],
    publicUrlFromEnv: e.PUBLIC_URL,
    publicUrl: e.PUBLIC_URL ?? `http://${e.HOST === '0.0.0.0' ? 'localhost' : e.HOST}:${e.PORT}`,
    logLevel: e.LOG_LEVEL,
    superAdmin: { email: superAdminEmail, password: e.SUPERADMIN_PASSWORD },
    webDist: path.resolve(e.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist')),
    trustProxy: e.TRUST_PROXY,
    runJobs: e.RUN_JOBS,
    metricsToken: e.METRICS_TOKEN,
    outbound: { httpsOnly: e.NODE_ENV === 'production', allowPrivate: e.OUTBOUND_ALLOW_PRIVATE ?? [] },
  };
}
