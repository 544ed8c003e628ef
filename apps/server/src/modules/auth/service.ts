/**
 * Sessions: login with an RSA-encrypted password, opaque bearer tokens (only their SHA-256 is stored, so a
 * database leak yields no usable token), revocation on logout, refusal of blacklisted and disabled accounts.
 */
import { createHash, randomBytes } from 'node:crypto';
import { AppError, Codes, Messages } from '../../errors.ts';
import {
  ACCOUNT_COMPANY,
  type Clock,
  type PasswordHasher,
  type PasswordTransport,
  type RateLimiter,
  type Store,
  type UserRecord,
} from '../../ports.ts';

export const ROLE_ADMIN = 'admin';
export const ROLE_COMPANY = 'company';
export const ROLE_USER = 'user';

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
export const newToken = (): string => randomBytes(32).toString('base64url');

/** Roles of a user as the session reports them: company accounts always carry `company` (spec §3). */
export function rolesOf(u: UserRecord): string[] {
  const base = u.type === ACCOUNT_COMPANY ? [ROLE_COMPANY] : [ROLE_USER];
  return [...new Set([...base, ...u.roles])];
}

export const isAdmin = (u: UserRecord): boolean => u.roles.includes(ROLE_ADMIN);

/**
 * What a login writes on the account: this login as the last one, and the last one moved to `previousLogin*` (what
 * the user is shown as "last login"). POST /user/saveLastLogin refreshes the last login only.
 */
export const loginPatch = (u: UserRecord, now: number, meta: { ip?: string | null }) => ({
  lastLoginAt: now,
  lastLoginIp: meta.ip ?? null,
  previousLoginAt: u.lastLoginAt,
  previousLoginIp: u.lastLoginIp,
});

export interface RequestMeta {
  ip?: string | null;
  userAgent?: string | null;
}

export interface AuthOptions {
  tokenTtlMs: number;
  loginLimit: number;
  loginWindowMs: number;
}

export interface AuthContext {
  user: UserRecord;
  tokenHash: string;
  /** Set when a company API key (not a session) authenticated the request (issue 20). */
  apiKeyId?: number;
}

/** A hash of a random password, verified when the account does not exist so timing does not tell. */
let dummyHash: Promise<string> | undefined;

export class AuthService {
  constructor(
    private readonly store: Store,
    private readonly hasher: PasswordHasher,
    private readonly transport: PasswordTransport,
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
    private readonly opts: AuthOptions,
  ) {}

  publicKey(): { publicKey: string; algorithm: string } {
    return { publicKey: this.transport.publicKeyPem, algorithm: this.transport.algorithm };
  }

  /** Decrypts a password the client encrypted against `publicKey()`. */
  decryptPassword(ciphertext: string, field = 'password'): string {
    try {
      const pw = this.transport.decrypt(ciphertext);
      if (pw.length === 0) throw new Error('empty');
      return pw;
    } catch {
      throw new AppError(
        Codes.AUTH_FAILED,
        `${field} could not be decrypted: encrypt it with RSA-OAEP (SHA-256) against GET /auth/publicKey`,
      );
    }
  }

  /** Login of an individual (`accountType` 1) or company (2) account. */
  async login(
    input: { username?: string; password?: string },
    accountType: 1 | 2,
    meta: RequestMeta,
  ): Promise<{ token: string; expiresAt: number; user: UserRecord }> {
    const email = (input.username ?? '').trim().toLowerCase();
    if (!email) throw new AppError(Codes.USERNAME_EMPTY, Messages.USERNAME_REQUIRED);
    if (!input.password) throw new AppError(Codes.PASSWORD_EMPTY, Messages.PASSWORD_REQUIRED);
    // Per account and address, and per address over all accounts (credential stuffing).
    const perAccount = await this.limiter.hit(
      `login:${meta.ip ?? '-'}:${email}`,
      this.opts.loginLimit,
      this.opts.loginWindowMs,
    );
    const perIp = await this.limiter.hit(
      `login-ip:${meta.ip ?? '-'}`,
      this.opts.loginLimit * 10,
      this.opts.loginWindowMs,
    );
    const gate = perAccount.allowed ? perIp : perAccount;
    if (!gate.allowed)
      throw new AppError(
        Codes.TOO_MANY_REQUESTS,
        `too many login attempts, retry in ${Math.ceil(gate.retryAfterMs / 60_000)} min`,
        { retryAfterMs: gate.retryAfterMs },
      );
    const password = this.decryptPassword(input.password);
    const user = await this.store.repos.users.findByEmail(email);
    if (!user || (user.type === ACCOUNT_COMPANY) !== (accountType === ACCOUNT_COMPANY)) {
      dummyHash ??= this.hasher.hash(newToken());
      await this.hasher.verify(await dummyHash, password);
      throw new AppError(Codes.BAD_CREDENTIALS);
    }
    if (!(await this.hasher.verify(user.passwordHash, password))) throw new AppError(Codes.BAD_CREDENTIALS);
    this.assertActive(user);
    await this.limiter.reset(`login:${meta.ip ?? '-'}:${email}`);
    const now = this.clock.now();
    const { token, expiresAt } = await this.issueToken(user.id, meta);
    await this.store.repos.users.update(user.id, loginPatch(user, now, meta), now);
    return { token, expiresAt, user };
  }

  /** Creates a session token for the user (login, registration, third-party login). */
  async issueToken(userId: number, meta: RequestMeta): Promise<{ token: string; expiresAt: number }> {
    const now = this.clock.now();
    const token = newToken();
    const expiresAt = now + this.opts.tokenTtlMs;
    await this.store.repos.tokens.create({
      userId,
      tokenHash: hashToken(token),
      now,
      expiresAt,
      ip: meta.ip ?? null,
      userAgent: meta.userAgent ?? null,
    });
    return { token, expiresAt };
  }

  /** Throws 408 for blacklisted or disabled accounts (spec §8). */
  assertActive(user: UserRecord): void {
    if (user.blackFlag || !user.enabled) throw new AppError(Codes.ACCOUNT_DISABLED);
  }

  /**
   * The user behind a bearer token. 401 without a token or for an unknown one, 421 (login timeout) for an
   * expired or revoked one, 408 for a disabled account.
   */
  async authenticate(token: string | undefined): Promise<AuthContext> {
    if (!token) throw new AppError(Codes.UNAUTHENTICATED);
    const tokenHash = hashToken(token);
    const session = await this.store.repos.tokens.findSession(tokenHash);
    if (!session) throw new AppError(Codes.UNAUTHENTICATED, 'invalid token, log in again');
    // A blacklisted account hears why (408) even though blacklisting also revoked its tokens.
    this.assertActive(session.user);
    if (session.revokedAt !== null || session.expiresAt <= this.clock.now())
      throw new AppError(Codes.LOGIN_TIMEOUT, 'login timeout, log in again');
    return { user: session.user, tokenHash };
  }

  async logout(tokenHash: string): Promise<void> {
    await this.store.repos.tokens.revoke(tokenHash, this.clock.now());
  }

  /** Ends every session of the user (password reset, blacklisting). */
  async revokeAll(userId: number): Promise<number> {
    return this.store.repos.tokens.revokeAllForUser(userId, this.clock.now());
  }
}
