/**
 * 1200: the animation library (issue 22). `animation`: ready-made animations on the canonical skeleton (seeded
 * from the shipped CMU dance takes; source + source_ref identify the seed so seeding is idempotent), the clip
 * (mocap-motion JSON) in storage, category and tags, a price in V coins, published/hidden by administrators
 * (status 1 published, 0 hidden), removed rows deleted. `animation_collect`: a user's collected animations.
 * `animation_purchase`: an animation bought once by a user (the charge's ledger reference); downloads of every
 * bone type are free afterwards.
 */
import type { Db, MigrationContext } from './helpers.ts';
import { BIGINT, createdAt, index, timestamps, userRef, withId } from './helpers.ts';

export async function up(db: Db, ctx: MigrationContext): Promise<void> {
  await withId(db.schema.createTable('animation'), ctx)
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('category', 'varchar(32)', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('source', 'varchar(16)', (c) => c.notNull())
    .addColumn('source_ref', 'varchar(64)', (c) => c.notNull())
    .addColumn('credit', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('clip_key', 'varchar(191)', (c) => c.notNull())
    .addColumn('frame_count', 'integer', (c) => c.notNull())
    .addColumn('fps', 'integer', (c) => c.notNull())
    .addColumn('duration_ms', BIGINT, (c) => c.notNull())
    .addColumn('price', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('downloads', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('zips', 'text', (c) => c.notNull().defaultTo('{}'))
    .$call(timestamps)
    .execute();
  await db.schema
    .createIndex('animation_source')
    .on('animation')
    .columns(['source', 'source_ref'])
    .unique()
    .execute();
  await index(db, 'animation_status', 'animation', ['status', 'category']);
  await db.schema
    .createTable('animation_collect')
    .addColumn('user_id', BIGINT, userRef)
    .addColumn('animation_id', BIGINT, (c) => c.notNull().references('animation.id').onDelete('cascade'))
    .$call(createdAt)
    .addPrimaryKeyConstraint('animation_collect_pk', ['user_id', 'animation_id'])
    .execute();
  await db.schema
    .createTable('animation_purchase')
    .addColumn('user_id', BIGINT, userRef)
    .addColumn('animation_id', BIGINT, (c) => c.notNull().references('animation.id').onDelete('cascade'))
    .addColumn('charged', BIGINT, (c) => c.notNull())
    .addColumn('charge_ref', 'varchar(191)', (c) => c.notNull())
    .$call(createdAt)
    .addPrimaryKeyConstraint('animation_purchase_pk', ['user_id', 'animation_id'])
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('animation_purchase').execute();
  await db.schema.dropTable('animation_collect').execute();
  await db.schema.dropTable('animation').execute();
}
