/**
 * Payments (issue 19): orders, the provider notices already handled (replay guard), invoices, cash-back codes and
 * commissions. Money is integer fen everywhere; times are epoch ms.
 */
import type { Db, MigrationContext } from './helpers.ts';
import { BIGINT, createdAt, index, timestamps, userRef, withId } from './helpers.ts';

export async function up(db: Db, ctx: MigrationContext): Promise<void> {
  await withId(db.schema.createTable('orders'), ctx)
    .addColumn('order_no', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('user_id', BIGINT, userRef)
    .addColumn('goods_id', 'integer', (c) => c.notNull())
    .addColumn('goods_kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('title', 'varchar(64)', (c) => c.notNull())
    .addColumn('amount', BIGINT, (c) => c.notNull())
    .addColumn('method', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('code_url', 'varchar(512)')
    .addColumn('trade_no', 'varchar(64)')
    .addColumn('grant_json', 'text', (c) => c.notNull())
    .addColumn('result_json', 'text')
    .$call(createdAt)
    .addColumn('expires_at', BIGINT, (c) => c.notNull())
    .addColumn('paid_at', BIGINT)
    .addColumn('closed_at', BIGINT)
    .addColumn('updated_at', BIGINT, (c) => c.notNull())
    .execute();
  await index(db, 'orders_user', 'orders', ['user_id', 'created_at']);
  await index(db, 'orders_status', 'orders', ['status', 'expires_at']);

  // Every provider notice handled once: a replayed notice (same id) is refused.
  await db.schema
    .createTable('payment_notices')
    .addColumn('notice_id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('provider', 'varchar(16)', (c) => c.notNull())
    .addColumn('order_no', 'varchar(32)', (c) => c.notNull())
    .addColumn('received_at', BIGINT, (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('invoices'), ctx)
    .addColumn('user_id', BIGINT, userRef)
    .addColumn('order_no', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('title', 'varchar(128)', (c) => c.notNull())
    .addColumn('tax_no', 'varchar(32)')
    .addColumn('email', 'varchar(191)', (c) => c.notNull())
    .addColumn('amount', BIGINT, (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .$call(timestamps)
    .execute();

  await db.schema
    .createTable('cashback_codes')
    .addColumn('user_id', BIGINT, (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('code', 'varchar(32)', (c) => c.notNull().unique())
    .$call(createdAt)
    .execute();
  await withId(db.schema.createTable('cashback_records'), ctx)
    .addColumn('inviter_id', BIGINT, userRef)
    .addColumn('invitee_id', BIGINT, (c) => c.notNull())
    .addColumn('order_no', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('order_amount', BIGINT, (c) => c.notNull())
    .addColumn('rate_bp', 'integer', (c) => c.notNull())
    .addColumn('amount', BIGINT, (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .$call(createdAt)
    .addColumn('paid_at', BIGINT)
    .execute();
  await index(db, 'cashback_records_inviter', 'cashback_records', ['inviter_id', 'created_at']);
}
