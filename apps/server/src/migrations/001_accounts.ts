/** Accounts: users, session tokens, e-mail verification codes, generated secrets. */
import { sql } from 'kysely';
import type { Db, MigrationContext } from './helpers.ts';
import { BIGINT, createdAt, index, timestamps, userRef, withId } from './helpers.ts';

export async function up(db: Db, ctx: MigrationContext): Promise<void> {
  await withId(db.schema.createTable('users'), ctx)
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('roles', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('surplus', BIGINT, (c) => c.notNull().defaultTo(0).check(ctxCheck('surplus')))
    .addColumn('cv_coin', BIGINT, (c) => c.notNull().defaultTo(0).check(ctxCheck('cv_coin')))
    .addColumn('level', 'varchar(16)', (c) => c.notNull().defaultTo('free'))
    .addColumn('vexpired_at', BIGINT)
    .addColumn('phone', 'varchar(32)')
    .addColumn('contact', 'varchar(128)')
    .addColumn('company', 'varchar(128)')
    .addColumn('address', 'varchar(255)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('test_flag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('black_flag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('extension_staff', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('beta', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('invite_code', 'varchar(16)', (c) => c.notNull().unique())
    .addColumn('referred_by', BIGINT)
    .addColumn('referral_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('upload_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('purchased', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('teaching_confirmed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('notices_hidden_at', BIGINT)
    .addColumn('last_login_at', BIGINT)
    .addColumn('last_login_ip', 'varchar(64)')
    .addColumn('password_changed_at', BIGINT, (c) => c.notNull())
    .$call(timestamps)
    .execute();
  await db.schema.createIndex('users_referred_by').on('users').column('referred_by').execute();
  await index(db, 'users_level', 'users', ['level', 'type']);

  await withId(db.schema.createTable('tokens'), ctx)
    .addColumn('user_id', BIGINT, userRef)
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .$call(createdAt)
    .addColumn('expires_at', BIGINT, (c) => c.notNull())
    .addColumn('revoked_at', BIGINT)
    .addColumn('ip', 'varchar(64)')
    .addColumn('user_agent', 'varchar(255)')
    .execute();
  await db.schema.createIndex('tokens_user').on('tokens').column('user_id').execute();

  await withId(db.schema.createTable('verification_codes'), ctx)
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('account_type', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(createdAt)
    .addColumn('expires_at', BIGINT, (c) => c.notNull())
    .addColumn('used_at', BIGINT)
    .addColumn('ip', 'varchar(64)')
    .execute();
  await index(db, 'verification_codes_email', 'verification_codes', ['email', 'type', 'created_at']);
  await index(db, 'verification_codes_ip', 'verification_codes', ['ip', 'created_at']);

  await withId(db.schema.createTable('user_identities'), ctx)
    .addColumn('provider', 'varchar(32)', (c) => c.notNull())
    .addColumn('external_id', 'varchar(191)', (c) => c.notNull())
    .addColumn('user_id', BIGINT, userRef)
    .$call(createdAt)
    .addUniqueConstraint('user_identities_provider_external', ['provider', 'external_id'])
    .execute();

  await db.schema
    .createTable('secrets')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .$call(createdAt)
    .execute();
}

/** Balances can never go negative: the database refuses it even if a service had a bug. */
function ctxCheck(column: string) {
  return sql`${sql.ref(column)} >= 0`;
}
