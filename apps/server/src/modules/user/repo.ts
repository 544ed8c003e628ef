/** Repositories of accounts: users, session tokens, verification codes, third-party identities. */
import { type Kysely, type Selectable, sql } from 'kysely';
import { newestFirst, pageOf } from '../../infra/db/paging.ts';
import {
  countWhere,
  deleteWhere,
  incrementById,
  insertRow,
  likePattern,
  rowWhere,
  snakeKeys,
  updateWhere,
} from '../../infra/db/rows.ts';
import type { DB, UsersTable } from '../../infra/db/schema.ts';
import type {
  CodeRecord,
  CodeRepo,
  Currency,
  IdentityBinding,
  IdentityRepo,
  Level,
  NewUser,
  Page,
  Session,
  TokenRepo,
  UserPatch,
  UserRecord,
  UserRepo,
  UserSearch,
} from '../../ports.ts';

const b = (v: boolean) => (v ? 1 : 0);

export function toUser(r: Selectable<UsersTable>): UserRecord {
  return {
    id: Number(r.id),
    email: r.email,
    username: r.username,
    passwordHash: r.password_hash,
    type: r.type,
    roles: r.roles ? r.roles.split(',').filter(Boolean) : [],
    surplus: Number(r.surplus),
    cvCoin: Number(r.cv_coin),
    level: r.level as Level,
    vexpiredAt: r.vexpired_at === null ? null : Number(r.vexpired_at),
    phone: r.phone,
    contact: r.contact,
    company: r.company,
    address: r.address,
    ip: r.ip,
    enabled: r.enabled === 1,
    testFlag: r.test_flag === 1,
    blackFlag: r.black_flag === 1,
    extensionStaff: r.extension_staff === 1,
    beta: r.beta === 1,
    inviteCode: r.invite_code,
    referredBy: r.referred_by === null ? null : Number(r.referred_by),
    referralCount: r.referral_count,
    uploadCount: r.upload_count,
    purchased: r.purchased === 1,
    teachingConfirmed: r.teaching_confirmed === 1,
    emailNotice: r.email_notice === 1,
    noticesHiddenAt: r.notices_hidden_at === null ? null : Number(r.notices_hidden_at),
    lastLoginAt: r.last_login_at === null ? null : Number(r.last_login_at),
    lastLoginIp: r.last_login_ip,
    previousLoginAt: r.previous_login_at === null ? null : Number(r.previous_login_at),
    previousLoginIp: r.previous_login_ip,
    passwordChangedAt: Number(r.password_changed_at),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

const balanceColumn = (c: Currency) => (c === 'V' ? 'surplus' : 'cv_coin') as 'surplus' | 'cv_coin';

export class KyselyUserRepo implements UserRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly kind: 'sqlite' | 'postgres',
  ) {}

  async findById(id: number) {
    const r = await rowWhere(this.db, 'users', { id });
    return r && toUser(r);
  }

  async findByEmail(email: string) {
    const r = await rowWhere(this.db, 'users', { email: email.toLowerCase() });
    return r && toUser(r);
  }

  async findByInviteCode(code: string) {
    const r = await rowWhere(this.db, 'users', { invite_code: code });
    return r && toUser(r);
  }

  async create(u: NewUser) {
    const r = await insertRow(this.db, 'users', {
      email: u.email.toLowerCase(),
      username: u.username,
      password_hash: u.passwordHash,
      type: u.type,
      roles: (u.roles ?? []).join(','),
      invite_code: u.inviteCode,
      referred_by: u.referredBy ?? null,
      ip: u.ip ?? null,
      company: u.company ?? null,
      contact: u.contact ?? null,
      phone: u.phone ?? null,
      vexpired_at: null,
      notices_hidden_at: null,
      last_login_at: null,
      last_login_ip: null,
      address: null,
      password_changed_at: u.now,
      created_at: u.now,
      updated_at: u.now,
    });
    return toUser(r);
  }

  async update(id: number, p: UserPatch, now: number) {
    const v: Record<string, unknown> = { updated_at: now };
    if (p.username !== undefined) v.username = p.username;
    if (p.email !== undefined) v.email = p.email.toLowerCase();
    if (p.passwordHash !== undefined) v.password_hash = p.passwordHash;
    if (p.passwordChangedAt !== undefined) v.password_changed_at = p.passwordChangedAt;
    if (p.roles !== undefined) v.roles = p.roles.join(',');
    if (p.level !== undefined) v.level = p.level;
    if (p.vexpiredAt !== undefined) v.vexpired_at = p.vexpiredAt;
    for (const k of ['phone', 'contact', 'company', 'address', 'ip'] as const)
      if (p[k] !== undefined) v[k] = p[k];
    if (p.enabled !== undefined) v.enabled = b(p.enabled);
    if (p.testFlag !== undefined) v.test_flag = b(p.testFlag);
    if (p.blackFlag !== undefined) v.black_flag = b(p.blackFlag);
    if (p.extensionStaff !== undefined) v.extension_staff = b(p.extensionStaff);
    if (p.beta !== undefined) v.beta = b(p.beta);
    if (p.purchased !== undefined) v.purchased = b(p.purchased);
    if (p.teachingConfirmed !== undefined) v.teaching_confirmed = b(p.teachingConfirmed);
    if (p.emailNotice !== undefined) v.email_notice = b(p.emailNotice);
    if (p.noticesHiddenAt !== undefined) v.notices_hidden_at = p.noticesHiddenAt;
    if (p.lastLoginAt !== undefined) v.last_login_at = p.lastLoginAt;
    if (p.lastLoginIp !== undefined) v.last_login_ip = p.lastLoginIp;
    if (p.previousLoginAt !== undefined) v.previous_login_at = p.previousLoginAt;
    if (p.previousLoginIp !== undefined) v.previous_login_ip = p.previousLoginIp;
    await this.db.updateTable('users').set(v).where('id', '=', id).execute();
  }

  async addToBalance(id: number, currency: Currency, delta: number) {
    const col = balanceColumn(currency);
    const r = await this.db
      .updateTable('users')
      .set({ [col]: sql`${sql.ref(col)} + ${delta}` })
      .where('id', '=', id)
      .where(sql<boolean>`${sql.ref(col)} + ${delta} >= 0`)
      .returning(col)
      .executeTakeFirst();
    return r ? Number((r as Record<string, number>)[col]) : undefined;
  }

  async balanceForUpdate(id: number, currency: Currency) {
    const col = balanceColumn(currency);
    let q = this.db.selectFrom('users').select(col).where('id', '=', id);
    if (this.kind === 'postgres') q = q.forNoKeyUpdate();
    const r = await q.executeTakeFirst();
    return r ? Number((r as Record<string, number>)[col]) : undefined;
  }

  async incrementReferralCount(id: number) {
    return incrementById(this.db, 'users', 'referral_count', id);
  }

  async incrementUploadCount(id: number) {
    await this.db
      .updateTable('users')
      .set({ upload_count: sql`upload_count + 1` })
      .where('id', '=', id)
      .execute();
  }

  async search(q: UserSearch): Promise<Page<UserRecord>> {
    let base = this.db.selectFrom('users');
    if (q.keyword) {
      const like = likePattern(q.keyword.toLowerCase());
      base = base.where((eb) =>
        eb.or([
          eb(sql`lower(email)`, 'like', sql`${like} escape '\\'`),
          eb(sql`lower(username)`, 'like', sql`${like} escape '\\'`),
        ]),
      );
    }
    if (q.type !== undefined) base = base.where('type', '=', q.type);
    if (q.level !== undefined) base = base.where('level', '=', q.level);
    if (q.blackFlag !== undefined) base = base.where('black_flag', '=', b(q.blackFlag));
    return newestFirst(base, q, toUser);
  }

  async freeUsersBelow(below: number, afterId: number, limit: number) {
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'surplus'])
      .where('level', '=', 'free')
      .where('type', '=', 1)
      .where('black_flag', '=', 0)
      .where('enabled', '=', 1)
      .where('surplus', '<', below)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: Number(r.id), surplus: Number(r.surplus) }));
  }

  async count(f: { since?: number; type?: number }) {
    let q = this.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n'));
    if (f.since !== undefined) q = q.where('created_at', '>=', f.since);
    if (f.type !== undefined) q = q.where('type', '=', f.type);
    return Number((await q.executeTakeFirstOrThrow()).n);
  }

  async expirePlans(now: number) {
    const r = await this.db
      .updateTable('users')
      .set({ level: 'free', updated_at: now })
      .where('level', '!=', 'free')
      .where((eb) => eb.or([eb('vexpired_at', 'is', null), eb('vexpired_at', '<=', now)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  async invitees(inviterId: number, page: number, size: number): Promise<Page<UserRecord>> {
    const base = this.db.selectFrom('users').where('referred_by', '=', inviterId);
    return pageOf(base, { page, size }, toUser, [['id', 'asc']]);
  }

  async countInviteesFromIp(inviterId: number, ip: string): Promise<number> {
    return countWhere(this.db, 'users', { referred_by: inviterId, ip });
  }
}

export class KyselyTokenRepo implements TokenRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async create(t: Parameters<TokenRepo['create']>[0]) {
    await insertRow(this.db, 'tokens', {
      user_id: t.userId,
      token_hash: t.tokenHash,
      created_at: t.now,
      expires_at: t.expiresAt,
      revoked_at: null,
      ip: t.ip ?? null,
      user_agent: t.userAgent ? t.userAgent.slice(0, 255) : null,
    });
  }

  async findSession(tokenHash: string): Promise<Session | undefined> {
    const r = await this.db
      .selectFrom('tokens')
      .innerJoin('users', 'users.id', 'tokens.user_id')
      .selectAll('users')
      .select([
        'tokens.id as token_id',
        'tokens.expires_at as token_expires_at',
        'tokens.revoked_at as token_revoked_at',
      ])
      .where('tokens.token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!r) return undefined;
    const { token_id, token_expires_at, token_revoked_at, ...user } = r;
    return {
      tokenId: Number(token_id),
      expiresAt: Number(token_expires_at),
      revokedAt: token_revoked_at === null ? null : Number(token_revoked_at),
      user: toUser(user as Selectable<UsersTable>),
    };
  }

  async revoke(tokenHash: string, now: number) {
    return (
      (await updateWhere(
        this.db,
        'tokens',
        { revoked_at: now },
        { token_hash: tokenHash, revoked_at: null },
      )) > 0
    );
  }

  async revokeAllForUser(userId: number, now: number, exceptHash?: string) {
    let q = this.db
      .updateTable('tokens')
      .set({ revoked_at: now })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (exceptHash) q = q.where('token_hash', '!=', exceptHash);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  async purgeExpired(before: number) {
    const r = await this.db.deleteFrom('tokens').where('expires_at', '<', before).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async ipsOf(userId: number, since: number) {
    const rows = await this.db
      .selectFrom('tokens')
      .select('ip')
      .distinct()
      .where('user_id', '=', userId)
      .where('created_at', '>=', since)
      .where('ip', 'is not', null)
      .execute();
    return rows.map((r) => r.ip as string);
  }
}

export class KyselyCodeRepo implements CodeRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async create(c: Parameters<CodeRepo['create']>[0]) {
    const { now, ...fields } = c;
    const values = { ...snakeKeys(fields), email: c.email.toLowerCase(), created_at: now, used_at: null };
    await insertRow(this.db, 'verification_codes', values);
  }

  async latest(email: string, type: number, accountType: number): Promise<CodeRecord | undefined> {
    const r = await this.db
      .selectFrom('verification_codes')
      .selectAll()
      .where('email', '=', email.toLowerCase())
      .where('type', '=', type)
      .where('account_type', '=', accountType)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return (
      r && {
        id: Number(r.id),
        email: r.email,
        type: r.type,
        accountType: r.account_type,
        codeHash: r.code_hash,
        attempts: r.attempts,
        createdAt: Number(r.created_at),
        expiresAt: Number(r.expires_at),
        usedAt: r.used_at === null ? null : Number(r.used_at),
      }
    );
  }

  async addAttempt(id: number) {
    return incrementById(this.db, 'verification_codes', 'attempts', id);
  }

  async markUsed(id: number, now: number) {
    return (await updateWhere(this.db, 'verification_codes', { used_at: now }, { id, used_at: null })) === 1;
  }

  async countSince(f: { email?: string; ip?: string; since: number }) {
    let q = this.db
      .selectFrom('verification_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('created_at', '>=', f.since);
    if (f.email !== undefined) q = q.where('email', '=', f.email.toLowerCase());
    if (f.ip !== undefined) q = q.where('ip', '=', f.ip);
    return Number((await q.executeTakeFirstOrThrow()).n);
  }
}

export class KyselyIdentityRepo implements IdentityRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async find(provider: string, externalId: string) {
    const r = await rowWhere(this.db, 'user_identities', { provider, external_id: externalId });
    return r ? Number(r.user_id) : undefined;
  }

  async link(provider: string, externalId: string, userId: number, now: number) {
    await this.db
      .insertInto('user_identities')
      .values({ provider, external_id: externalId, user_id: userId, created_at: now })
      .onConflict((oc) => oc.columns(['provider', 'external_id']).doNothing())
      .execute();
  }

  async listForUser(userId: number): Promise<IdentityBinding[]> {
    const rows = await this.db
      .selectFrom('user_identities')
      .select(['provider', 'external_id', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      provider: r.provider,
      externalId: r.external_id,
      createdAt: Number(r.created_at),
    }));
  }

  async unlink(userId: number, provider: string): Promise<number> {
    return deleteWhere(this.db, 'user_identities', { user_id: userId, provider });
  }
}
