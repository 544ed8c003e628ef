/**
 * Helpers shared by migration files (not a migration itself: only `NNN_name.ts` files run).
 * Times are BIGINT epoch milliseconds; ids autoincrement on both databases.
 */
import type { ColumnDefinitionBuilder, CreateTableBuilder } from 'kysely';
import type { AnyDb, MigrationContext } from '../infra/db/migrate.ts';

export type { MigrationContext } from '../infra/db/migrate.ts';

/** Adds the `id` primary key (INTEGER AUTOINCREMENT on SQLite, BIGINT identity on PostgreSQL). */
export function withId<T extends string>(tb: CreateTableBuilder<T, never>, ctx: MigrationContext) {
  return ctx.kind === 'postgres'
    ? tb.addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : tb.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** Column type for epoch-ms times and coin amounts. */
export const BIGINT = 'bigint' as const;

export type Db = AnyDb;

/** `created_at`: when the row was made (epoch ms), not null. For `.$call(createdAt)`. */
export const createdAt = <T extends string, C extends string>(tb: CreateTableBuilder<T, C>) =>
  tb.addColumn('created_at', BIGINT, (c) => c.notNull());

/** `created_at` and `updated_at` (epoch ms), not null. For `.$call(timestamps)`. */
export const timestamps = <T extends string, C extends string>(tb: CreateTableBuilder<T, C>) =>
  createdAt(tb).addColumn('updated_at', BIGINT, (c) => c.notNull());

/** An uploaded file's place and identity: its storage folder, MD5 and size. For `.$call(storedFile)`. */
export const storedFile = <T extends string, C extends string>(tb: CreateTableBuilder<T, C>) =>
  tb
    .addColumn('storage_prefix', 'varchar(191)', (c) => c.notNull())
    .addColumn('md5', 'varchar(32)', (c) => c.notNull())
    .addColumn('size_bytes', BIGINT, (c) => c.notNull());

/** A job's state: status (0 not made), progress, error, queue priority. For `.$call(jobState)`. */
export const jobState = <T extends string, C extends string>(tb: CreateTableBuilder<T, C>) =>
  tb
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('priority', 'varchar(8)', (c) => c.notNull().defaultTo('normal'));

/** What a row cost: the currency, the coins charged and the charge's ledger reference. For `.$call(charge)`. */
export const charge = <T extends string, C extends string>(tb: CreateTableBuilder<T, C>) =>
  tb
    .addColumn('currency', 'varchar(4)', (c) => c.notNull().defaultTo('V'))
    .addColumn('charged', BIGINT, (c) => c.notNull().defaultTo(0))
    .addColumn('charge_ref', 'varchar(191)');

/** A job's refund flag and its outputs (JSON, `{}` until written); the run's times are `runTimes`. For `.$call(jobEnd)`. */
export const jobEnd = <T extends string, C extends string>(tb: CreateTableBuilder<T, C>) =>
  tb
    .addColumn('refunded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('outputs', 'text', (c) => c.notNull().defaultTo('{}'));

/** When the row's run started and finished (epoch ms, null until then). For `.$call(runTimes)`. */
export const runTimes = <T extends string, C extends string>(tb: CreateTableBuilder<T, C>) =>
  tb.addColumn('started_at', BIGINT).addColumn('finished_at', BIGINT);

/** An owner's indexes on a table of uploads: `<table>_user` (newest first) and `<table>_user_md5` (same file). */
export async function uploadIndexes(db: AnyDb, table: string): Promise<void> {
  await index(db, `${table}_user`, table, ['user_id', 'created_at']);
  await index(db, `${table}_user_md5`, table, ['user_id', 'md5']);
}

/** A column referencing the account that owns the row (not null; removed with the account). */
export const userRef = (c: ColumnDefinitionBuilder) => c.notNull().references('users.id').onDelete('cascade');

/** An upload owned by an account: the owner, its name and the uploaded file's name. For `.$call(ownedUpload)`. */
export const ownedUpload = <T extends string, C extends string>(tb: CreateTableBuilder<T, C>) =>
  tb
    .addColumn('user_id', BIGINT, userRef)
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull().defaultTo(''));

/** `create index <name> on <table> (<columns>)`. */
export const index = (db: AnyDb, name: string, table: string, columns: string[]) =>
  db.schema.createIndex(name).on(table).columns(columns).execute();
