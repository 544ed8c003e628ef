/** The paged list query the repositories share: one page, newest (highest id) first, and the total. */
import type { SelectQueryBuilder } from 'kysely';
import type { Page } from '../../ports.ts';

/**
 * Runs `base` (a table with its filters, any table) as one page of `q`, newest first, with the count of every
 * row `base` matches; `map` turns a row into the domain record.
 */
export async function newestFirst<Row, T>(
  // biome-ignore lint/suspicious/noExplicitAny: a filtered select of any table; `map` gives its row type
  base: SelectQueryBuilder<any, any, object>,
  q: { page: number; size: number },
  map: (row: Row) => T,
): Promise<Page<T>> {
  const [rows, total] = await Promise.all([
    base
      .selectAll()
      .orderBy('id', 'desc')
      .limit(q.size)
      .offset((q.page - 1) * q.size)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: (rows as Row[]).map(map), total: Number(total.n), page: q.page, size: q.size };
}
