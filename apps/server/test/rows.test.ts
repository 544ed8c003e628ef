/**
 * The shared row operations (`src/infra/db/rows.ts`) on SQLite and PostgreSQL: an update or delete with no
 * condition given (every where-value undefined) is refused instead of touching every row, and an empty IN list
 * matches no row.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, Codes } from '../src/errors.ts';
import { createDatabase, type Database } from '../src/infra/db/index.ts';
import { countWhere, deleteWhere, rowsWhere, updateWhere } from '../src/infra/db/rows.ts';
import { databases, PG_URL } from './harness.ts';
import { dropSchema } from './services.ts';

interface T {
  t: { id: number; name: string; n: number | null };
}

describe.each(databases)('row operations on %s', (kind) => {
  const dir = mkdtempSync(join(tmpdir(), 'mocap-rows-'));
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let database: Database;
  let db: Kysely<T>;

  beforeAll(async () => {
    database = await createDatabase(
      kind === 'postgres' ? { kind, url: PG_URL, schema } : { kind, file: join(dir, 't.db') },
    );
    db = database.db as unknown as Kysely<T>;
    await sql`create table t (id integer primary key, name text not null, n integer)`.execute(db);
    await sql`insert into t (id, name, n) values (1, 'a', 1), (2, 'b', null), (3, 'c', 3)`.execute(db);
  });
  afterAll(async () => {
    await database?.destroy();
    if (kind === 'postgres') await dropSchema(schema);
    rmSync(dir, { recursive: true, force: true });
  });

  const names = async () => (await rowsWhere(db, 't', {}, [['id', 'asc']])).map((r) => r.name);

  it('refuses an update or delete whose where-values are all undefined, and touches no row', async () => {
    const id: number | undefined = undefined;
    for (const where of [{}, { id }, { id, name: undefined }]) {
      const update = updateWhere(db, 't', { name: 'x' }, where);
      await expect(update).rejects.toBeInstanceOf(AppError);
      await expect(update).rejects.toMatchObject({ code: Codes.INTERNAL, message: /no condition/ });
      await expect(deleteWhere(db, 't', where)).rejects.toMatchObject({ code: Codes.INTERNAL });
    }
    expect(await names()).toEqual(['a', 'b', 'c']);
  });

  it('an undefined where-value beside a given one is no condition on its column', async () => {
    expect(await updateWhere(db, 't', { n: 2 }, { id: 2, name: undefined })).toBe(1);
    expect((await rowsWhere(db, 't', { id: 2 }))[0]?.n).toBe(2);
    expect(await updateWhere(db, 't', { n: null }, { id: 2, n: 2 })).toBe(1);
  });

  it('an empty IN list matches no row (select, count, update, delete)', async () => {
    expect(await rowsWhere(db, 't', { id: [] })).toEqual([]);
    expect(await countWhere(db, 't', { id: [] })).toBe(0);
    expect(await countWhere(db, 't', { name: ['a', 'c'] })).toBe(2);
    expect(await updateWhere(db, 't', { name: 'x' }, { id: [] })).toBe(0);
    expect(await updateWhere(db, 't', { name: 'x' }, { id: [], n: null })).toBe(0);
    expect(await deleteWhere(db, 't', { name: [] })).toBe(0);
    expect(await names()).toEqual(['a', 'b', 'c']);
  });

  it('IS NULL and IN lists still select as before', async () => {
    expect((await rowsWhere(db, 't', { n: null })).map((r) => r.id)).toEqual([2]);
    expect(await deleteWhere(db, 't', { id: [1, 3] })).toBe(2);
    expect(await names()).toEqual(['b']);
  });
});
