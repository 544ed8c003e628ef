/**
 * `createInfra(config)`: every adapter chosen from validated config — database (SQLite or PostgreSQL, migrated),
 * store (repositories + transactions), mail (outbox or SMTP), storage (local disk or S3), queues (database-backed
 * in-process or BullMQ), password hashing and transport keys, rate limiting, clock. The server and the worker
 * both start from here.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { createStore } from '../repos/index.ts';
import {
  type Clock,
  type Mailer,
  type PasswordHasher,
  type PasswordTransport,
  type RateLimiter,
  type Store,
  systemClock,
} from '../services/ports.ts';
import { createArgon2Hasher, createRsaTransport, generateRsaPrivateKeyPem } from './crypto/index.ts';
import { createDatabase, type Database, migrateToLatest } from './db/index.ts';
import { createMailer, outboxNotice } from './mail/index.ts';
import { createPaymentInfra, type PaymentInfra } from './pay/index.ts';
import { createQueue, type JobQueue } from './queue/index.ts';
import { createMemoryRateLimiter, createRedisRateLimiter, type RedisLike } from './ratelimit.ts';
import { createStorage, type ObjectStorage } from './storage/index.ts';

export interface Secrets {
  /** HMAC key of signed URLs and upload grants. */
  urlSigning: string;
  /** HMAC key of verification codes. */
  codes: string;
  /** Shared key workers present to the machine heartbeat API. */
  worker: string;
  rsaPrivateKeyPem: string;
}

export interface Infra {
  config: Config;
  database: Database;
  store: Store;
  mailer: Mailer;
  storage: ObjectStorage;
  /** A queue by name (the same name gives the same queue object). */
  queue<T>(name: string): JobQueue<T>;
  hasher: PasswordHasher;
  transport: PasswordTransport;
  limiter: RateLimiter;
  clock: Clock;
  secrets: Secrets;
  /** Payment providers (live merchant credentials or the built-in sandbox). */
  payment: PaymentInfra;
  /** Closes queues and the database. */
  close(): Promise<void>;
}

export interface InfraOverrides {
  clock?: Clock;
  hasher?: PasswordHasher;
  mailer?: Mailer;
  limiter?: RateLimiter;
  /** Skip migrations (a worker may start before the server migrated; default false). */
  skipMigrations?: boolean;
}

/** Secrets from config, or generated once and kept in the database (so every process of a deployment agrees). */
async function resolveSecrets(config: Config, store: Store, clock: Clock): Promise<Secrets> {
  const now = clock.now();
  const s = store.repos.secrets;
  const rand = () => randomBytes(32).toString('base64url');
  return {
    urlSigning: config.URL_SIGNING_SECRET ?? (await s.getOrCreate('url_signing', rand, now)),
    codes: await s.getOrCreate('codes', rand, now),
    worker: config.WORKER_TOKEN ?? (await s.getOrCreate('worker', rand, now)),
    rsaPrivateKeyPem:
      config.RSA_PRIVATE_KEY ?? (await s.getOrCreate('rsa_private_key', generateRsaPrivateKeyPem, now)),
  };
}

export async function createInfra(config: Config, overrides: InfraOverrides = {}): Promise<Infra> {
  const clock = overrides.clock ?? systemClock;
  const database = await createDatabase(config.database);
  try {
    if (!overrides.skipMigrations)
      await migrateToLatest(database.db, database.kind, { schema: database.schema });
    const store = createStore(database);
    const secrets = await resolveSecrets(config, store, clock);
    const payment = await createPaymentInfra(config, store, clock);
    const storage = createStorage(
      config.storage.kind === 's3'
        ? { ...config.storage, secret: secrets.urlSigning }
        : {
            kind: 'local',
            root: config.storage.root,
            secret: secrets.urlSigning,
            publicUrl: config.PUBLIC_URL,
          },
    );
    // Rate limits are shared by every process in scale-out mode (Redis), per process otherwise.
    let redis: Redis | undefined;
    let limiter = overrides.limiter;
    if (!limiter && config.queue.kind === 'redis') {
      redis = new Redis(config.queue.url, { maxRetriesPerRequest: 2, lazyConnect: false });
      limiter = createRedisRateLimiter(redis as unknown as RedisLike, { now: () => clock.now() });
    }
    limiter ??= createMemoryRateLimiter(() => clock.now());
    const queues = new Map<string, JobQueue<unknown>>();
    const queue = <T>(name: string): JobQueue<T> => {
      let q = queues.get(name);
      if (!q) {
        q =
          config.queue.kind === 'redis'
            ? createQueue<unknown>(name, {
                kind: 'redis',
                url: config.queue.url,
                lockMs: config.QUEUE_LOCK_MS,
              })
            : createQueue<unknown>(name, {
                kind: 'memory',
                db: database.db,
                dialect: database.kind,
                lockMs: config.QUEUE_LOCK_MS,
              });
        queues.set(name, q);
      }
      return q as JobQueue<T>;
    };
    return {
      config,
      database,
      store,
      // Embedded mode (no SMTP): each mail's path and code on the console, where the operator looks (issue 15.2).
      mailer:
        overrides.mailer ??
        createMailer(
          config.mail,
          config.NODE_ENV === 'test' ? undefined : (path, mail) => console.log(outboxNotice(path, mail)),
        ),
      storage,
      queue,
      hasher: overrides.hasher ?? createArgon2Hasher(),
      transport: createRsaTransport(secrets.rsaPrivateKeyPem),
      limiter,
      clock,
      secrets,
      payment,
      async close() {
        for (const q of queues.values()) await (q as { close?: () => Promise<void> }).close?.();
        await redis?.quit().catch(() => redis?.disconnect());
        await database.destroy();
      },
    };
  } catch (e) {
    await database.destroy();
    throw e;
  }
}
