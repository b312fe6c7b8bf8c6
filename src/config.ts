import proxyaddr from 'proxy-addr';
import { z } from 'zod';
import { parseSeedKey, SEED_KEY_REQUIRED } from './domain/operations/sealed-seeds.ts';

/**
 * Every environment variable the process reads, parsed once (DESIGN section 7).
 * `loadConfig` is pure so tests can build a config from a plain object.
 */
const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optionalText = z.preprocess(blankToUndefined, z.string().optional());

const envSchema = z
  .object({
    NODE_ENV: z.preprocess(blankToUndefined, z.enum(['development', 'production', 'test']).default('development')),
    PORT: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
    SITE_NAME: z.preprocess(blankToUndefined, z.string().default('CSA')),
    DATA_DIR: z.preprocess(blankToUndefined, z.string().default('./data')),
    PUBLIC_URL: z.preprocess(blankToUndefined, z.url().optional()),
    ADMIN_USERNAME: z.preprocess(blankToUndefined, z.string().min(1).default('admin')),
    ADMIN_PASSWORD: z.preprocess(blankToUndefined, z.string().min(6, 'ADMIN_PASSWORD must be at least 6 characters').optional()),
    ADMIN_PIN: z.preprocess(
      blankToUndefined,
      z
        .string()
        .regex(/^\d{4,12}$/, 'ADMIN_PIN must be 4 to 12 digits')
        .optional(),
    ),
    PAYMENTS: z.preprocess(blankToUndefined, z.enum(['test', 'square']).optional()),
    SQUARE_ACCESS_TOKEN: optionalText,
    SQUARE_APPLICATION_ID: optionalText,
    SQUARE_LOCATION_ID: optionalText,
    SQUARE_ENVIRONMENT: z.preprocess(blankToUndefined, z.enum(['sandbox', 'production']).optional()),
    SQUARE_BASE_URL: z.preprocess(blankToUndefined, z.url().optional()),
    METRICS_SOURCE: z.preprocess(blankToUndefined, z.enum(['simulated', 'feed']).default('simulated')),
    METRICS_FEED_URL: z.preprocess(blankToUndefined, z.url().optional()),
    METRICS_FEED_KEY: optionalText,
    METRICS_FEED_TIMEOUT_MS: z.preprocess(blankToUndefined, z.coerce.number().int().min(200).max(60_000).default(5_000)),
    DAILY_ENTRY_LIMIT: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(1_000).default(10)),
    LIVE_HEARTBEAT_MS: z.preprocess(blankToUndefined, z.coerce.number().int().min(1_000).max(120_000).default(5_000)),
    RATE_LIMIT: z.preprocess(blankToUndefined, z.enum(['on', 'off']).default('on')),
    CLOCK: z.preprocess(blankToUndefined, z.enum(['system', 'manual']).default('system')),
    SEED_DEMO: z.preprocess(blankToUndefined, z.enum(['0', '1']).optional()),
    SHUTDOWN_GRACE_MS: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(600_000).default(25_000)),
    SHUTDOWN_DRAIN_MS: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(600_000).default(5_000)),
    PAYMENT_TIMEOUT_MS: z.preprocess(blankToUndefined, z.coerce.number().int().min(500).max(60_000).default(8_000)),
    HOST: z.preprocess(blankToUndefined, z.string().default('127.0.0.1')),
    TRUST_PROXY: z.preprocess(blankToUndefined, z.string().default('off')),
    JOBS_LEASE_MS: z.preprocess(blankToUndefined, z.coerce.number().int().min(1_000).max(600_000).default(30_000)),
    LOG_LEVEL: z.preprocess(blankToUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
    METRICS_TOKEN: optionalText,
    BACKUP_DIR: optionalText,
    BACKUP_EVERY: z.preprocess(
      blankToUndefined,
      z
        .string()
        .regex(/^\d+(m|h|d)$/, 'BACKUP_EVERY must look like 30m, 1h or 1d')
        .default('1h'),
    ),
    BACKUP_KEEP: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(10_000).default(48)),
    RETENTION_NOTIFICATIONS_DAYS: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(3_650).default(90)),
    RETENTION_SESSIONS_DAYS: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(3_650).default(0)),
    RETENTION_VOID_PLAYS_DAYS: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(3_650).default(30)),
    RETENTION_RATE_LIMIT_HOURS: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(8_760).default(24)),
    RETENTION_MAIL_DAYS: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(3_650).default(30)),
    SMTP_URL: z.preprocess(
      blankToUndefined,
      z
        .string()
        .regex(/^smtps?:\/\/[^\s/]+/, 'SMTP_URL must look like smtp://user:password@host:587 or smtps://host:465')
        .optional(),
    ),
    MAIL_FROM: optionalText,
    SUPPORT_EMAIL: z.preprocess(blankToUndefined, z.email('SUPPORT_EMAIL must be an e-mail address').optional()),
    MAIL: z.preprocess(blankToUndefined, z.enum(['on', 'off']).default('on')),
    CHARITY_NAME: z.preprocess(blankToUndefined, z.string().max(120, 'CHARITY_NAME must be at most 120 characters').optional()),
    CHARITY_ADDRESS: z.preprocess(blankToUndefined, z.string().max(200, 'CHARITY_ADDRESS must be at most 200 characters').optional()),
    CHARITY_ABOUT: z.preprocess(blankToUndefined, z.string().max(300, 'CHARITY_ABOUT must be at most 300 characters').optional()),
    SEED_KEY: z.preprocess(
      blankToUndefined,
      z
        .string()
        .refine((value) => parseSeedKey(value) !== undefined, 'SEED_KEY must be 64 hex characters (32 bytes), e.g. from `openssl rand -hex 32`')
        .optional(),
    ),
  })
  .superRefine((env, ctx) => {
    const trust = trustProxyOf(env.TRUST_PROXY);
    if (trust.kind === 'addresses') {
      try {
        proxyaddr.compile(trust.addresses);
      } catch {
        ctx.addIssue({
          code: 'custom',
          path: ['TRUST_PROXY'],
          message: 'TRUST_PROXY must be off, a hop count, or a comma list of proxy addresses (IPs, CIDR ranges, loopback)',
        });
      }
    }
    // A hop count trusts whoever connects first, so any client could write its own X-Forwarded-For.
    if (trust.kind === 'hops' && env.NODE_ENV === 'production') {
      ctx.addIssue({
        code: 'custom',
        path: ['TRUST_PROXY'],
        message: `in production name your proxies by address (loopback, 10.0.0.5, 10.0.0.0/8, a comma list), not by a hop count: TRUST_PROXY=${trust.hops} would believe X-Forwarded-For from any client`,
      });
    }
    // Served over https, the store sits behind a proxy, where "this machine" means the proxy: only a token keeps /metrics private.
    if (/^https:/i.test(env.PUBLIC_URL ?? '') && !env.METRICS_TOKEN) {
      ctx.addIssue({
        code: 'custom',
        path: ['METRICS_TOKEN'],
        message:
          'METRICS_TOKEN is required when PUBLIC_URL is https (behind a proxy only a token keeps /metrics private): set a long random value and scrape with Authorization: Bearer <token>',
      });
    }
    // A donation is handed over at the charity's door: a partner without an address cannot take one.
    if (env.CHARITY_NAME && !env.CHARITY_ADDRESS)
      ctx.addIssue({ code: 'custom', path: ['CHARITY_ADDRESS'], message: 'CHARITY_ADDRESS is required with CHARITY_NAME (where donations are handed over)' });
    const payments = env.PAYMENTS ?? (env.SQUARE_ACCESS_TOKEN ? 'square' : undefined);
    if (env.METRICS_SOURCE === 'feed' && !env.METRICS_FEED_URL)
      ctx.addIssue({ code: 'custom', path: ['METRICS_FEED_URL'], message: 'METRICS_FEED_URL is required when METRICS_SOURCE=feed' });
    if (payments === 'square') {
      for (const name of ['SQUARE_ACCESS_TOKEN', 'SQUARE_LOCATION_ID'] as const) {
        if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: `${name} is required when PAYMENTS=square` });
      }
    }
    if (env.NODE_ENV !== 'production') return;
    if (!payments) {
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENTS'],
        message:
          'production needs real payments: set PAYMENTS=square with SQUARE_ACCESS_TOKEN and SQUARE_LOCATION_ID, or PAYMENTS=test for a store that takes no real money (it shows a test-mode banner)',
      });
    }
    // Links in pages and e-mails are built from it: without it they would point at localhost.
    if (!env.PUBLIC_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message: 'production needs the address shoppers use: set PUBLIC_URL (for example https://shop.example.com), or links and e-mails point at localhost',
      });
    }
    // Sandbox by default would take no money while the store believes it did.
    if (payments === 'square' && !env.SQUARE_ENVIRONMENT) {
      ctx.addIssue({
        code: 'custom',
        path: ['SQUARE_ENVIRONMENT'],
        message: 'production with Square must say which Square: set SQUARE_ENVIRONMENT=production (real payments) or SQUARE_ENVIRONMENT=sandbox',
      });
    }
    if (!env.ADMIN_PASSWORD) {
      ctx.addIssue({ code: 'custom', path: ['ADMIN_PASSWORD'], message: 'ADMIN_PASSWORD is required when NODE_ENV=production' });
    }
    if (!env.ADMIN_PIN) {
      ctx.addIssue({ code: 'custom', path: ['ADMIN_PIN'], message: 'ADMIN_PIN is required when NODE_ENV=production' });
    }
    // In development the key is made beside the database; in production it must live with the other secrets, not in DATA_DIR.
    if (!env.SEED_KEY) ctx.addIssue({ code: 'custom', path: ['SEED_KEY'], message: SEED_KEY_REQUIRED });
    if (env.CLOCK === 'manual') {
      ctx.addIssue({ code: 'custom', path: ['CLOCK'], message: 'CLOCK=manual is never allowed when NODE_ENV=production' });
    }
    if (env.MAIL === 'on' && !env.SMTP_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMTP_URL'],
        message: 'production sends receipts and password resets by e-mail: set SMTP_URL (and MAIL_FROM), or MAIL=off to run without e-mail',
      });
    }
  });

export interface Config {
  env: 'development' | 'production' | 'test';
  /** NODE_ENV was not set, so this is development by default: start-up says so loudly. */
  envDefaulted: boolean;
  port: number;
  siteName: string;
  dataDir: string;
  publicUrl: string;
  adminUsername: string;
  adminPassword: string | undefined;
  adminPin: string | undefined;
  payments: 'test' | 'square';
  square: {
    accessToken: string | undefined;
    applicationId: string | undefined;
    locationId: string | undefined;
    environment: 'sandbox' | 'production';
    baseUrl: string | undefined;
  };
  metricsSource: 'simulated' | 'feed';
  /** The data provider's per-minute feed (METRICS_SOURCE=feed); docs/metrics-feed.md. */
  metricsFeed: { url: string | undefined; key: string | undefined; timeoutMs: number };
  /** The store's daily entry limit per player, and the most a player may choose. */
  dailyEntryLimit: number;
  /** How often a quiet live stream sends a comment, so proxies keep it open. */
  liveHeartbeatMs: number;
  rateLimit: boolean;
  clock: 'system' | 'manual';
  /** Production running on the test gateway (PAYMENTS=test said explicitly): every page says so. */
  testModeBanner: boolean;
  /** Seed the demo catalogue into an empty store: development, or SEED_DEMO=1. */
  seedDemo: boolean;
  /** The most a shutdown takes, from the first signal to exit (drain, requests, jobs, logs). */
  shutdownGraceMs: number;
  /** After SIGTERM, how long the process keeps serving (failing /readyz) while the balancer notices. */
  shutdownDrainMs: number;
  /** Each payment gateway call gives up after this long (an unknown outcome, resolved later). */
  paymentTimeoutMs: number;
  /** The address Bun.serve binds: 127.0.0.1 unless said (the Docker image says 0.0.0.0). */
  host: string;
  /** Which peers may speak for the client in X-Forwarded-For/-Proto: none, these addresses, or (never in production) the nearest N hops. */
  trustProxy: { kind: 'off' } | { kind: 'hops'; hops: number } | { kind: 'addresses'; addresses: string[] };
  /** How long the jobs lease lasts without renewal: another process takes the jobs over at most this long (plus a third) after the holder dies. */
  jobsLeaseMs: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** When set, GET /metrics needs `Authorization: Bearer <token>`; otherwise it answers this machine only. Required when PUBLIC_URL is https. */
  metricsToken: string | undefined;
  /** Rotating online backups (BACKUP_DIR); off when dir is undefined. */
  backup: { dir: string | undefined; everyMs: number; keep: number };
  /** How long rows nobody needs any more are kept (docs/operations.md, Retention). */
  retention: {
    notificationsDays: number;
    expiredSessionsDays: number;
    voidPlaysDays: number;
    rateLimitHours: number;
    /** Sent e-mail bodies (receipts, notices) are blanked this long after they were queued. */
    mailDays: number;
  };
  /**
   * How e-mail leaves: SMTP when SMTP_URL is set; outside production without it, each message
   * is an .eml file in DATA_DIR/mail; off only when MAIL=off says so.
   */
  mail: { mode: 'smtp' | 'file' | 'off'; smtpUrl: string | undefined; from: string };
  /** Where shoppers write (contact, returns, privacy requests). */
  supportEmail: string;
  /** The shop's charity partner, who receives 'Buy to donate' orders; null (no Donate button) in production until CHARITY_NAME is set. */
  charity: CharityPartner | null;
  /** SEED_KEY: seals unrevealed draw seeds; undefined outside production means DATA_DIR/seed.key (domain/operations/sealed-seeds.ts). */
  seedKey: string | undefined;
}

export interface CharityPartner {
  name: string;
  /** One line: where the shop hands donations over. */
  address: string;
  /** One line about what the charity does. */
  about: string;
}

/** The made-up partner a development or test store shows, so 'Donate this' works out of the box. */
export const DEMO_CHARITY: CharityPartner = {
  name: 'Laguna Beach Giving Closet',
  address: '380 Third Street, Laguna Beach, CA 92651',
  about: 'Gives clothes, shoes, books and sunglasses to local families, students and shelters in Laguna Beach.',
};

function charityOf(env: { NODE_ENV: string; CHARITY_NAME?: string; CHARITY_ADDRESS?: string; CHARITY_ABOUT?: string }): CharityPartner | null {
  if (env.CHARITY_NAME && env.CHARITY_ADDRESS)
    return { name: env.CHARITY_NAME.trim(), address: env.CHARITY_ADDRESS.trim(), about: env.CHARITY_ABOUT?.trim() ?? '' };
  // Production never names a charity it was not told about.
  return env.NODE_ENV === 'production' ? null : DEMO_CHARITY;
}

const DURATION_UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** '30m', '1h', '1d' in milliseconds (the schema checked the shape). */
function durationMs(text: string): number {
  return Number(text.slice(0, -1)) * DURATION_UNIT_MS[text.slice(-1) as keyof typeof DURATION_UNIT_MS];
}

function trustProxyOf(text: string): Config['trustProxy'] {
  const value = text.trim().toLowerCase();
  if (value === 'off' || value === 'false') return { kind: 'off' };
  if (/^\d+$/.test(value)) return Number(value) === 0 ? { kind: 'off' } : { kind: 'hops', hops: Number(value) };
  return {
    kind: 'addresses',
    addresses: value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  };
}

export class ConfigError extends Error {}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const parts = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${parts.join('; ')}`);
  }
  const env = parsed.data;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  return {
    env: env.NODE_ENV,
    envDefaulted: blankToUndefined(source.NODE_ENV) === undefined,
    port: env.PORT,
    siteName: env.SITE_NAME,
    dataDir: env.DATA_DIR,
    publicUrl,
    adminUsername: env.ADMIN_USERNAME,
    adminPassword: env.ADMIN_PASSWORD,
    adminPin: env.ADMIN_PIN,
    payments: env.PAYMENTS ?? (env.SQUARE_ACCESS_TOKEN ? 'square' : 'test'),
    square: {
      accessToken: env.SQUARE_ACCESS_TOKEN,
      applicationId: env.SQUARE_APPLICATION_ID,
      locationId: env.SQUARE_LOCATION_ID,
      environment: env.SQUARE_ENVIRONMENT ?? 'sandbox',
      baseUrl: env.SQUARE_BASE_URL,
    },
    metricsSource: env.METRICS_SOURCE,
    metricsFeed: { url: env.METRICS_FEED_URL, key: env.METRICS_FEED_KEY, timeoutMs: env.METRICS_FEED_TIMEOUT_MS },
    dailyEntryLimit: env.DAILY_ENTRY_LIMIT,
    liveHeartbeatMs: env.LIVE_HEARTBEAT_MS,
    rateLimit: env.RATE_LIMIT === 'on',
    clock: env.CLOCK,
    testModeBanner: env.NODE_ENV === 'production' && (env.PAYMENTS ?? 'square') === 'test',
    seedDemo: env.SEED_DEMO ? env.SEED_DEMO === '1' : env.NODE_ENV !== 'production',
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
    shutdownDrainMs: env.SHUTDOWN_DRAIN_MS,
    paymentTimeoutMs: env.PAYMENT_TIMEOUT_MS,
    host: env.HOST,
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    jobsLeaseMs: env.JOBS_LEASE_MS,
    logLevel: env.LOG_LEVEL,
    metricsToken: env.METRICS_TOKEN,
    backup: { dir: env.BACKUP_DIR, everyMs: durationMs(env.BACKUP_EVERY), keep: env.BACKUP_KEEP },
    retention: {
      notificationsDays: env.RETENTION_NOTIFICATIONS_DAYS,
      expiredSessionsDays: env.RETENTION_SESSIONS_DAYS,
      voidPlaysDays: env.RETENTION_VOID_PLAYS_DAYS,
      rateLimitHours: env.RETENTION_RATE_LIMIT_HOURS,
      mailDays: env.RETENTION_MAIL_DAYS,
    },
    mail: {
      mode: env.MAIL === 'off' ? 'off' : env.SMTP_URL ? 'smtp' : 'file',
      smtpUrl: env.SMTP_URL,
      from: env.MAIL_FROM ?? `"${env.SITE_NAME.replace(/["\\]/g, '')}" <no-reply@${new URL(publicUrl).hostname}>`,
    },
    supportEmail: env.SUPPORT_EMAIL ?? `help@${new URL(publicUrl).hostname}`,
    charity: charityOf(env),
    seedKey: env.SEED_KEY,
  };
}
