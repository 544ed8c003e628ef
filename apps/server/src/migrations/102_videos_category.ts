/** Videos: index on the category, for the list filter and the "category still used" check when deleting one. */
import type { Db } from './helpers.ts';

export async function up(db: Db): Promise<void> {
  await db.schema.createIndex('videos_category').on('videos').column('category_id').execute();
}
