/**
 * 800: digital humans (tomokage, issue 24). `tomokage`: one uploaded character per row: the file under
 * `tomokage/u<user>/<uuid>/` (original, pictures front/three-quarter, rest-pose GLB preview), its format and
 * content hash, the skeleton mapping to the canonical joints (auto or edited, JSON), what the import learned
 * (naming scheme, rest pose, height, counts, bones, warnings: JSON), collect flag, hidden by an administrator.
 * `tomokage_apply`: a motion (video capture or music dance) applied to a character: its files (FBX with the
 * character's mesh, GLB, VRMA for VRM, a zip), the coins it cost and their ledger reference.
 */
import type { Db, MigrationContext } from './helpers.ts';
import {
  BIGINT,
  charge,
  createdAt,
  index,
  ownedUpload,
  storedFile,
  timestamps,
  uploadIndexes,
  userRef,
  withId,
} from './helpers.ts';

export async function up(db: Db, ctx: MigrationContext): Promise<void> {
  await withId(db.schema.createTable('tomokage'), ctx)
    .$call(ownedUpload)
    .addColumn('format', 'varchar(16)', (c) => c.notNull())
    .addColumn('file_key', 'varchar(191)', (c) => c.notNull())
    .$call(storedFile)
    .addColumn('mapping', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('mapping_edited', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('info', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('pictures', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('collected', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(timestamps)
    .execute();
  await uploadIndexes(db, 'tomokage');
  await withId(db.schema.createTable('tomokage_apply'), ctx)
    .addColumn('tomokage_id', BIGINT, (c) => c.notNull().references('tomokage.id').onDelete('cascade'))
    .addColumn('user_id', BIGINT, userRef)
    .addColumn('source_kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('source_id', BIGINT, (c) => c.notNull())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('duration_ms', BIGINT, (c) => c.notNull().defaultTo(0))
    .addColumn('outputs', 'text', (c) => c.notNull().defaultTo('{}'))
    .$call(charge)
    .$call(createdAt)
    .execute();
  await index(db, 'tomokage_apply_tomo', 'tomokage_apply', ['tomokage_id', 'created_at']);
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('tomokage_apply').execute();
  await db.schema.dropTable('tomokage').execute();
}
