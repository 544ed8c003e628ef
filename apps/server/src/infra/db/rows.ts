/** The lookup the repositories share: one row of a table by the values of some of its columns. */
import type { Kysely, Selectable } from 'kysely';

/** Values of some columns of a row; null means the column IS NULL. */
export type ColumnsEqual<Row> = { [C in keyof Selectable<Row>]?: Selectable<Row>[C] | null };

/** The first row of `table` whose columns equal `where` (every one of them), or undefined. */
export function rowWhere<T, TB extends keyof T & string>(
  db: Kysely<T>,
  table: TB,
  where: ColumnsEqual<T[TB]>,
): Promise<Selectable<T[TB]> | undefined> {
  // biome-ignore lint/suspicious/noExplicitAny: any table of the slice; the signature gives the row type
  let q = (db as unknown as Kysely<any>).selectFrom(table).selectAll();
  for (const [column, value] of Object.entries(where))
    q = value === null ? q.where(column, 'is', null) : q.where(column, '=', value);
  return q.executeTakeFirst() as Promise<Selectable<T[TB]> | undefined>;
}
