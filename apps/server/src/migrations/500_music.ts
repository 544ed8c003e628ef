/**
 * 500: music-driven dances (issue 22). One row per uploaded track: the audio under `uploadMusic/<id>.<ext>`
 * (spec §7 Storage prefix), the dance's outputs (clip, bone-type zips) under `music/u<user>/<uuid>/`, the
 * seed of the current dance (a redone draws a new one), status/progress like a video (0 not made, 1 in
 * progress, 2 made, 3 failed), the charge and its ledger reference.
 */
import type { Db, MigrationContext } from './helpers.ts';
import { BIGINT, index, timestamps, userRef, withId } from './helpers.ts';

export async function up(db: Db, ctx: MigrationContext): Promise<void> {
  await withId(db.schema.createTable('music'), ctx)
    .addColumn('user_id', BIGINT, userRef)
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('audio_key', 'varchar(191)', (c) => c.notNull())
    .addColumn('storage_prefix', 'varchar(191)', (c) => c.notNull())
    .addColumn('md5', 'varchar(32)', (c) => c.notNull())
    .addColumn('size_bytes', BIGINT, (c) => c.notNull())
    .addColumn('duration_ms', BIGINT, (c) => c.notNull())
    .addColumn('format', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('priority', 'varchar(8)', (c) => c.notNull().defaultTo('normal'))
    .addColumn('seed', BIGINT, (c) => c.notNull().defaultTo(1))
    .addColumn('job_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('redone_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('currency', 'varchar(4)', (c) => c.notNull().defaultTo('V'))
    .addColumn('charged', BIGINT, (c) => c.notNull().defaultTo(0))
    .addColumn('charge_ref', 'varchar(191)')
    .addColumn('refunded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('outputs', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('started_at', BIGINT)
    .addColumn('finished_at', BIGINT)
    .$call(timestamps)
    .execute();
  await index(db, 'music_user', 'music', ['user_id', 'created_at']);
  await index(db, 'music_user_md5', 'music', ['user_id', 'md5']);
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('music').execute();
}
