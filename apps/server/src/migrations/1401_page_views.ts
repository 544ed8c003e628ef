/**
 * Page views and actions (issue 25, spec §7 POST /pageView/addBehavior and addDigitalHumanBehavior): what was
 * seen or done, when, and by which account when logged in. No IP address, user agent or query string is kept.
 */
import type { Db, MigrationContext } from './helpers.ts';
import { BIGINT, createdAt, index, withId } from './helpers.ts';

export async function up(db: Db, ctx: MigrationContext): Promise<void> {
  await withId(db.schema.createTable('page_views'), ctx)
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('page', 'varchar(128)', (c) => c.notNull())
    .addColumn('action', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('user_id', BIGINT)
    .$call(createdAt)
    .execute();
  await index(db, 'page_views_created', 'page_views', ['created_at']);
}
