/**
 * Videos: the capture's judgement of its result (issue 15.3) — `confidence` 0..1 of the current result (null
 * before a judged result exists; the weak time ranges live in `outputs.judgement`) and `judge_remakes`, the free
 * remakes granted so far because a result was flagged (capped per video by `JUDGE_FREE_REMAKES`).
 */
import type { Db } from './helpers.ts';

export async function up(db: Db): Promise<void> {
  // One column per statement: SQLite adds one column per ALTER TABLE.
  await db.schema.alterTable('videos').addColumn('confidence', 'double precision').execute();
  await db.schema
    .alterTable('videos')
    .addColumn('judge_remakes', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Db): Promise<void> {
  for (const col of ['judge_remakes', 'confidence']) {
    await db.schema.alterTable('videos').dropColumn(col).execute();
  }
}
