/** Repositories of coins: the ledger, grant markers, scheduled-run markers. */
import { type Kysely, type Selectable, sql } from 'kysely';
import { newestFirst } from '../../infra/db/paging.ts';
import { rowWhere, snakeKeys, updateWhere } from '../../infra/db/rows.ts';
import type { CoinLedgerTable, DB } from '../../infra/db/schema.ts';
import type {
  Currency,
  GrantRepo,
  LedgerEntry,
  LedgerQuery,
  LedgerRepo,
  Page,
  ScheduledRunRepo,
} from '../../ports.ts';

const toEntry = (r: Selectable<CoinLedgerTable>): LedgerEntry => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  currency: r.currency as Currency,
  amount: Number(r.amount),
  balanceAfter: Number(r.balance_after),
  reason: r.reason,
  ref: r.ref,
  note: r.note,
  createdAt: Number(r.created_at),
});

export class KyselyLedgerRepo implements LedgerRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async claim(e: Omit<LedgerEntry, 'id'>) {
    const r = await this.db
      .insertInto('coin_ledger')
      .values(snakeKeys(e))
      .onConflict((oc) => oc.column('ref').doNothing())
      .returning('id')
      .executeTakeFirst();
    return r ? Number(r.id) : undefined;
  }

  async setBalanceAfter(id: number, balanceAfter: number) {
    await updateWhere(this.db, 'coin_ledger', { balance_after: balanceAfter }, { id });
  }

  async findByRef(ref: string) {
    const r = await rowWhere(this.db, 'coin_ledger', { ref });
    return r && toEntry(r);
  }

  async list(q: LedgerQuery): Promise<Page<LedgerEntry>> {
    let base = this.db.selectFrom('coin_ledger').where('user_id', '=', q.userId);
    if (q.currency) base = base.where('currency', '=', q.currency);
    if (q.reason) base = base.where('reason', '=', q.reason);
    if (q.from !== undefined) base = base.where('created_at', '>=', q.from);
    if (q.to !== undefined) base = base.where('created_at', '<', q.to);
    return newestFirst(base, q, toEntry);
  }

  async sum(userId: number, currency: Currency) {
    const r = await this.db
      .selectFrom('coin_ledger')
      .select(sql<number>`coalesce(sum(amount), 0)`.as('s'))
      .where('user_id', '=', userId)
      .where('currency', '=', currency)
      .executeTakeFirstOrThrow();
    return Number(r.s);
  }
}

export class KyselyGrantRepo implements GrantRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async claim(kind: string, period: string, userId: number, now: number) {
    const r = await this.db
      .insertInto('coin_grants')
      .values({ kind, period, user_id: userId, created_at: now })
      .onConflict((oc) => oc.columns(['kind', 'period', 'user_id']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}

export class KyselyScheduledRunRepo implements ScheduledRunRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async start(name: string, period: string, now: number) {
    const r = await this.db
      .insertInto('scheduled_runs')
      .values({ name, period, started_at: now, finished_at: null, result: null })
      .onConflict((oc) => oc.columns(['name', 'period']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async finish(name: string, period: string, now: number, result: string) {
    await updateWhere(this.db, 'scheduled_runs', { finished_at: now, result }, { name, period });
  }

  async get(name: string, period: string) {
    const r = await rowWhere(this.db, 'scheduled_runs', { name, period });
    return (
      r && {
        startedAt: Number(r.started_at),
        finishedAt: r.finished_at === null ? null : Number(r.finished_at),
        result: r.result,
      }
    );
  }
}
