/** Files uploaded through POST /file/upload and POST /file/write/ext (issue 25, spec §7 "Storage"). */
import { BIGINT, type Db, type MigrationContext, withId } from './helpers.ts';

export async function up(db: Db, ctx: MigrationContext): Promise<void> {
  await withId(db.schema.createTable('uploaded_files'), ctx)
    .addColumn('key', 'varchar(191)', (c) => c.notNull().unique())
    .addColumn('user_id', BIGINT, (c) => c.notNull())
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('content_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', BIGINT, (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('original_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', BIGINT, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('uploaded_files_user_created')
    .on('uploaded_files')
    .columns(['user_id', 'created_at'])
    .execute();
}
