/**
 * 101: videos and what hangs off them — downloads (history, counts), collects (favourites), feedback.
 * Times are epoch milliseconds; booleans 0/1. Status: 0 not made, 1 in progress, 2 made, 3 failed.
 */
import type { Db, MigrationContext } from './helpers.ts';
import {
  BIGINT,
  charge,
  createdAt,
  index,
  jobEnd,
  jobState,
  runTimes,
  storedFile,
  timestamps,
  userRef,
  withId,
} from './helpers.ts';

export async function up(db: Db, ctx: MigrationContext): Promise<void> {
  await withId(db.schema.createTable('videos'), ctx)
    .addColumn('user_id', BIGINT, userRef)
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('title_in_square', 'varchar(64)')
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .$call(storedFile)
    .addColumn('duration_ms', BIGINT, (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('fps', 'double precision', (c) => c.notNull())
    .addColumn('capture_type', 'varchar(16)', (c) => c.notNull().defaultTo('body'))
    .addColumn('bone_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('model_type', 'varchar(16)', (c) => c.notNull().defaultTo('heavy'))
    .addColumn('serial_no', 'varchar(40)', (c) => c.notNull().unique())
    .$call(jobState)
    .addColumn('job_id', 'varchar(200)')
    .addColumn('job_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('in_square', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('square_at', BIGINT)
    .addColumn('repair_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('download_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('collect_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('remake_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('free_remakes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('regen_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('category_id', BIGINT)
    .addColumn('tags', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .$call(charge)
    .$call(jobEnd)
    .addColumn('feedback', 'text')
    .addColumn('feedback_status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('feedback_at', BIGINT)
    .$call(runTimes)
    .$call(timestamps)
    .execute();
  await index(db, 'videos_user', 'videos', ['user_id', 'created_at']);
  await index(db, 'videos_user_status', 'videos', ['user_id', 'status']);
  await index(db, 'videos_square', 'videos', ['in_square', 'square_at']);
  await index(db, 'videos_user_md5', 'videos', ['user_id', 'md5']);

  await withId(db.schema.createTable('video_downloads'), ctx)
    .addColumn('video_id', BIGINT, (c) => c.notNull().references('videos.id').onDelete('cascade'))
    .addColumn('user_id', BIGINT, userRef)
    .addColumn('bone_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('charged', BIGINT, (c) => c.notNull().defaultTo(0))
    .$call(createdAt)
    .execute();
  await index(db, 'video_downloads_user', 'video_downloads', ['user_id', 'video_id']);

  await db.schema
    .createTable('video_collects')
    .addColumn('video_id', BIGINT, (c) => c.notNull().references('videos.id').onDelete('cascade'))
    .addColumn('user_id', BIGINT, userRef)
    .$call(createdAt)
    .addPrimaryKeyConstraint('video_collects_pk', ['video_id', 'user_id'])
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('video_collects').ifExists().execute();
  await db.schema.dropTable('video_downloads').ifExists().execute();
  await db.schema.dropTable('videos').ifExists().execute();
}
