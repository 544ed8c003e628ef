/** Files uploaded through POST /file/upload and POST /file/write/ext (issue 25, spec §7 "Storage"). */
import type { Db, MigrationContext } from './helpers.ts';
import { BIGINT, createdAt, index, withId } from './helpers.ts';

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
    .$call(createdAt)
    .execute();
  await index(db, 'uploaded_files_user_created', 'uploaded_files', ['user_id', 'created_at']);
}
