/**
 * The row operations the repositories share, on any table of a slice: one row or all rows by the values of some
 * columns, a count, an insert that answers the stored row, an update or delete that answers how many rows it
 * touched; and `snakeKeys`, a record's fields under their column names (`userId` → `user_id`).
 */
import { type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import { AppError, Codes } from '../../errors.ts';

/**
 * Values of some columns of a row: null means the column IS NULL, a list means the column is one of its values (an
 * empty list matches no row); undefined means no condition on that column.
 */
export type ColumnsEqual<Row> = {
  [C in keyof Selectable<Row>]?: Selectable<Row>[C] | null | readonly Selectable<Row>[C][];
};

/** The column names of a record's field names (`createdAt` → `created_at`). */
type Snake<S extends string> = S extends `${infer C}${infer Rest}`
  ? `${C extends Lowercase<C> ? C : `_${Lowercase<C>}`}${Snake<Rest>}`
  : S;
export type SnakeKeys<O> = { [K in keyof O as K extends string ? Snake<K> : K]: O[K] };

/** `o`'s fields that are given (not undefined) under their column names. */
export function snakeKeys<O extends object>(o: O): SnakeKeys<O> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(o))
    if (value !== undefined) out[key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = value;
  return out as SnakeKeys<O>;
}

// biome-ignore lint/suspicious/noExplicitAny: any table of the slice; each signature gives the row type
type AnyDb = Kysely<any>;
// biome-ignore lint/suspicious/noExplicitAny: a filtered query of any table
type Filterable = { where(...args: unknown[]): any };

/** A LIKE pattern for the values that contain `text`: its `%`, `_` and `\` escaped with a backslash. */
export const likePattern = (text: string) => `%${text.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;

/** `q` filtered by `where` (every column equal, IS NULL, or IN its list; an empty list matches nothing). */
function filtered<Q extends Filterable>(q: Q, where: object): Q {
  for (const [column, value] of Object.entries(where)) {
    if (value === undefined) continue;
    if (Array.isArray(value) && value.length === 0) q = q.where(sql<boolean>`1 = 0`);
    else
      q =
        value === null
          ? q.where(column, 'is', null)
          : q.where(column, Array.isArray(value) ? 'in' : '=', value);
  }
  return q;
}

/**
 * `where` for an update or delete: at least one column given. Its values all undefined (an id that was never
 * set) would otherwise touch every row of the table.
 */
function someColumns(table: string, where: object): object {
  if (!Object.values(where).some((v) => v !== undefined))
    throw new AppError(
      Codes.INTERNAL,
      `refused: an update or delete of every row of ${table} (no condition given)`,
    );
  return where;
}

/** The first row of `table` whose columns equal `where` (every one of them), or undefined. */
export function rowWhere<T, TB extends keyof T & string>(
  db: Kysely<T>,
  table: TB,
  where: ColumnsEqual<T[TB]>,
): Promise<Selectable<T[TB]> | undefined> {
  return filtered(
    (db as unknown as AnyDb).selectFrom(table as string).selectAll(),
    where,
  ).executeTakeFirst() as Promise<Selectable<T[TB]> | undefined>;
}

/** The first row of `table` whose columns equal `where` as a record (`to` maps the row), or undefined. */
export async function recordWhere<T, TB extends keyof T & string, R>(
  db: Kysely<T>,
  table: TB,
  where: ColumnsEqual<T[TB]>,
  to: (row: Selectable<T[TB]>) => R,
): Promise<R | undefined> {
  const r = await rowWhere(db, table, where);
  return r && to(r);
}

/** Every row of `table` whose columns equal `where`, sorted by `order` (first key first); at most `limit` when given. */
export function rowsWhere<T, TB extends keyof T & string>(
  db: Kysely<T>,
  table: TB,
  where: ColumnsEqual<T[TB]>,
  order: readonly (readonly [column: keyof T[TB] & string, direction: 'asc' | 'desc'])[] = [],
  limit?: number,
): Promise<Selectable<T[TB]>[]> {
  let q = filtered((db as unknown as AnyDb).selectFrom(table as string).selectAll(), where);
  for (const [column, direction] of order) q = q.orderBy(column, direction);
  if (limit !== undefined) q = q.limit(limit);
  return q.execute() as Promise<Selectable<T[TB]>[]>;
}

/**
 * The rows of `table` whose columns equal `where` and whose time `column` is due (at or before `now`), the
 * longest due first, at most `limit` (work to pick up: pending deliveries, expired orders).
 */
export function dueRows<T, TB extends keyof T & string>(
  db: Kysely<T>,
  table: TB,
  where: ColumnsEqual<T[TB]>,
  column: keyof Selectable<T[TB]> & string,
  now: number,
  limit: number,
): Promise<Selectable<T[TB]>[]> {
  return filtered((db as unknown as AnyDb).selectFrom(table as string).selectAll(), where)
    .where(column as string, '<=', now)
    .orderBy(column as string, 'asc')
    .limit(limit)
    .execute() as Promise<Selectable<T[TB]>[]>;
}

/** How many rows of `table` have columns equal to `where`. */
export async function countWhere<T, TB extends keyof T & string>(
  db: Kysely<T>,
  table: TB,
  where: ColumnsEqual<T[TB]>,
): Promise<number> {
  const q = (db as unknown as AnyDb).selectFrom(table as string).select(sql<number>`count(*)`.as('n'));
  return Number((await filtered(q, where).executeTakeFirstOrThrow()).n);
}

/** Adds 1 to `column` of the row `id` of `table` (which must exist); answers the new value. */
export async function incrementById<T, TB extends keyof T & string>(
  db: Kysely<T>,
  table: TB,
  column: keyof Selectable<T[TB]> & string,
  id: number,
): Promise<number> {
  const r = await (db as unknown as AnyDb)
    .updateTable(table as string)
    .set({ [column]: sql`${sql.ref(column)} + 1` })
    .where('id', '=', id)
    .returning(column)
    .executeTakeFirstOrThrow();
  return Number((r as Record<string, unknown>)[column]);
}

/** `V` with no field that `Row` has no column for (a record's field the table does not store is a type error). */
type ColumnsOnly<V, Row> = V & { [K in Exclude<keyof V, keyof Row>]: never };

/** Inserts one row into `table` and answers it as stored (generated id, defaults). */
export function insertRow<T, TB extends keyof T & string, V extends Insertable<T[TB]>>(
  db: Kysely<T>,
  table: TB,
  values: ColumnsOnly<V, T[TB]>,
): Promise<Selectable<T[TB]>> {
  return (db as unknown as AnyDb)
    .insertInto(table as string)
    .values(values)
    .returningAll()
    .executeTakeFirstOrThrow() as Promise<Selectable<T[TB]>>;
}

/**
 * Sets `set` on the rows of `table` whose columns equal `where`; answers how many rows changed. A `where` with no
 * column given is refused (an internal error), never an update of the whole table.
 */
export async function updateWhere<T, TB extends keyof T & string, V extends Updateable<T[TB]>>(
  db: Kysely<T>,
  table: TB,
  set: ColumnsOnly<V, T[TB]>,
  where: ColumnsEqual<T[TB]>,
): Promise<number> {
  const r = await filtered(
    (db as unknown as AnyDb).updateTable(table as string).set(set),
    someColumns(table, where),
  ).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * Deletes the rows of `table` whose columns equal `where`; answers how many went. A `where` with no column given
 * is refused (an internal error), never a delete of the whole table.
 */
export async function deleteWhere<T, TB extends keyof T & string>(
  db: Kysely<T>,
  table: TB,
  where: ColumnsEqual<T[TB]>,
): Promise<number> {
  const r = await filtered(
    (db as unknown as AnyDb).deleteFrom(table as string),
    someColumns(table, where),
  ).executeTakeFirst();
  return Number(r.numDeletedRows);
}
