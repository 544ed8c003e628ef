/**
 * Migrations: every module drops numbered files into `src/migrations/` (`0xx_` accounts and platform,
 * `1xx_` videos and jobs). Each file exports `up(db, ctx)` (and optionally `down`). They run in name order at
 * boot; Kysely's migrator records them and holds a lock so concurrent boots do not race.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { DatabaseKind } from './schema.ts';

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'migrations');

/** What a migration is told besides the Kysely instance. */
export interface MigrationContext {
  kind: DatabaseKind;
}

/** Migrations see a schema-less Kysely: the tables they create are not typed yet. */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on a schema-less database.
export type AnyDb = Kysely<any>;

export interface MigrationModule {
  up(db: AnyDb, ctx: MigrationContext): Promise<void>;
  down?(db: AnyDb, ctx: MigrationContext): Promise<void>;
}

export function listMigrations(dir = MIGRATIONS_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3,4}_[\w-]+\.ts$/.test(f))
    .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10) || a.localeCompare(b));
}

class FolderProvider implements MigrationProvider {
  constructor(
    private readonly dir: string,
    private readonly ctx: MigrationContext,
  ) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const file of listMigrations(this.dir)) {
      const mod = (await import(pathToFileURL(join(this.dir, file)).href)) as MigrationModule;
      if (typeof mod.up !== 'function') throw new Error(`migration ${file} exports no up()`);
      const { up, down } = mod;
      out[file.slice(0, -3)] = {
        up: (db) => up(db, this.ctx),
        ...(down ? { down: (db: AnyDb) => down(db, this.ctx) } : {}),
      };
    }
    return out;
  }
}

/** Runs every pending migration; throws with the failing migration's name and cause. Returns the names applied. */
export async function migrateToLatest(
  db: AnyDb,
  kind: DatabaseKind,
  opts: { schema?: string; dir?: string } = {},
): Promise<string[]> {
  const run = (conn: AnyDb) =>
    new Migrator({
      db: conn,
      provider: new FolderProvider(opts.dir ?? MIGRATIONS_DIR, { kind }),
      // Numbers run past 999 (helpers' ranges 1000-1199): Kysely orders names as text ("1100_" before "900_"),
      // so a database that ran 9xx must still accept a pending 1xxx. Every migration touches its own tables.
      allowUnorderedMigrations: true,
      ...(opts.schema ? { migrationTableSchema: opts.schema } : {}),
    }).migrateToLatest();
  // PostgreSQL: Kysely's migrator holds an advisory lock in a transaction. SQLite: Kysely takes no lock (it
  // assumes one process), so processes booting together on one file serialise on BEGIN IMMEDIATE here, and a
  // failing migration rolls back whole.
  const { error, results } =
    kind === 'sqlite'
      ? await db.connection().execute(async (conn) => {
          await sql`pragma busy_timeout = 60000`.execute(conn);
          await sql`begin immediate`.execute(conn);
          try {
            const r = await run(conn);
            await sql.raw(r.error ? 'rollback' : 'commit').execute(conn);
            return r;
          } catch (e) {
            await sql`rollback`.execute(conn).catch(() => {});
            throw e;
          } finally {
            await sql`pragma busy_timeout = 5000`.execute(conn);
          }
        })
      : await run(db);
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const msg = error instanceof Error ? error.message : String(error);
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${msg}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
