/**
 * Accounts: e-mail verification codes, registration (individual and company) with sign-up coins and referral
 * rewards, password reset, the user centre, plans (free / monthly / yearly with expiry), administrator changes,
 * third-party login.
 */

import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { Prices, referralReward } from '@mocap/contracts';
import { AppError, Codes, Messages } from '../../errors.ts';
import {
  ACCOUNT_COMPANY,
  ACCOUNT_INDIVIDUAL,
  type Clock,
  DAY_MS,
  type ExternalIdentity,
  type IdentityBinding,
  type Level,
  type Mailer,
  type OAuthProvider,
  type Page,
  type PasswordHasher,
  type PendingAuthorization,
  type RateLimiter,
  type Repos,
  type Store,
  type UserPatch,
  type UserRecord,
  type UserSearch,
} from '../../ports.ts';
import { sealPending, unsealPending } from '../auth/pending.ts';
import { type AuthService, isAdmin, loginPatch, type RequestMeta, rolesOf } from '../auth/service.ts';
import { type CoinService, monthKey, Reasons } from '../coins/service.ts';

/** Verification code purposes for `POST /code/{email}/{type}`. */
export const CodeTypes = { REGISTER: 1, RESET: 2, CHANGE_EMAIL: 3 } as const;
/** Plan lengths (spec §9). */
export const PLAN_DAYS = { monthly: 30, yearly: 360 } as const;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 64;

export interface AccountOptions {
  codeTtlMs: number;
  codeResendMs: number;
  codeMaxAttempts: number;
  codeIpLimitPerHour: number;
  codeEmailLimitPerDay: number;
  /** Key for the codes' HMAC (a code is never stored in clear). */
  codeSecret: string;
  productName: string;
}

/** The account as the API shows it (no secrets, no internal bookkeeping). */
export type UserView = Omit<
  UserRecord,
  | 'passwordHash'
  | 'referredBy'
  | 'purchased'
  | 'noticesHiddenAt'
  | 'lastLoginIp'
  | 'previousLoginIp'
  | 'passwordChangedAt'
  | 'updatedAt'
> & {
  isPursh: 0 | 1;
};

/** The plan in force: a paid level whose expiry passed counts as free. */
export function effectiveLevel(u: UserRecord, now: number): Level {
  if (u.level === 'free') return 'free';
  return u.vexpiredAt !== null && u.vexpiredAt > now ? u.level : 'free';
}

export function toUserView(u: UserRecord, now: number): UserView {
  return {
    id: u.id,
    email: u.email,
    username: u.username,
    type: u.type,
    roles: rolesOf(u),
    surplus: u.surplus,
    cvCoin: u.cvCoin,
    level: effectiveLevel(u, now),
    vexpiredAt: u.vexpiredAt,
    phone: u.phone,
    contact: u.contact,
    company: u.company,
    address: u.address,
    ip: u.ip,
    enabled: u.enabled,
    testFlag: u.testFlag,
    blackFlag: u.blackFlag,
    extensionStaff: u.extensionStaff,
    beta: u.beta,
    inviteCode: u.inviteCode,
    referralCount: u.referralCount,
    uploadCount: u.uploadCount,
    isPursh: u.purchased ? 1 : 0,
    teachingConfirmed: u.teachingConfirmed,
    emailNotice: u.emailNotice,
    lastLoginAt: u.lastLoginAt,
    previousLoginAt: u.previousLoginAt,
    createdAt: u.createdAt,
  };
}

export interface RegisterInput {
  email: string;
  /** RSA-encrypted. */
  password: string;
  /** RSA-encrypted repetition, checked when given (两个密码不一致...). */
  confirmPassword?: string;
  code: string;
  username?: string;
  inviteCode?: string;
  company?: string;
  contact?: string;
  phone?: string;
}

export interface CenterInput {
  username?: string;
  phone?: string | null;
  contact?: string | null;
  company?: string | null;
  address?: string | null;
  /** New e-mail, with a code of type 3 sent to it. */
  email?: string;
  emailCode?: string;
  /** Both RSA-encrypted. */
  oldPassword?: string;
  password?: string;
}

const normaliseEmail = (e: string): string => e.trim().toLowerCase();

function assertEmail(email: string): void {
  if (!email) throw new AppError(Codes.USERNAME_EMPTY, Messages.USERNAME_REQUIRED);
  if (email.length > 254 || !EMAIL_RE.test(email))
    throw new AppError(Codes.PARAMETER_ERROR, 'invalid e-mail address');
}

function assertPasswordPolicy(pw: string): void {
  if (pw.length < PASSWORD_MIN || pw.length > PASSWORD_MAX)
    throw new AppError(Codes.REFUSED, `password must be ${PASSWORD_MIN}–${PASSWORD_MAX} characters`);
}

export class AccountService {
  constructor(
    private readonly store: Store,
    private readonly auth: AuthService,
    private readonly coins: CoinService,
    private readonly hasher: PasswordHasher,
    private readonly mailer: Mailer,
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
    private readonly opts: AccountOptions,
    private readonly providers: Map<string, OAuthProvider> = new Map(),
  ) {}

  private codeHash(email: string, type: number, accountType: number, code: string): string {
    return createHmac('sha256', this.opts.codeSecret)
      .update(`${email}|${type}|${accountType}|${code}`)
      .digest('hex');
  }

  /** Sends a 4-digit code. Throttled per address (请勿重复发送!) and per IP. */
  async sendCode(
    rawEmail: string,
    type: number,
    accountType: number,
    meta: RequestMeta,
  ): Promise<{ expiresAt: number }> {
    const email = normaliseEmail(rawEmail);
    assertEmail(email);
    if (!Object.values(CodeTypes).includes(type as 1))
      throw new AppError(
        Codes.PARAMETER_ERROR,
        'code type must be 1 (register), 2 (reset) or 3 (change e-mail)',
      );
    const now = this.clock.now();
    // In-process gate first (closes the race between two simultaneous requests), then the database (all processes).
    // The same limits whether or not the address has an account (no enumeration through them).
    const gate = await this.limiter.hit(`code:${email}:${type}`, 1, this.opts.codeResendMs);
    const last = await this.store.repos.codes.latest(email, type, accountType);
    if (!gate.allowed || (last && now - last.createdAt < this.opts.codeResendMs))
      throw new AppError(Codes.REFUSED, Messages.RESEND, {
        retryAfterMs: Math.max(gate.retryAfterMs, last ? last.createdAt + this.opts.codeResendMs - now : 0),
      });
    if (meta.ip) {
      const perIp = await this.store.repos.codes.countSince({ ip: meta.ip, since: now - 3_600_000 });
      if (perIp >= this.opts.codeIpLimitPerHour) throw new AppError(Codes.TOO_MANY_REQUESTS);
    }
    const perDay = await this.store.repos.codes.countSince({ email, since: now - DAY_MS });
    if (perDay >= this.opts.codeEmailLimitPerDay) throw new AppError(Codes.REFUSED, Messages.RESEND);
    // Whether the address has an account is told only to its mailbox (issue 13.6): the answer is the same, the
    // mail says what happened instead of carrying a code that could not be used.
    const existing = await this.store.repos.users.findByEmail(email);
    const noCode =
      type === CodeTypes.REGISTER || type === CodeTypes.CHANGE_EMAIL
        ? existing
          ? 'taken'
          : null
        : !existing || (existing.type === ACCOUNT_COMPANY) !== (accountType === ACCOUNT_COMPANY)
          ? 'none'
          : null;
    if (noCode) {
      // A row without a usable code keeps the resend/IP/day limits identical to the other case.
      await this.store.repos.codes.create({
        email,
        type,
        accountType,
        codeHash: `notice:${randomBytes(16).toString('hex')}`,
        now,
        expiresAt: now,
        ip: meta.ip ?? null,
      });
      await this.mailer.send(this.noCodeMail(email, type, noCode));
      return { expiresAt: now + this.opts.codeTtlMs };
    }
    const code = String(randomInt(0, 10_000)).padStart(4, '0');
    const expiresAt = now + this.opts.codeTtlMs;
    await this.store.repos.codes.create({
      email,
      type,
      accountType,
      codeHash: this.codeHash(email, type, accountType, code),
      now,
      expiresAt,
      ip: meta.ip ?? null,
    });
    const purpose =
      type === CodeTypes.REGISTER
        ? 'registration'
        : type === CodeTypes.RESET
          ? 'password reset'
          : 'e-mail change';
    const minutes = Math.round(this.opts.codeTtlMs / 60_000);
    await this.mailer.send({
      to: email,
      subject: `${this.opts.productName} verification code: ${code}`,
      text: `Your ${purpose} code is ${code}. It is valid for ${minutes} minutes.\n\n您的验证码是 ${code}，${minutes} 分钟内有效。\n\nIf you did not ask for it, ignore this mail.`,
    });
    return { expiresAt };
  }

  /** The mail sent instead of a code when the address cannot use one (it has an account, or has none to reset). */
  private noCodeMail(email: string, type: number, why: 'taken' | 'none') {
    const p = this.opts.productName;
    const text =
      why === 'none'
        ? `Someone asked to reset the ${p} password of this address, but no ${p} account uses it. If it was you, register instead (or use the address you registered with).\n\n有人请求重置此邮箱的 ${p} 密码，但没有 ${p} 账号使用此邮箱。如果是您本人，请注册（或使用注册时的邮箱）。\n\nIf it was not you, ignore this mail.`
        : type === CodeTypes.REGISTER
          ? `Someone asked to register a ${p} account with this address, but it already has one. Log in, or reset your password if you forgot it.\n\n有人请求用此邮箱注册 ${p} 账号，但此邮箱已有账号。请直接登录，忘记密码可重置。\n\nIf it was not you, ignore this mail.`
          : `Someone asked to move a ${p} account to this address, but it already belongs to an account. No change was made.\n\n有人请求把 ${p} 账号的邮箱改为此邮箱，但此邮箱已属于一个账号，未做任何更改。\n\nIf it was not you, ignore this mail.`;
    return { to: email, subject: `${p}: about your request`, text };
  }

  /** Checks and consumes a code (410 验证码错误,请确认 when wrong, expired, used or tried too often). */
  async consumeCode(rawEmail: string, type: number, accountType: number, code: string): Promise<void> {
    const email = normaliseEmail(rawEmail);
    if (!/^\d{4}$/.test(code ?? '')) throw new AppError(Codes.REFUSED, Messages.CODE_FORMAT);
    const rec = await this.store.repos.codes.latest(email, type, accountType);
    const now = this.clock.now();
    if (!rec || rec.usedAt !== null || rec.expiresAt <= now || rec.attempts >= this.opts.codeMaxAttempts)
      throw new AppError(Codes.WRONG_CODE, Messages.WRONG_CODE);
    if (rec.codeHash !== this.codeHash(email, type, accountType, code)) {
      await this.store.repos.codes.addAttempt(rec.id);
      throw new AppError(Codes.WRONG_CODE, Messages.WRONG_CODE);
    }
    if (!(await this.store.repos.codes.markUsed(rec.id, now)))
      throw new AppError(Codes.WRONG_CODE, Messages.WRONG_CODE);
  }

  private async uniqueInviteCode(repos: Repos): Promise<string> {
    for (let i = 0; i < 10; i++) {
      const code = randomBytes(6).toString('base64url').replace(/[-_]/g, 'x').slice(0, 8).toUpperCase();
      if (!(await repos.users.findByInviteCode(code))) return code;
    }
    throw new AppError(Codes.BUSY);
  }

  /**
   * Registers an account after checking the code; individual accounts start with the month's 50 V and, when
   * invited, earn the invitee reward while the inviter earns the reward of their rank. Returns a session.
   */
  async register(
    input: RegisterInput,
    accountType: 1 | 2,
    meta: RequestMeta,
  ): Promise<{ token: string; expiresAt: number; user: UserRecord }> {
    const email = normaliseEmail(input.email ?? '');
    assertEmail(email);
    if (!input.password) throw new AppError(Codes.PASSWORD_EMPTY, Messages.PASSWORD_REQUIRED);
    const password = this.auth.decryptPassword(input.password);
    if (input.confirmPassword !== undefined && this.auth.decryptPassword(input.confirmPassword) !== password)
      throw new AppError(Codes.REFUSED, Messages.PASSWORDS_DIFFER);
    assertPasswordPolicy(password);
    const inviter = input.inviteCode
      ? await this.store.repos.users.findByInviteCode(input.inviteCode.trim())
      : undefined;
    if (input.inviteCode && !inviter) throw new AppError(Codes.REFUSED, 'invitation code not found');
    // The code first: only the mailbox's owner learns that the address already has an account (issue 13.6).
    await this.consumeCode(email, CodeTypes.REGISTER, accountType, input.code);
    if (await this.store.repos.users.findByEmail(email)) throw new AppError(Codes.ACCOUNT_EXISTS);
    // Referral rewards only for a new person (issue 13.9): not the inviter's own address, network or device.
    const referral =
      inviter && accountType === ACCOUNT_INDIVIDUAL
        ? (await this.referralRefusal(inviter, email, meta)) === null
        : false;
    const passwordHash = await this.hasher.hash(password);
    const now = this.clock.now();
    const user = await this.store
      .transaction(async (repos) => {
        const created = await repos.users.create({
          email,
          username: (input.username ?? '').trim() || email.split('@')[0].slice(0, 64),
          passwordHash,
          type: accountType,
          inviteCode: await this.uniqueInviteCode(repos),
          referredBy: referral && inviter ? inviter.id : null,
          ip: meta.ip ?? null,
          company: input.company?.trim() || null,
          contact: input.contact?.trim() || null,
          phone: input.phone?.trim() || null,
          now,
        });
        if (accountType === ACCOUNT_INDIVIDUAL) {
          await this.coins.changeIn(
            repos,
            created.id,
            Prices.freeMonthlyCoins,
            Reasons.SIGNUP,
            `signup:${created.id}`,
          );
          await repos.grants.claim(Reasons.MONTHLY_TOPUP, monthKey(now), created.id, now);
          if (referral && inviter) await this.rewardReferral(repos, inviter.id, created.id);
        }
        return created;
      })
      .catch(async (e) => {
        // Two registrations of one address at once: the unique index decides.
        if (!(e instanceof AppError) && (await this.store.repos.users.findByEmail(email)))
          throw new AppError(Codes.ACCOUNT_EXISTS);
        throw e;
      });
    const session = await this.auth.issueToken(user.id, meta);
    const fresh = (await this.store.repos.users.findById(user.id)) ?? user;
    return { ...session, user: fresh };
  }

  /**
   * Why a registration with `inviter`'s code earns no referral reward, or null when it does (issue 13.9; the rule
   * is stated on the referral page): the invitee's address is the inviter's own (plus-addressing and Gmail dots
   * ignored); it registers from an IP address the inviter registered, logged in or held a session from in the last
   * 30 days (same network or device); or the inviter already referred an account from that IP address. The code
   * itself is verified before this runs (registration needs the mailbox's code), so every reward is for a verified
   * new account, once (ledger refs per invitee).
   */
  private async referralRefusal(
    inviter: UserRecord,
    email: string,
    meta: RequestMeta,
  ): Promise<string | null> {
    if (canonicalMailbox(inviter.email) === canonicalMailbox(email)) return 'the inviter’s own address';
    const ip = meta.ip;
    if (!ip) return null;
    const since = this.clock.now() - 30 * DAY_MS;
    const inviterIps = new Set([
      inviter.ip,
      inviter.lastLoginIp,
      ...(await this.store.repos.tokens.ipsOf(inviter.id, since)),
    ]);
    if (inviterIps.has(ip)) return 'the inviter’s network or device';
    if ((await this.store.repos.users.countInviteesFromIp(inviter.id, ip)) > 0)
      return 'another account of this inviter registered from this network';
    return null;
  }

  /** Referral rewards (spec §9): inviter by rank 10/15/20, invitee 20. Idempotent per invitee. */
  private async rewardReferral(repos: Repos, inviterId: number, inviteeId: number): Promise<void> {
    const rank = await repos.users.incrementReferralCount(inviterId);
    await this.coins.changeIn(
      repos,
      inviterId,
      referralReward(rank),
      Reasons.REFERRAL_INVITER,
      `referral:${inviteeId}:inviter`,
      {
        note: `invitee #${rank} (user ${inviteeId})`,
      },
    );
    await this.coins.changeIn(
      repos,
      inviteeId,
      Prices.referralInvitee,
      Reasons.REFERRAL_INVITEE,
      `referral:${inviteeId}:invitee`,
      {
        note: `invited by user ${inviterId}`,
      },
    );
  }

  /** Password reset with a type-2 code; every session of the account ends. */
  async resetPassword(
    rawEmail: string,
    code: string,
    encryptedPassword: string,
    accountType: 1 | 2,
  ): Promise<void> {
    const email = normaliseEmail(rawEmail);
    assertEmail(email);
    if (!encryptedPassword) throw new AppError(Codes.PASSWORD_EMPTY, Messages.PASSWORD_REQUIRED);
    const password = this.auth.decryptPassword(encryptedPassword);
    assertPasswordPolicy(password);
    const user = await this.store.repos.users.findByEmail(email);
    if (!user || (user.type === ACCOUNT_COMPANY) !== (accountType === ACCOUNT_COMPANY))
      throw new AppError(Codes.WRONG_CODE, Messages.WRONG_CODE);
    await this.consumeCode(email, CodeTypes.RESET, accountType, code);
    const now = this.clock.now();
    await this.store.repos.users.update(
      user.id,
      { passwordHash: await this.hasher.hash(password), passwordChangedAt: now },
      now,
    );
    await this.auth.revokeAll(user.id);
  }

  async findByEmail(email: string): Promise<UserRecord> {
    const u = await this.store.repos.users.findByEmail(normaliseEmail(email));
    if (!u) throw new AppError(Codes.NOT_FOUND, 'no account with this e-mail');
    return u;
  }

  async getUser(id: number): Promise<UserRecord> {
    const u = await this.store.repos.users.findById(id);
    if (!u) throw new AppError(Codes.NOT_FOUND, 'user not found');
    return u;
  }

  /** PUT /user/center: profile fields, e-mail change (with code) and password change (with the old one). */
  async updateCenter(user: UserRecord, input: CenterInput, currentTokenHash: string): Promise<UserRecord> {
    const now = this.clock.now();
    const patch: UserPatch = {};
    if (input.username !== undefined) {
      const name = input.username.trim();
      if (!name || name.length > 64) throw new AppError(Codes.REFUSED, 'user name must be 1–64 characters');
      patch.username = name;
    }
    for (const k of ['phone', 'contact', 'company', 'address'] as const)
      if (input[k] !== undefined) patch[k] = input[k] === null ? null : String(input[k]).trim() || null;
    if (input.email !== undefined && normaliseEmail(input.email) !== user.email) {
      const email = normaliseEmail(input.email);
      assertEmail(email);
      const other = await this.store.repos.users.findByEmail(email);
      if (other && other.id !== user.id) throw new AppError(Codes.EMAIL_TAKEN);
      await this.consumeCode(email, CodeTypes.CHANGE_EMAIL, user.type, input.emailCode ?? '');
      patch.email = email;
    }
    if (input.password !== undefined) {
      if (!input.oldPassword) throw new AppError(Codes.PASSWORD_EMPTY, Messages.PASSWORD_REQUIRED);
      const old = this.auth.decryptPassword(input.oldPassword, 'oldPassword');
      if (!(await this.hasher.verify(user.passwordHash, old))) throw new AppError(Codes.BAD_CREDENTIALS);
      const pw = this.auth.decryptPassword(input.password);
      assertPasswordPolicy(pw);
      patch.passwordHash = await this.hasher.hash(pw);
      patch.passwordChangedAt = now;
    }
    try {
      await this.store.repos.users.update(user.id, patch, now);
    } catch (e) {
      if (patch.email) throw new AppError(Codes.EMAIL_TAKEN);
      throw e;
    }
    if (patch.passwordHash) {
      // Other sessions end; this one stays.
      await this.store.repos.tokens.revokeAllForUser(user.id, now, currentTokenHash);
    }
    return this.getUser(user.id);
  }

  async saveLastLogin(user: UserRecord, meta: RequestMeta): Promise<void> {
    const now = this.clock.now();
    await this.store.repos.users.update(
      user.id,
      { lastLoginAt: now, lastLoginIp: meta.ip ?? null, ip: meta.ip ?? null },
      now,
    );
  }

  async setEmailNotice(user: UserRecord, enabled: boolean): Promise<void> {
    await this.store.repos.users.update(user.id, { emailNotice: enabled }, this.clock.now());
  }

  async setTeachingConfirmed(user: UserRecord, confirmed: boolean): Promise<void> {
    await this.store.repos.users.update(user.id, { teachingConfirmed: confirmed }, this.clock.now());
  }

  /** USER_SKU_ROLE: which paid plan is in force. */
  skuRole(user: UserRecord): { isMonthly: boolean; isYear: boolean } {
    const level = effectiveLevel(user, this.clock.now());
    return { isMonthly: level === 'monthly', isYear: level === 'yearly' };
  }

  view(u: UserRecord): UserView {
    return toUserView(u, this.clock.now());
  }

  // ---------- referral ----------

  invitees(user: UserRecord, page: number, size: number): Promise<Page<UserRecord>> {
    return this.store.repos.users.invitees(user.id, page, size);
  }

  /** Coins earned through referrals (as inviter and as invitee). */
  async referralAward(
    user: UserRecord,
  ): Promise<{ inviterCoins: number; inviteeCoins: number; referralCount: number }> {
    const sum = async (reason: string) => {
      let total = 0;
      for (let page = 1; ; page++) {
        const p = await this.store.repos.ledger.list({ userId: user.id, reason, page, size: 100 });
        total += p.list.reduce((a, e) => a + e.amount, 0);
        if (page * 100 >= p.total) break;
      }
      return total;
    };
    return {
      inviterCoins: await sum(Reasons.REFERRAL_INVITER),
      inviteeCoins: await sum(Reasons.REFERRAL_INVITEE),
      referralCount: user.referralCount,
    };
  }

  /** Mails an invitation with the user's invite code (5 per hour per user). */
  async sendInvitation(user: UserRecord, rawEmail: string, link: string): Promise<void> {
    const email = normaliseEmail(rawEmail);
    assertEmail(email);
    if (email === user.email) throw new AppError(Codes.REFUSED, 'you cannot invite yourself');
    const gate = await this.limiter.hit(`invite:${user.id}`, 5, 3_600_000);
    if (!gate.allowed)
      throw new AppError(Codes.REFUSED, Messages.RESEND, { retryAfterMs: gate.retryAfterMs });
    // Same answer whether the address has an account (issue 13.6); its mailbox hears what happened.
    if (await this.store.repos.users.findByEmail(email)) {
      await this.mailer.send({
        to: email,
        subject: `${user.username} invites you to ${this.opts.productName}`,
        text: `${user.username} invited you to ${this.opts.productName}, but this address already has an account: log in as usual (an invitation code only applies when registering).\n\n${user.username} 邀请您使用 ${this.opts.productName}，但此邮箱已有账号：请直接登录（邀请码仅在注册时有效）。`,
      });
      return;
    }
    await this.mailer.send({
      to: email,
      subject: `${user.username} invites you to ${this.opts.productName}`,
      text: `${user.username} invites you to turn videos into 3D motion capture with ${this.opts.productName}.\n\nRegister with invitation code ${user.inviteCode} and get ${Prices.referralInvitee} extra V coins: ${link}\n\n${user.username} 邀请您使用 ${this.opts.productName}。注册时填写邀请码 ${user.inviteCode}，可额外获得 ${Prices.referralInvitee} V币。`,
    });
  }

  // ---------- administrator ----------

  search(q: UserSearch): Promise<Page<UserRecord>> {
    return this.store.repos.users.search(q);
  }

  count(filter: { since?: number; type?: number }): Promise<number> {
    return this.store.repos.users.count(filter);
  }

  async adminUpdate(id: number, patch: UserPatch): Promise<UserRecord> {
    const u = await this.getUser(id);
    await this.store.repos.users.update(id, patch, this.clock.now());
    if (patch.blackFlag || patch.enabled === false) await this.auth.revokeAll(id);
    return { ...u, ...patch } as UserRecord;
  }

  /** Sets a plan for `days` from now (or from the current expiry when the same plan is still running). */
  async setLevel(id: number, level: Level, days: number): Promise<UserRecord> {
    const u = await this.getUser(id);
    const now = this.clock.now();
    if (level === 'free') return this.adminUpdate(id, { level: 'free', vexpiredAt: null });
    if (!Number.isInteger(days) || days < 1 || days > 3650)
      throw new AppError(Codes.PARAMETER_ERROR, 'days must be 1–3650');
    const from = effectiveLevel(u, now) === level && u.vexpiredAt ? u.vexpiredAt : now;
    await this.store.repos.users.update(id, { level, vexpiredAt: from + days * DAY_MS }, now);
    return this.getUser(id);
  }

  /** Adds days to a running paid plan (a free account gets the monthly plan for that long). */
  async addTime(id: number, days: number): Promise<UserRecord> {
    const u = await this.getUser(id);
    const now = this.clock.now();
    if (!Number.isInteger(days) || days === 0 || Math.abs(days) > 3650)
      throw new AppError(Codes.PARAMETER_ERROR, 'days must be a non-zero integer within ±3650');
    const level = effectiveLevel(u, now);
    const base = level === 'free' ? now : (u.vexpiredAt ?? now);
    await this.store.repos.users.update(
      id,
      { level: level === 'free' ? 'monthly' : level, vexpiredAt: Math.max(now, base + days * DAY_MS) },
      now,
    );
    return this.getUser(id);
  }

  /** Expires paid plans whose time ran out (scheduled). */
  async expirePlans(): Promise<number> {
    return this.store.repos.users.expirePlans(this.clock.now());
  }

  // ---------- administrator account ----------

  /** Creates the administrator on first start; returns the password only when it created the account. */
  async ensureAdmin(
    email: string,
    password?: string,
  ): Promise<{ email: string; password?: string; created: boolean }> {
    const e = normaliseEmail(email);
    const existing = await this.store.repos.users.findByEmail(e);
    if (existing) {
      if (!existing.roles.includes('admin'))
        await this.store.repos.users.update(
          existing.id,
          { roles: [...existing.roles, 'admin'] },
          this.clock.now(),
        );
      return { email: e, created: false };
    }
    const pw = password ?? randomBytes(12).toString('base64url');
    const now = this.clock.now();
    const created = await this.store
      .transaction(async (repos) => {
        const u = await repos.users.create({
          email: e,
          username: 'admin',
          passwordHash: await this.hasher.hash(pw),
          type: ACCOUNT_INDIVIDUAL,
          roles: ['admin'],
          inviteCode: await this.uniqueInviteCode(repos),
          now,
        });
        await repos.grants.claim(Reasons.MONTHLY_TOPUP, monthKey(now), u.id, now);
        return true;
      })
      // Another process starting at the same moment created it first.
      .catch(async (err) => {
        if (await this.store.repos.users.findByEmail(e)) return false;
        throw err;
      });
    return created ? { email: e, password: pw, created: true } : { email: e, created: false };
  }

  // ---------- third-party login ----------

  /** The pending authorization sealed for the browser's cookie (keyed by the code secret). */
  sealPending(p: PendingAuthorization): string {
    return sealPending(this.opts.codeSecret, p);
  }

  /** The browser's sealed pending authorization, or undefined when absent, tampered with or not ours. */
  unsealPending(sealed: string | undefined): PendingAuthorization | undefined {
    return unsealPending(this.opts.codeSecret, sealed);
  }

  providerNames(): string[] {
    return [...this.providers.keys()];
  }

  /** Providers the login page offers as buttons (redirect-based ones; the test provider has no button). */
  loginButtons(): { name: string; label: string }[] {
    return [...this.providers.values()]
      .filter((p) => p.begin)
      .map((p) => ({ name: p.name, label: p.label ?? p.name }));
  }

  /** Starts a redirect-based third-party login: the provider's URL and the pending authorization to keep. */
  async beginThirdParty(providerName: string, redirectUri: string) {
    const p = this.provider(providerName);
    if (!p.begin) throw new AppError(Codes.PARAMETER_ERROR, `login provider ${providerName} has no redirect`);
    return p.begin(redirectUri);
  }

  /** POST /passport/3rd/login: exchanges a provider code, links or creates the account, returns a session. */
  async thirdPartyLogin(
    providerName: string,
    code: string,
    meta: RequestMeta,
    redirectUri?: string,
    auth?: { state?: string; pending?: PendingAuthorization },
  ): Promise<{ token: string; expiresAt: number; user: UserRecord; created: boolean }> {
    const provider = this.providers.get(providerName);
    if (!provider) throw new AppError(Codes.PARAMETER_ERROR, `unknown login provider ${providerName}`);
    const identity: ExternalIdentity = await provider.exchange(code, redirectUri, auth);
    const now = this.clock.now();
    let userId = await this.store.repos.identities.find(identity.provider, identity.externalId);
    let created = false;
    if (userId === undefined) {
      const email = normaliseEmail(identity.email);
      assertEmail(email);
      const existing = await this.store.repos.users.findByEmail(email);
      if (existing) userId = existing.id;
      else {
        const passwordHash = await this.hasher.hash(randomBytes(24).toString('base64url'));
        userId = await this.store.transaction(async (repos) => {
          const u = await repos.users.create({
            email,
            username: (identity.name ?? email.split('@')[0]).slice(0, 64),
            passwordHash,
            type: ACCOUNT_INDIVIDUAL,
            inviteCode: await this.uniqueInviteCode(repos),
            ip: meta.ip ?? null,
            now,
          });
          await this.coins.changeIn(repos, u.id, Prices.freeMonthlyCoins, Reasons.SIGNUP, `signup:${u.id}`);
          await repos.grants.claim(Reasons.MONTHLY_TOPUP, monthKey(now), u.id, now);
          return u.id;
        });
        created = true;
      }
      await this.store.repos.identities.link(identity.provider, identity.externalId, userId, now);
    }
    const user = await this.getUser(userId);
    this.auth.assertActive(user);
    const session = await this.auth.issueToken(user.id, meta);
    await this.store.repos.users.update(user.id, loginPatch(user, now, meta), now);
    return { ...session, user, created };
  }

  // ---------- binding a third-party account (`/user/bind/{provider}/-`) ----------

  private provider(name: string): OAuthProvider {
    const p = this.providers.get(name);
    if (!p) throw new AppError(Codes.PARAMETER_ERROR, `unknown login provider ${name}`);
    return p;
  }

  /** The user's binding with the provider (null when none). */
  async binding(user: UserRecord, providerName: string): Promise<IdentityBinding | null> {
    const all = await this.store.repos.identities.listForUser(user.id);
    return all.find((b) => b.provider === providerName) ?? null;
  }

  /**
   * Binds the third-party account behind a provider authorization code to the logged-in account, so that
   * `/passport/3rd/login` with it logs into this account. Binding it again is a no-op (`created` false). Refused
   * (307) when that third-party account is bound to another account, or when this account is already bound to
   * another account of the same provider (unbind it first).
   */
  async bindIdentity(
    user: UserRecord,
    providerName: string,
    code: string,
    redirectUri?: string,
    auth?: { state?: string; pending?: PendingAuthorization },
  ): Promise<{ binding: IdentityBinding; created: boolean }> {
    const identity: ExternalIdentity = await this.provider(providerName).exchange(code, redirectUri, auth);
    const { identities } = this.store.repos;
    const same = (all: IdentityBinding[]) =>
      all.find((b) => b.provider === identity.provider && b.externalId === identity.externalId);
    const owner = await identities.find(identity.provider, identity.externalId);
    if (owner !== undefined && owner !== user.id) throw new AppError(Codes.REFUSED, BindMessages.TAKEN);
    const mine = await identities.listForUser(user.id);
    const already = same(mine);
    if (already) return { binding: already, created: false };
    if (mine.some((b) => b.provider === identity.provider))
      throw new AppError(Codes.REFUSED, BindMessages.OTHER_BOUND);
    await identities.link(identity.provider, identity.externalId, user.id, this.clock.now());
    // Two accounts binding the same third-party account at once: the unique key lets one in.
    const bound = same(await identities.listForUser(user.id));
    if (!bound) throw new AppError(Codes.REFUSED, BindMessages.TAKEN);
    return { binding: bound, created: true };
  }

  /** Removes the user's binding with the provider; false when there was none. */
  async unbind(user: UserRecord, providerName: string): Promise<boolean> {
    return (await this.store.repos.identities.unlink(user.id, providerName)) > 0;
  }
}

/** One mailbox under its spellings: lower case, `+tag` dropped, dots ignored at Gmail. */
export function canonicalMailbox(email: string): string {
  const [local = '', domain = ''] = email.trim().toLowerCase().split('@');
  let l = local.split('+')[0] ?? '';
  if (domain === 'gmail.com' || domain === 'googlemail.com') l = l.replace(/\./g, '');
  return `${l}@${domain === 'googlemail.com' ? 'gmail.com' : domain}`;
}

/** Messages of `/user/bind` (the spec lists the path only; these are ours). */
export const BindMessages = {
  TAKEN: 'this third-party account is already bound to another account',
  OTHER_BOUND:
    'this account is already bound to another account of this provider: unbind it first (DELETE /user/bind/{provider}/-)',
} as const;

/**
 * Test provider: the "authorization code" is `dev:<email>[:<name>]`, i.e. anyone logs in as anyone. Only when a
 * test turns it on (TEST_LOGIN_PROVIDER with NODE_ENV=test; the config refuses it in any other mode).
 */
export function createDevOAuthProvider(): OAuthProvider {
  return {
    name: 'dev',
    async exchange(code: string) {
      const m = /^dev:([^:\s]+@[^:\s]+)(?::(.{1,64}))?$/.exec(code ?? '');
      if (!m) throw new AppError(Codes.AUTH_FAILED, 'dev provider codes look like dev:<email>[:<name>]');
      return { provider: 'dev', externalId: m[1].toLowerCase(), email: m[1], name: m[2] };
    },
  };
}

export { isAdmin };
