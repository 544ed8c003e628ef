/**
 * Per-key route allow-list (issue 20): `routes` holds the public-API operations a key may call ("GET /product/…",
 * comma-separated); null keeps every operation of the public API.
 */
import type { Db } from './helpers.ts';

export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('routes', 'varchar(4000)').execute();
}
