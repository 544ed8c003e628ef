/**
 * Helpers shared by migration files (not a migration itself: only `NNN_name.ts` files run).
 * Times are BIGINT epoch milliseconds; ids autoincrement on both databases.
 */
import type { CreateTableBuilder } from 'kysely';
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
