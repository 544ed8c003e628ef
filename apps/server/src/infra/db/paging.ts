/** The paged list query the repositories share: one page in a given order, and the total. */
import type { SelectQueryBuilder } from 'kysely';
import type { Page } from '../../ports.ts';

// biome-ignore lint/suspicious/noExplicitAny: a filtered select of any table; `map` gives its row type
type AnySelect = SelectQueryBuilder<any, any, any>;

/** The columns a page is sorted by, first key first (`['created_at', 'desc'], ['id', 'desc']`). */
export type PageOrder = readonly (readonly [column: string, direction: 'asc' | 'desc'])[];

/**
 * Runs `base` (a table with its filters and joins, any table) as page `q.page` of `q.size` rows sorted by
 * `order`, with the count of every row `base` matches; `columns` picks what a row holds (default: every column),
 * `map` turns a row into the domain record.
 */
export async function pageOf<Row, T>(
  base: AnySelect,
  q: { page: number; size: number },
  map: (row: Row) => T,
  order: PageOrder,
  columns: (b: AnySelect) => AnySelect = (b) => b.selectAll(),
): Promise<Page<T>> {
  let rows = columns(base);
  for (const [column, direction] of order) rows = rows.orderBy(column, direction);
  const [list, total] = await Promise.all([
    rows
      .limit(q.size)
      .offset((q.page - 1) * q.size)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: (list as Row[]).map(map), total: Number(total.n), page: q.page, size: q.size };
}

/** `pageOf` newest (highest id) first. */
export const newestFirst = <Row, T>(
  base: AnySelect,
  q: { page: number; size: number },
  map: (row: Row) => T,
) => pageOf(base, q, map, [['id', 'desc']]);
