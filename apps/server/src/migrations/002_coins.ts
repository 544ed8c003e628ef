/** Coins: the ledger (one row per change, idempotent by reference), grant markers and scheduled-run markers. */
import type { Db, MigrationContext } from './helpers.ts';
import { BIGINT, createdAt, index, userRef, withId } from './helpers.ts';

export async function up(db: Db, ctx: MigrationContext): Promise<void> {
  await withId(db.schema.createTable('coin_ledger'), ctx)
    .addColumn('user_id', BIGINT, userRef)
    .addColumn('currency', 'varchar(4)', (c) => c.notNull())
    .addColumn('amount', BIGINT, (c) => c.notNull())
    .addColumn('balance_after', BIGINT, (c) => c.notNull())
    .addColumn('reason', 'varchar(32)', (c) => c.notNull())
    .addColumn('ref', 'varchar(191)', (c) => c.notNull().unique())
    .addColumn('note', 'varchar(255)')
    .$call(createdAt)
    .execute();
  await index(db, 'coin_ledger_user', 'coin_ledger', ['user_id', 'created_at']);

  await db.schema
    .createTable('coin_grants')
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('period', 'varchar(16)', (c) => c.notNull())
    .addColumn('user_id', BIGINT, userRef)
    .$call(createdAt)
    .addPrimaryKeyConstraint('coin_grants_pk', ['kind', 'period', 'user_id'])
    .execute();

  await db.schema
    .createTable('scheduled_runs')
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('period', 'varchar(16)', (c) => c.notNull())
    .addColumn('started_at', BIGINT, (c) => c.notNull())
    .addColumn('finished_at', BIGINT)
    .addColumn('result', 'text')
    .addPrimaryKeyConstraint('scheduled_runs_pk', ['name', 'period'])
    .execute();
}
