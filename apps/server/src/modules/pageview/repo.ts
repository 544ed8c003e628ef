/** Page views over Kysely (table page_views, migration 1401): the only SQL of the page-view slice. */

import { type Generated, sql } from 'kysely';
import type { DB } from '../../infra/db/schema.ts';
import { SliceRepo } from '../../infra/db/slice.ts';
import type { Behavior, BehaviorKind, BehaviorRepo } from './ports.ts';

interface PageViewsTable {
  id: Generated<number>;
  kind: string;
  page: string;
  action: string;
  user_id: number | null;
  created_at: number;
}
type PDB = DB & { page_views: PageViewsTable };

export class KyselyBehaviorRepo extends SliceRepo<PDB> implements BehaviorRepo {
  async add(b: Behavior) {
    await this.db
      .insertInto('page_views')
      .values({ kind: b.kind, page: b.page, action: b.action, user_id: b.userId, created_at: b.createdAt })
      .execute();
  }
  async summary(from: number, to: number, offsetMs: number) {
    // Integer division on both databases (integer operands); times are positive, so it floors. The offset is an
    // inlined integer literal so that PostgreSQL sees the same expression in SELECT and GROUP BY.
    const day = sql<number>`(created_at + ${sql.lit(Math.trunc(offsetMs))}) / 86400000`;
    const rows = await this.db
      .selectFrom('page_views')
      .select([
        day.as('day'),
        'kind',
        'page',
        'action',
        (eb) => eb.fn.countAll<number | string>().as('count'),
        (eb) => eb.fn.count<number | string>('user_id').distinct().as('users'),
        sql<number | string>`sum(case when user_id is null then 1 else 0 end)`.as('anonymous'),
      ])
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .groupBy([day, 'kind', 'page', 'action'])
      .orderBy(day)
      .orderBy('kind')
      .orderBy('page')
      .orderBy('action')
      .execute();
    return rows.map((r) => ({
      day: Number(r.day),
      kind: r.kind as BehaviorKind,
      page: r.page,
      action: r.action,
      count: Number(r.count),
      users: Number(r.users),
      anonymous: Number(r.anonymous),
    }));
  }
}
