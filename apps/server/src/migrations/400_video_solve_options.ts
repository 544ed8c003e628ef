/**
 * Videos: the solve options chosen at upload (or at the last remake), passed to the solver by the worker —
 * smoothing strength 0..1, foot-lock mode, root at origin (0/1), the performer's standing height in metres
 * (null: as measured from the video). Existing videos get the solver's defaults.
 */
import type { Db } from './helpers.ts';

export async function up(db: Db): Promise<void> {
  // One column per statement: SQLite adds one column per ALTER TABLE.
  await db.schema
    .alterTable('videos')
    .addColumn('smoothing', 'double precision', (c) => c.notNull().defaultTo(0.5))
    .execute();
  await db.schema
    .alterTable('videos')
    .addColumn('foot_lock', 'varchar(16)', (c) => c.notNull().defaultTo('auto'))
    .execute();
  await db.schema
    .alterTable('videos')
    .addColumn('root_at_origin', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('videos').addColumn('performer_height', 'double precision').execute();
}

export async function down(db: Db): Promise<void> {
  for (const col of ['performer_height', 'root_at_origin', 'foot_lock', 'smoothing']) {
    await db.schema.alterTable('videos').dropColumn(col).execute();
  }
}
