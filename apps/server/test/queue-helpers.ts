/**
 * Test helpers for the queue suite and the job tests: a fresh database (SQLite file or a PostgreSQL schema of
 * its own) with the queue table, Redis availability, and `waitFor`.
 * PostgreSQL and Redis tests skip when the service is down, except under CI=true where they must run.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { up as queueJobsUp } from '../src/migrations/100_queue_jobs.ts';
import { CI, PG_URL, pgAvailable, redisAvailable } from './services.ts';

export { CI, PG_URL, pgAvailable, redisAvailable };
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Run PG/Redis tests when the service is up, and always under CI (where a missing service fails). */
export const runPg = pgAvailable || CI;
export const runRedis = redisAvailable || CI;

export interface TestDb {
  // biome-ignore lint/suspicious/noExplicitAny: schema-less test database.
  db: Kysely<any>;
  dialect: 'sqlite' | 'postgres';
  /** Another connection to the same database (a second process would have its own). */
  // biome-ignore lint/suspicious/noExplicitAny: schema-less test database.
  reopen(): Kysely<any>;
  cleanup(): Promise<void>;
}

/**
 * A test database from its connection maker: the queue's table made, `reopen` opens more connections, `cleanup`
 * closes them all, running `end.beforeClose` on the first connection before it closes and `end.afterClose` after.
 */
async function testDbOf(
  dialect: TestDb['dialect'],
  // biome-ignore lint/suspicious/noExplicitAny: schema-less test database.
  open: () => Kysely<any>,
  end: {
    // biome-ignore lint/suspicious/noExplicitAny: schema-less test database.
    beforeClose?: (db: Kysely<any>) => Promise<void>;
    afterClose?: () => void;
  },
): Promise<TestDb> {
  const db = open();
  await queueJobsUp(db);
  const extra: Kysely<unknown>[] = [];
  return {
    db,
    dialect,
    reopen: () => {
      const k = open();
      extra.push(k);
      return k;
    },
    cleanup: async () => {
      for (const k of extra) await k.destroy();
      await end.beforeClose?.(db);
      await db.destroy();
      end.afterClose?.();
    },
  };
}

export async function sqliteDb(): Promise<TestDb> {
  const dir = mkdtempSync(join(tmpdir(), 'mocap-q-'));
  const file = join(dir, 'test.db');
  const open = () => {
    const s = new SQLite(file);
    s.pragma('journal_mode = WAL');
    s.pragma('busy_timeout = 5000');
    return new Kysely({ dialect: new SqliteDialect({ database: s }) });
  };
  return await testDbOf('sqlite', open, { afterClose: () => rmSync(dir, { recursive: true, force: true }) });
}

export async function postgresDb(): Promise<TestDb> {
  const schema = `qtest_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const open = () =>
    new Kysely({
      dialect: new PostgresDialect({
        pool: new pg.Pool({ connectionString: PG_URL, max: 5, options: `-c search_path=${schema}` }),
      }),
    });
  return await testDbOf('postgres', open, {
    beforeClose: async (db) => {
      await sql.raw(`DROP SCHEMA ${schema} CASCADE`).execute(db);
    },
  });
}

/** Polls `cond` every 20 ms until it is truthy; throws after `timeoutMs` with `what`. */
export async function waitFor<T>(
  cond: () => T | Promise<T>,
  timeoutMs = 20_000,
  what = 'condition',
): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await cond();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function uid(prefix = 'j'): string {
  return `${prefix}-${randomBytes(6).toString('hex')}`;
}
