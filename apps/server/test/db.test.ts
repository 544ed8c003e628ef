/**
 * The SQLite adapter's statement cache (`src/infra/db/index.ts`): rows read as arrays and built into objects by
 * a per-statement function must be the objects better-sqlite3 itself returns (names, values, repeated column
 * names, RETURNING), and a `select *` prepared before a schema change (here or by another process) must see
 * the new columns after it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../src/infra/db/index.ts';

let dir: string;
let database: Database;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mocap-db-'));
  database = await createDatabase({ kind: 'sqlite', file: join(dir, 't.db') });
});
afterAll(async () => {
  await database.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('SQLite statement cache', () => {
  it('rows are the objects better-sqlite3 returns, for every query shape', async () => {
    const { db } = database;
    await sql`create table a (id integer primary key, name text, n real, b blob, "weird key" text)`.execute(
      db,
    );
    await sql`create table c (id integer primary key, a_id integer, name text)`.execute(db);
    const inserted = await sql<{ id: number; name: string }>`
      insert into a (name, n, b, "weird key") values ('x', 1.5, x'0102', 'w'), (null, -2, null, '"q"')
      returning id, name`.execute(db);
    expect(inserted.rows).toEqual([
      { id: 1, name: 'x' },
      { id: 2, name: null },
    ]);
    await sql`insert into c (a_id, name) values (1, 'child')`.execute(db);
    const queries = [
      'select * from a order by id',
      'select a.*, c.* from a left join c on c.a_id = a.id order by a.id',
      'select count(*) as n, max(n) from a',
      'select 1, 2 as "1", \'__x\' as "__x"',
      'select * from a where id > 100',
    ];
    const reference = new SqliteDatabase(join(dir, 't.db'), { readonly: true });
    try {
      for (const q of queries) {
        const want = reference.prepare(q).all();
        // Twice: the first run prepares and caches, the second uses the cached statement.
        for (let i = 0; i < 2; i++) {
          const got = (await sql.raw(q).execute(db)).rows;
          expect(got).toEqual(want);
          expect(got.map((r) => Object.keys(r as object))).toEqual(want.map((r) => Object.keys(r as object)));
        }
      }
      // A repeated column name keeps the last value, as better-sqlite3's own objects do.
      const joined = (
        await sql.raw('select a.*, c.* from a left join c on c.a_id = a.id order by a.id').execute(db)
      ).rows as { id: number | null; name: string | null }[];
      expect(joined[0]).toMatchObject({ id: 1, name: 'child' });
      expect(joined[1]).toMatchObject({ id: null, name: null });
    } finally {
      reference.close();
    }
  });

  it('a select * prepared before a schema change sees the new columns after it', async () => {
    const { db } = database;
    await sql`create table t (id integer primary key, a text)`.execute(db);
    await sql`insert into t (a) values ('one')`.execute(db);
    expect((await sql.raw('select * from t').execute(db)).rows).toEqual([{ id: 1, a: 'one' }]);
    await db.schema
      .alterTable('t')
      .addColumn('b', 'integer', (c) => c.defaultTo(7))
      .execute();
    expect((await sql.raw('select * from t').execute(db)).rows).toEqual([{ id: 1, a: 'one', b: 7 }]);
    // Another process migrating the same file: the cached statement's rows get wider.
    const other = new SqliteDatabase(join(dir, 't.db'));
    try {
      other.exec(`alter table t add column c text default 'new'`);
    } finally {
      other.close();
    }
    expect((await sql.raw('select * from t').execute(db)).rows).toEqual([
      { id: 1, a: 'one', b: 7, c: 'new' },
    ]);
  });
});
