/**
 * The database adapter: Kysely over SQLite (better-sqlite3, the embedded default) or PostgreSQL (pg), chosen
 * from validated config. Only repositories and migrations use the Kysely instance.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Config } from '../../config.ts';
import type { DatabaseKind, DB } from './schema.ts';

export { listMigrations, migrateToLatest } from './migrate.ts';
export type { DatabaseKind, DB } from './schema.ts';

export interface Database {
  db: Kysely<DB>;
  kind: DatabaseKind;
  /** PostgreSQL schema in use (undefined for SQLite or the default search path). */
  schema?: string;
  destroy(): Promise<void>;
}

const PG_INT8 = 20;
const PG_NUMERIC = 1700;

export async function createDatabase(cfg: Config['database']): Promise<Database> {
  if (cfg.kind === 'sqlite') {
    if (cfg.file !== ':memory:') mkdirSync(dirname(cfg.file), { recursive: true });
    const native = new SqliteDatabase(cfg.file);
    native.pragma('journal_mode = WAL');
    native.pragma('synchronous = NORMAL');
    native.pragma('foreign_keys = ON');
    native.pragma('busy_timeout = 5000');
    const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(native) }) });
    return { db, kind: 'sqlite', destroy: () => db.destroy() };
  }
  const schema = cfg.schema;
  if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid DATABASE_SCHEMA ${schema}`);
  if (schema) {
    // Create the schema before the pool pins its search path to it.
    const client = new pg.Client({ connectionString: cfg.url });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } catch (e) {
      // Two processes creating it at the same moment: the loser sees a unique violation; the schema exists.
      const code = (e as { code?: string }).code;
      if (code !== '23505' && code !== '42P06') throw e;
    } finally {
      await client.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: cfg.url,
    max: 10,
    ...(schema ? { options: `-c search_path="${schema}"` } : {}),
    types: {
      getTypeParser: ((oid: number, format?: string) => {
        if (oid === PG_INT8 || oid === PG_NUMERIC) return (v: string) => (v === null ? null : Number(v));
        return pg.types.getTypeParser(oid, format as 'text');
      }) as typeof pg.types.getTypeParser,
    },
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  // Fail at boot, not at the first request, when the server is unreachable.
  await sql`select 1`.execute(db);
  return { db, kind: 'postgres', schema, destroy: () => db.destroy() };
}

/**
 * Kysely prepares every query anew; preparing is a large share of a small query's cost in better-sqlite3, and
 * the same few hundred SQL texts repeat. Prepared statements are kept (LRU, 500). Streaming queries
 * (`iterate`) get a fresh statement, since a statement being iterated cannot run another query.
 *
 * Rows are read as arrays (`raw` mode) and turned into objects by a function compiled once per statement from
 * its column names: better-sqlite3 builds row objects property by property, which for a wide row (a page of
 * 20 videos × 47 columns) costs twice as much as reading arrays and building the objects in JavaScript. Same
 * objects as before (a repeated column name keeps its last value). A DDL statement empties the cache, since a
 * `select *` prepared before it may have other columns after it; a schema changed by another process (SQLite
 * re-prepares the statement) is noticed when a row's width differs from the builder's, and the builder is made
 * again (migrations add columns; one renamed in place by another process while this one runs is not noticed).
 */
function withStatementCache(native: SqliteDatabase.Database, max = 500) {
  interface Entry {
    stmt: SqliteDatabase.Statement;
    /** Row builder for readers (null: the statement keeps better-sqlite3's own objects). */
    toRow: RowBuilder | null;
    ddl: boolean;
  }
  type RowBuilder = ((r: unknown[]) => Record<string, unknown>) & { width: number };
  const rowBuilder = (stmt: SqliteDatabase.Statement): RowBuilder | null => {
    const names = stmt.columns().map((c) => c.name);
    if (names.includes('__proto__')) return null;
    const f = new Function(
      'r',
      `return {${names.map((n, i) => `${JSON.stringify(n)}: r[${i}]`).join(', ')}};`,
    ) as RowBuilder;
    f.width = names.length;
    return f;
  };
  const cache = new Map<string, Entry>();
  const entry = (sqlText: string): Entry => {
    const stmt = native.prepare(sqlText);
    const toRow = stmt.reader ? rowBuilder(stmt) : null;
    if (toRow) stmt.raw(true);
    return { stmt, toRow, ddl: /^\s*(create|alter|drop)\b/i.test(sqlText) };
  };
  return {
    close: () => {
      cache.clear();
      native.close();
    },
    prepare(sqlText: string) {
      let e = cache.get(sqlText);
      if (e) {
        cache.delete(sqlText);
        cache.set(sqlText, e);
      } else {
        e = entry(sqlText);
        cache.set(sqlText, e);
        if (cache.size > max) cache.delete(cache.keys().next().value as string);
      }
      const cached = e;
      const { stmt, ddl } = e;
      return {
        reader: stmt.reader,
        all: (params: ReadonlyArray<unknown>) => {
          const rows = stmt.all(...params);
          let toRow = cached.toRow;
          if (!toRow) return rows;
          if (rows.length > 0 && (rows[0] as unknown[]).length !== toRow.width) {
            toRow = rowBuilder(stmt);
            if (!toRow) throw new Error('a column named __proto__ appeared in a cached statement');
            cached.toRow = toRow;
          }
          const out = new Array(rows.length);
          for (let i = 0; i < rows.length; i++) out[i] = toRow(rows[i] as unknown[]);
          return out;
        },
        run: (params: ReadonlyArray<unknown>) => {
          const r = stmt.run(...params);
          if (ddl) cache.clear();
          return r;
        },
        iterate: (params: ReadonlyArray<unknown>) => native.prepare(sqlText).iterate(...params),
      };
    },
  };
}
