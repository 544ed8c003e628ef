/** Idempotency-Key on creating calls (issue 20): a retried upload answers the first one's result, charged once. */
import type { Db } from './helpers.ts';
import { BIGINT, createdAt } from './helpers.ts';

export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', BIGINT, (c) => c.notNull())
    .addColumn('scope', 'varchar(32)', (c) => c.notNull())
    .addColumn('idem_key', 'varchar(128)', (c) => c.notNull())
    .addColumn('state', 'varchar(8)', (c) => c.notNull())
    .addColumn('response', 'text')
    .$call(createdAt)
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'scope', 'idem_key'])
    .execute();
}
