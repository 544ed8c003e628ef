/**
 * Administrator console (issue 21): roles (spec §3 Role: title, state, page config), menus (spec §3 Menu: title,
 * module, icon, controller, action, show, path, alias, sort) and the audit log of administrator actions. The
 * default roles and menus are seeded by the rbac service at start (idempotent), not here.
 */
import type { Db, MigrationContext } from './helpers.ts';
import { BIGINT, createdAt, index, timestamps, withId } from './helpers.ts';

export async function up(db: Db, ctx: MigrationContext): Promise<void> {
  await withId(db.schema.createTable('admin_roles'), ctx)
    .addColumn('role_key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('title', 'varchar(128)', (c) => c.notNull())
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('pages', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(timestamps)
    .execute();

  await withId(db.schema.createTable('admin_menus'), ctx)
    .addColumn('title', 'varchar(128)', (c) => c.notNull())
    .addColumn('module', 'varchar(64)', (c) => c.notNull())
    .addColumn('icon', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('controller', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('action', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('show', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('path', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('alias', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(timestamps)
    .execute();

  await withId(db.schema.createTable('admin_audit'), ctx)
    .addColumn('actor_id', BIGINT, (c) => c.notNull())
    .addColumn('actor_email', 'varchar(254)', (c) => c.notNull())
    .addColumn('actor_roles', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('method', 'varchar(8)', (c) => c.notNull())
    .addColumn('route', 'varchar(255)', (c) => c.notNull())
    .addColumn('module', 'varchar(64)', (c) => c.notNull())
    .addColumn('target_kind', 'varchar(32)')
    .addColumn('target_id', 'varchar(254)')
    .addColumn('code', 'integer', (c) => c.notNull())
    .addColumn('message', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('request', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('ip', 'varchar(64)')
    .$call(createdAt)
    .execute();
  await db.schema.createIndex('admin_audit_created').on('admin_audit').column('created_at').execute();
  await index(db, 'admin_audit_actor', 'admin_audit', ['actor_id', 'created_at']);
  await index(db, 'admin_audit_module', 'admin_audit', ['module', 'created_at']);
}
