/**
 * Accounts: the login before the current one (issue 25, "last login shown where it helps"): each login moves the
 * last login's time and IP here, so the account menu can tell a user when the account was used before.
 */
import type { Db } from './helpers.ts';
import { BIGINT } from './helpers.ts';

export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('users').addColumn('previous_login_at', BIGINT).execute();
  await db.schema.alterTable('users').addColumn('previous_login_ip', 'varchar(64)').execute();
}
