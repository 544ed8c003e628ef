/**
 * 500: music-driven dances (issue 22). One row per uploaded track: the audio under `uploadMusic/<id>.<ext>`
 * (spec §7 Storage prefix), the dance's outputs (clip, bone-type zips) under `music/u<user>/<uuid>/`, the
 * seed of the current dance (a redone draws a new one), status/progress like a video (0 not made, 1 in
 * progress, 2 made, 3 failed), the charge and its ledger reference.
 */
import type { Db, MigrationContext } from './helpers.ts';
import {
  BIGINT,
  charge,
  jobEnd,
  jobState,
  ownedUpload,
  runTimes,
  storedFile,
  timestamps,
  uploadIndexes,
  withId,
} from './helpers.ts';

export async function up(db: Db, ctx: MigrationContext): Promise<void> {
  await withId(db.schema.createTable('music'), ctx)
    .$call(ownedUpload)
    .addColumn('audio_key', 'varchar(191)', (c) => c.notNull())
    .$call(storedFile)
    .addColumn('duration_ms', BIGINT, (c) => c.notNull())
    .addColumn('format', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .$call(jobState)
    .addColumn('seed', BIGINT, (c) => c.notNull().defaultTo(1))
    .addColumn('job_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('redone_count', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(charge)
    .$call(jobEnd)
    .$call(runTimes)
    .$call(timestamps)
    .execute();
  await uploadIndexes(db, 'music');
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('music').execute();
}
