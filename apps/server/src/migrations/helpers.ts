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

/** A column referencing the account that owns the row (not null; removed with the account). */
export const userRef = (c: ColumnDefinitionBuilder) => c.notNull().references('users.id').onDelete('cascade');

/** `create index <name> on <table> (<columns>)`. */
export const index = (db: AnyDb, name: string, table: string, columns: string[]) =>
  db.schema.createIndex(name).on(table).columns(columns).execute();
