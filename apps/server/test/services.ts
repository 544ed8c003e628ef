/**
 * The services the suites run against (PostgreSQL at 127.0.0.1:5432, Redis at 127.0.0.1:6379): whether each is
 * up (checked once per process), and dropping a test's own PostgreSQL schema. Tests of a service that is down
 * skip locally and run (and fail) under CI=true.
 */
import { createConnection } from 'node:net';
import pg from 'pg';

export const CI = process.env.CI === 'true';
export const PG_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** True when something listens on host:port within a second. */
export function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection({ host, port });
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(1000, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

export const pgAvailable = await reachable('127.0.0.1', 5432);
export const redisAvailable = await reachable('127.0.0.1', 6379);

/** Drops a test's PostgreSQL schema and everything in it (`PG_URL`'s database). */
export async function dropSchema(schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await c.end();
  }
}
