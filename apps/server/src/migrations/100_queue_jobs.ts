/**
 * 100: `queue_jobs`, the rows of the database-backed job queue (`infra/queue/db.ts`). Times are unix
 * milliseconds (bigint). `priority` 1 high, 2 normal, 3 low.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('queue_jobs')
    .ifNotExists()
    .addColumn('id', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('queue', 'varchar(100)', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(2))
    .addColumn('state', 'varchar(20)', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(3))
    .addColumn('backoff_ms', 'integer', (c) => c.notNull().defaultTo(2000))
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_by', 'varchar(200)')
    .addColumn('lock_until', 'bigint')
    .addColumn('error', 'text')
    .addColumn('result', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('queue_jobs_claim')
    .ifNotExists()
    .on('queue_jobs')
    .columns(['queue', 'state', 'priority', 'created_at'])
    .execute();
  await db.schema
    .createIndex('queue_jobs_updated')
    .ifNotExists()
    .on('queue_jobs')
    .columns(['queue', 'updated_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('queue_jobs').ifExists().execute();
}
