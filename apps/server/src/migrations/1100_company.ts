/**
 * Company side (issue 20): which e-mails a company gets (job made, job failed, low balance), its API keys
 * (stored hashed, shown once), its webhooks and their delivery log.
 */
import type { Db, MigrationContext } from './helpers.ts';
import { BIGINT, createdAt, index, withId } from './helpers.ts';

export async function up(db: Db, ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('company_settings')
    .addColumn('user_id', BIGINT, (c) => c.primaryKey())
    .addColumn('notice_made', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('notice_failed', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('notice_low_balance', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('low_balance_threshold', BIGINT, (c) => c.notNull().defaultTo(100))
    .addColumn('low_balance_sent_at', BIGINT)
    .addColumn('updated_at', BIGINT, (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('api_keys'), ctx)
    .addColumn('user_id', BIGINT, (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('prefix', 'varchar(16)', (c) => c.notNull())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('rate_per_minute', 'integer', (c) => c.notNull().defaultTo(120))
    .$call(createdAt)
    .addColumn('last_used_at', BIGINT)
    .addColumn('revoked_at', BIGINT)
    .execute();
  await db.schema.createIndex('api_keys_user').on('api_keys').column('user_id').execute();

  await withId(db.schema.createTable('webhooks'), ctx)
    .addColumn('user_id', BIGINT, (c) => c.notNull())
    .addColumn('url', 'varchar(1024)', (c) => c.notNull())
    .addColumn('secret', 'varchar(128)', (c) => c.notNull())
    .addColumn('events', 'varchar(255)', (c) => c.notNull())
    .$call(createdAt)
    .addColumn('deleted_at', BIGINT)
    .execute();
  await db.schema.createIndex('webhooks_user').on('webhooks').column('user_id').execute();

  await withId(db.schema.createTable('webhook_deliveries'), ctx)
    .addColumn('webhook_id', BIGINT, (c) => c.notNull())
    .addColumn('user_id', BIGINT, (c) => c.notNull())
    .addColumn('event', 'varchar(32)', (c) => c.notNull())
    .addColumn('event_key', 'varchar(128)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_at', BIGINT)
    .addColumn('response_code', 'integer')
    .addColumn('error', 'varchar(500)')
    .$call(createdAt)
    .addColumn('delivered_at', BIGINT)
    .addUniqueConstraint('webhook_deliveries_once', ['webhook_id', 'event_key'])
    .execute();
  await index(db, 'webhook_deliveries_due', 'webhook_deliveries', ['state', 'next_at']);
}
