/** Platform: category/tag tree, notices, system configuration, worker machines. */
import type { Db, MigrationContext } from './helpers.ts';
import { BIGINT, index, timestamps, withId } from './helpers.ts';

export async function up(db: Db, ctx: MigrationContext): Promise<void> {
  await withId(db.schema.createTable('categories'), ctx)
    .addColumn('parent_id', BIGINT, (c) => c.references('categories.id'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(timestamps)
    .execute();
  await index(db, 'categories_parent', 'categories', ['kind', 'parent_id']);

  await withId(db.schema.createTable('notices'), ctx)
    .addColumn('page', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('jump_to', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .addColumn('button', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('url', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .addColumn('type', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('title', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .$call(timestamps)
    .execute();

  await db.schema
    .createTable('sys_config')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', BIGINT, (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('machines'), ctx)
    .addColumn('name', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('host', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('kind', 'varchar(32)', (c) => c.notNull().defaultTo('worker'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('offline'))
    .addColumn('capacity', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('running', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('version', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('meta', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('last_heartbeat_at', BIGINT)
    .addColumn('started_at', BIGINT)
    .$call(timestamps)
    .execute();
}
