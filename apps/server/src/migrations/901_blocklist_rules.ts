/** Blacklist of e-mail domains and IP addresses/ranges (issue 21, spec §7 /sysConfig/blackListInfo). */
import type { Db, MigrationContext } from './helpers.ts';
import { BIGINT, createdAt, withId } from './helpers.ts';

export async function up(db: Db, ctx: MigrationContext): Promise<void> {
  await withId(db.schema.createTable('blocklist_rules'), ctx)
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('value', 'varchar(191)', (c) => c.notNull())
    .addColumn('note', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', BIGINT)
    .$call(createdAt)
    .addUniqueConstraint('blocklist_rules_kind_value', ['kind', 'value'])
    .execute();
}
