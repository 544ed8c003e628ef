/** Accounts: whether the account wants e-mail notices (company accounts: PUT /company/emailNotice). */
import type { Db } from './helpers.ts';

export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('email_notice', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}
