/**
 * Server configuration: read from the environment once at boot and validated with zod. Every adapter choice
 * (SQLite or PostgreSQL, in-process queue or BullMQ, local disk or S3, outbox or SMTP) follows from here.
 */
import { resolve } from 'node:path';
import { z } from 'zod';
import { type PaymentConfig, PaymentConfigShape, paymentConfig } from './infra/pay/config.ts';

const optionalString = z
  .string()
  .trim()
  .transform((s) => (s === '' ? undefined : s))
  .optional();

const bool = z
  .union([z.boolean(), z.string()])
  .transform((v) => (typeof v === 'boolean' ? v : ['1', 'true', 'yes', 'on'].includes(v.toLowerCase())));

export const ConfigSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().default('0.0.0.0'),
    /** Folder for the SQLite database, local files and the mail outbox. */
    DATA_DIR: z.string().default('./data'),
    /** `postgres://...` for PostgreSQL; `sqlite:<path>` or unset for SQLite in DATA_DIR. */
    DATABASE_URL: optionalString.refine(
      (u) => u === undefined || /^(postgres(ql)?:\/\/|sqlite:)/.test(u),
      'DATABASE_URL must start with postgres://, postgresql:// or sqlite:',
    ),
    /** PostgreSQL schema to use (tests give each file its own). */
    DATABASE_SCHEMA: optionalString,
    /** Unset: in-process queue and worker. Set: BullMQ on Redis, separate workers. */
    REDIS_URL: optionalString.refine(
      (u) => u === undefined || /^rediss?:\/\//.test(u),
      'REDIS_URL must start with redis:// or rediss://',
    ),
    S3_ENDPOINT: optionalString,
    S3_REGION: z.string().default('us-east-1'),
    S3_BUCKET: optionalString,
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    S3_FORCE_PATH_STYLE: bool.default(true),
    /**
     * An STS service for real temporary credentials on /cos/sts/* (AssumeRole with a session policy limited to the
     * user's prefix or the granted key): MinIO's STS API is the S3 endpoint itself, AWS's is
     * `https://sts.amazonaws.com` (with S3_STS_ROLE_ARN). Unset: pre-signed URLs only.
     */
    S3_STS_ENDPOINT: optionalString.refine(
      (u) => u === undefined || /^https?:\/\//.test(u),
      'S3_STS_ENDPOINT must be an http(s) URL',
    ),
    S3_STS_REGION: optionalString,
    S3_STS_ROLE_ARN: optionalString,
    /**
     * The one switch from the outbox folder to real mail (issue 15.2): `smtps://user:password@host:465` or
     * `smtp://user:password@host:587` (user and password URL-encoded). SMTP_HOST & co. do the same, piece by piece.
     */
    SMTP_URL: optionalString.refine((u) => u === undefined || /^smtps?:\/\/[^/]+/.test(u), {
      message: 'SMTP_URL must look like smtp://user:password@host:587 or smtps://user:password@host:465',
    }),
    SMTP_HOST: optionalString,
    SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(587),
    SMTP_SECURE: bool.default(false),
    SMTP_USER: optionalString,
    SMTP_PASS: optionalString,
    SMTP_FROM: z.string().default('mocap <no-reply@localhost>'),
    /** Public base address of the service (links in mails, signed URLs). */
    PUBLIC_URL: z
      .url()
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /** PEM of the RSA private key for password transport; generated and kept in the database when unset. */
    RSA_PRIVATE_KEY: optionalString,
    /** Secret for signed download URLs; generated and kept in the database when unset. */
    URL_SIGNING_SECRET: optionalString.refine((s) => s === undefined || s.length >= 32, {
      message: 'URL_SIGNING_SECRET must be at least 32 characters',
    }),
    /** Shared key of worker processes for the machine heartbeat API; generated and kept in the database when unset. */
    WORKER_TOKEN: optionalString,
    /** Body landmark model of captures (lite is ~4x faster than heavy on CPU). */
    CAPTURE_MODEL: z.enum(['lite', 'full', 'heavy']).default('heavy'),
    /** Capture jobs a worker runs at once (tracking already uses every core). */
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(1),
    /** Lease of a running job: a worker silent this long is presumed dead and its job retried. */
    QUEUE_LOCK_MS: z.coerce.number().int().min(200).default(30_000),
    /** Attempts per capture job (first run included) and the base retry delay. */
    JOB_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
    JOB_BACKOFF_MS: z.coerce.number().int().min(0).default(5000),
    /** Trust X-Forwarded-* from a reverse proxy (client IPs for rate limits). */
    TRUST_PROXY: bool.default(false),
    TOKEN_TTL_HOURS: z.coerce
      .number()
      .positive()
      .default(24 * 7),
    /** First-start administrator; a random password is generated (and printed) when unset. */
    ADMIN_EMAIL: z.email().default('admin@mocap.local'),
    ADMIN_PASSWORD: optionalString,
    /** Built web app served under /capture. */
    WEB_DIST: optionalString,
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Login attempts per (ip, account) per 15 minutes. */
    LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
    /** Seconds between two verification mails to one address (请勿重复发送!). */
    CODE_RESEND_SECONDS: z.coerce.number().int().positive().default(60),
    /** Verification mails per IP per hour. */
    CODE_IP_LIMIT: z.coerce.number().int().positive().default(20),
    /** Payment providers (infra/pay/config.ts): merchant credentials, or the built-in sandbox. */
    ...PaymentConfigShape,
    /**
     * Where company webhooks may point (issue 20): `public` — https and public hosts only, checked again at each
     * delivery (no loopback, private or link-local address) — or `any` (http and this machine too). Default:
     * `public` when NODE_ENV=production, `any` otherwise (a developer's or a test's local receiver).
     */
    WEBHOOK_TARGETS: z.enum(['public', 'any']).optional(),
    /** Uploads of one account received at once (per server process); more are refused before their body is read. */
    UPLOADS_PER_USER: z.coerce.number().int().min(1).max(100).default(1),
    /**
     * The `dev` third-party login provider (code `dev:<email>` logs into that account, no password): for tests only.
     * The server refuses to start with it unless NODE_ENV=test.
     */
    TEST_LOGIN_PROVIDER: bool.default(false),
    /**
     * Third-party login over OpenID Connect (authorization code + state + PKCE S256 + nonce, ID token checked
     * against the issuer's keys). Off unless OIDC_ISSUER and OIDC_CLIENT_ID are set; the login page then shows a
     * button labelled OIDC_LABEL.
     */
    OIDC_ISSUER: optionalString.refine((u) => u === undefined || /^https?:\/\//.test(u), {
      message: 'OIDC_ISSUER must be an http(s) URL (the issuer of the ID tokens)',
    }),
    OIDC_CLIENT_ID: optionalString,
    /** Unset for a public client (PKCE only). */
    OIDC_CLIENT_SECRET: optionalString,
    /** Provider name in /passport/3rd/login (letters, digits, - and _). */
    OIDC_NAME: z
      .string()
      .regex(/^[a-z0-9_-]{1,32}$/, 'OIDC_NAME: 1-32 of a-z, 0-9, - and _')
      .default('oidc'),
    OIDC_LABEL: z.string().default('Single sign-on'),
    OIDC_SCOPES: z.string().default('openid email profile'),
    /** Where the provider sends the browser back (register it there); default PUBLIC_URL + /capture/login. */
    OIDC_REDIRECT_URI: optionalString,
  })
  .superRefine((c, ctx) => {
    const s3 = [c.S3_BUCKET, c.S3_ACCESS_KEY_ID, c.S3_SECRET_ACCESS_KEY];
    if (s3.some(Boolean) && !s3.every(Boolean))
      ctx.addIssue({
        code: 'custom',
        path: ['S3_BUCKET'],
        message: 'S3 storage needs S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together',
      });
    if (c.TEST_LOGIN_PROVIDER && c.NODE_ENV !== 'test')
      ctx.addIssue({
        code: 'custom',
        path: ['TEST_LOGIN_PROVIDER'],
        message: `the test login provider lets anyone log in as anyone: it is refused outside NODE_ENV=test (NODE_ENV is ${c.NODE_ENV})`,
      });
    if (Boolean(c.OIDC_ISSUER) !== Boolean(c.OIDC_CLIENT_ID))
      ctx.addIssue({
        code: 'custom',
        path: ['OIDC_CLIENT_ID'],
        message: 'OpenID Connect login needs OIDC_ISSUER and OIDC_CLIENT_ID together',
      });
    if (c.SMTP_USER && !c.SMTP_PASS)
      ctx.addIssue({ code: 'custom', path: ['SMTP_PASS'], message: 'SMTP_USER is set but SMTP_PASS is not' });
  });

export type RawConfig = z.output<typeof ConfigSchema>;

export interface Config extends RawConfig {
  /** Absolute DATA_DIR. */
  dataDir: string;
  /** WeChat Pay / Alipay merchant credentials, or the payment sandbox when none are set. */
  payment: PaymentConfig;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema?: string };
  queue: { kind: 'memory' } | { kind: 'redis'; url: string };
  storage:
    | { kind: 'local'; root: string }
    | {
        kind: 's3';
        endpoint?: string;
        region: string;
        bucket: string;
        accessKeyId: string;
        secretAccessKey: string;
        forcePathStyle: boolean;
        sts?: { endpoint: string; region?: string; roleArn?: string };
      };
  mail:
    | { kind: 'outbox'; dir: string; from: string }
    | {
        kind: 'smtp';
        host: string;
        port: number;
        secure: boolean;
        user?: string;
        pass?: string;
        from: string;
      };
}

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`invalid configuration:\n  ${issues.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/** Validates `env` (default `process.env`) and derives the adapter choices. Throws ConfigError listing every problem. */
/** The config of a process's start (`npm start`, `npm run worker`): a bad one prints its message and exits 2. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success)
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  const c = parsed.data;
  const pay = paymentConfig(c);
  if (pay.issues.length > 0) throw new ConfigError(pay.issues);
  const dataDir = resolve(c.DATA_DIR);
  const url = c.DATABASE_URL;
  const database: Config['database'] =
    url && !url.startsWith('sqlite:')
      ? { kind: 'postgres', url, schema: c.DATABASE_SCHEMA }
      : { kind: 'sqlite', file: sqliteFile(dataDir, url) };
  return {
    ...c,
    dataDir,
    payment: pay.config,
    database,
    queue: c.REDIS_URL ? { kind: 'redis', url: c.REDIS_URL } : { kind: 'memory' },
    storage: c.S3_BUCKET
      ? {
          kind: 's3',
          endpoint: c.S3_ENDPOINT,
          region: c.S3_REGION,
          bucket: c.S3_BUCKET,
          accessKeyId: c.S3_ACCESS_KEY_ID!,
          secretAccessKey: c.S3_SECRET_ACCESS_KEY!,
          forcePathStyle: c.S3_FORCE_PATH_STYLE,
          ...(c.S3_STS_ENDPOINT
            ? {
                sts: {
                  endpoint: c.S3_STS_ENDPOINT,
                  ...(c.S3_STS_REGION ? { region: c.S3_STS_REGION } : {}),
                  ...(c.S3_STS_ROLE_ARN ? { roleArn: c.S3_STS_ROLE_ARN } : {}),
                },
              }
            : {}),
        }
      : { kind: 'local', root: resolve(dataDir, 'files') },
    mail: c.SMTP_URL
      ? smtpFromUrl(c.SMTP_URL, c.SMTP_FROM)
      : c.SMTP_HOST
        ? {
            kind: 'smtp',
            host: c.SMTP_HOST,
            port: c.SMTP_PORT,
            secure: c.SMTP_SECURE,
            user: c.SMTP_USER,
            pass: c.SMTP_PASS,
            from: c.SMTP_FROM,
          }
        : { kind: 'outbox', dir: resolve(dataDir, 'outbox'), from: c.SMTP_FROM },
  };
}

function smtpFromUrl(url: string, from: string): Config['mail'] {
  const u = new URL(url);
  const secure = u.protocol === 'smtps:';
  return {
    kind: 'smtp',
    host: u.hostname,
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    user: u.username ? decodeURIComponent(u.username) : undefined,
    pass: u.password ? decodeURIComponent(u.password) : undefined,
    from,
  };
}

function sqliteFile(dataDir: string, url: string | undefined): string {
  if (!url) return resolve(dataDir, 'mocap.db');
  const path = url.slice('sqlite:'.length).replace(/^\/\//, '');
  return path === ':memory:' ? ':memory:' : resolve(dataDir, path);
}
