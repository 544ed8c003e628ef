/**
 * SQL of the reports: counts per calendar day computed by the database ((t + offset) / 86400000 in integer
 * arithmetic, the same on SQLite and PostgreSQL). Tables: users, tokens (logins), videos, orders,
 * cashback_records. The only SQL of the stats slice.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../../infra/db/schema.ts';
import type { DayCounts, InviterRow, Period, RevenueRow, StatsRepo } from './ports.ts';

type Row = { day: number | string; n: number | string; s?: number | string | null };

export class KyselyStatsRepo implements StatsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  private async counts(
    p: Period,
    query: (d: (col: string) => RawBuilder<number>) => RawBuilder<Row>,
  ): Promise<DayCounts> {
    const off = p.tzOffsetMin * 60_000;
    // SQLite binds JS numbers as REAL: the cast keeps the day an integer on both databases.
    const d = (col: string) => sql<number>`cast((${sql.ref(col)} + ${off}) / 86400000 as bigint)`;
    const { rows } = await query(d).execute(this.db);
    const m: DayCounts = new Map();
    for (const r of rows) m.set(Number(r.day), { n: Number(r.n), sum: Number(r.s ?? 0) });
    return m;
  }

  newUsers(p: Period) {
    return this.counts(
      p,
      (d) => sql<Row>`select ${d('created_at')} as day, count(*) as n from users
        where created_at >= ${p.from} and created_at < ${p.to} group by 1`,
    );
  }

  activeUsers(p: Period) {
    return this.counts(
      p,
      (d) => sql<Row>`select day, count(distinct user_id) as n from (
          select user_id, ${d('created_at')} as day from tokens where created_at >= ${p.from} and created_at < ${p.to}
          union
          select user_id, ${d('created_at')} as day from videos where created_at >= ${p.from} and created_at < ${p.to}
        ) a group by day`,
    );
  }

  async activeUsersTotal(p: Period) {
    const { rows } = await sql<{ n: number | string }>`select count(distinct user_id) as n from (
        select user_id from tokens where created_at >= ${p.from} and created_at < ${p.to}
        union
        select user_id from videos where created_at >= ${p.from} and created_at < ${p.to}
      ) a`.execute(this.db);
    return Number(rows[0]?.n ?? 0);
  }

  uploads(p: Period) {
    return this.counts(
      p,
      (d) => sql<Row>`select ${d('created_at')} as day, count(*) as n, sum(duration_ms) as s from videos
        where created_at >= ${p.from} and created_at < ${p.to} group by 1`,
    );
  }

  made(p: Period) {
    return this.counts(
      p,
      (d) => sql<Row>`select ${d('finished_at')} as day, count(*) as n, sum(duration_ms) as s from videos
        where status = 2 and finished_at >= ${p.from} and finished_at < ${p.to} group by 1`,
    );
  }

  failed(p: Period) {
    return this.counts(
      p,
      (d) => sql<Row>`select ${d('finished_at')} as day, count(*) as n from videos
        where status = 3 and finished_at >= ${p.from} and finished_at < ${p.to} group by 1`,
    );
  }

  async revenue(p: Period): Promise<RevenueRow[]> {
    const off = p.tzOffsetMin * 60_000;
    const { rows } = await sql<{
      day: number | string;
      kind: string;
      method: string;
      n: number | string;
      s: number | string;
    }>`
      select cast((paid_at + ${off}) / 86400000 as bigint) as day, title as kind, method, count(*) as n, sum(amount) as s
      from orders where status = 'paid' and paid_at >= ${p.from} and paid_at < ${p.to}
      group by 1, 2, 3`.execute(this.db);
    return rows.map((r) => ({
      day: Number(r.day),
      kind: r.kind,
      method: r.method,
      orders: Number(r.n),
      amount: Number(r.s),
    }));
  }

  async conversion(p: Period) {
    const { rows } = await sql<{ registered: number | string; paid: number | string }>`
      select count(*) as registered,
        sum(case when exists (select 1 from orders o where o.user_id = u.id and o.status = 'paid' and o.paid_at < ${p.to})
          then 1 else 0 end) as paid
      from users u where u.type = 1 and u.created_at >= ${p.from} and u.created_at < ${p.to}`.execute(
      this.db,
    );
    return { registered: Number(rows[0]?.registered ?? 0), paid: Number(rows[0]?.paid ?? 0) };
  }

  firstPaid(p: Period) {
    return this.counts(
      p,
      (d) => sql<Row>`select ${d('first_paid')} as day, count(*) as n from (
          select user_id, min(paid_at) as first_paid from orders where status = 'paid' group by user_id
        ) f where first_paid >= ${p.from} and first_paid < ${p.to} group by 1`,
    );
  }

  referrals(p: Period) {
    return this.counts(
      p,
      (d) => sql<Row>`select ${d('created_at')} as day, count(*) as n from users
        where referred_by is not null and created_at >= ${p.from} and created_at < ${p.to} group by 1`,
    );
  }

  async inviters(p: Period): Promise<InviterRow[]> {
    const { rows } = await sql<{
      id: number | string;
      email: string;
      extension_staff: number | string;
      referrals: number | string;
      paid_referrals: number | string | null;
      cb_orders: number | string | null;
      order_amount: number | string | null;
      cashback: number | string | null;
      cashback_paid: number | string | null;
    }>`
      select i.id, i.email, i.extension_staff,
        (select count(*) from users r where r.referred_by = i.id and r.created_at >= ${p.from} and r.created_at < ${p.to}) as referrals,
        (select count(*) from users r where r.referred_by = i.id and r.created_at >= ${p.from} and r.created_at < ${p.to}
           and exists (select 1 from orders o where o.user_id = r.id and o.status = 'paid')) as paid_referrals,
        (select count(*) from cashback_records c where c.inviter_id = i.id and c.created_at >= ${p.from} and c.created_at < ${p.to}) as cb_orders,
        (select sum(c.order_amount) from cashback_records c where c.inviter_id = i.id and c.created_at >= ${p.from} and c.created_at < ${p.to}) as order_amount,
        (select sum(c.amount) from cashback_records c where c.inviter_id = i.id and c.created_at >= ${p.from} and c.created_at < ${p.to}) as cashback,
        (select sum(c.amount) from cashback_records c where c.inviter_id = i.id and c.created_at >= ${p.from} and c.created_at < ${p.to} and c.status = 'paid') as cashback_paid
      from users i
      where i.extension_staff = 1
        or exists (select 1 from users r where r.referred_by = i.id and r.created_at >= ${p.from} and r.created_at < ${p.to})
        or exists (select 1 from cashback_records c where c.inviter_id = i.id and c.created_at >= ${p.from} and c.created_at < ${p.to})
      order by i.id
      limit 500`.execute(this.db);
    return rows.map((r) => ({
      inviterId: Number(r.id),
      email: r.email,
      extensionStaff: Number(r.extension_staff) === 1,
      referrals: Number(r.referrals),
      paidReferrals: Number(r.paid_referrals ?? 0),
      cashbackOrders: Number(r.cb_orders ?? 0),
      orderAmount: Number(r.order_amount ?? 0),
      cashback: Number(r.cashback ?? 0),
      cashbackPaid: Number(r.cashback_paid ?? 0),
    }));
  }
}
