/**
 * What services depend on: domain types and the interfaces of repositories and infrastructure. Services import
 * only from here (never Fastify, Kysely, BullMQ, fs or the S3 SDK); `src/infra/` and `src/repos/` implement it.
 */

export type Level = 'free' | 'monthly' | 'yearly';
export const LEVELS: readonly Level[] = ['free', 'monthly', 'yearly'];
export type Currency = 'V' | 'CV';
export const ACCOUNT_INDIVIDUAL = 1;
export const ACCOUNT_COMPANY = 2;

export interface UserRecord {
  id: number;
  email: string;
  username: string;
  passwordHash: string;
  /** 1 individual, 2 company. */
  type: number;
  /** Stored roles (e.g. `admin`); `company` and `user` are implied by `type`. */
  roles: string[];
  surplus: number;
  cvCoin: number;
  level: Level;
  vexpiredAt: number | null;
  phone: string | null;
  contact: string | null;
  company: string | null;
  address: string | null;
  ip: string | null;
  enabled: boolean;
  testFlag: boolean;
  blackFlag: boolean;
  extensionStaff: boolean;
  beta: boolean;
  inviteCode: string;
  referredBy: number | null;
  referralCount: number;
  uploadCount: number;
  purchased: boolean;
  teachingConfirmed: boolean;
  emailNotice: boolean;
  noticesHiddenAt: number | null;
  lastLoginAt: number | null;
  lastLoginIp: string | null;
  passwordChangedAt: number;
  createdAt: number;
  updatedAt: number;
}

export interface NewUser {
  email: string;
  username: string;
  passwordHash: string;
  type: number;
  roles?: string[];
  inviteCode: string;
  referredBy?: number | null;
  ip?: string | null;
  company?: string | null;
  contact?: string | null;
  phone?: string | null;
  now: number;
}

export type UserPatch = Partial<{
  username: string;
  email: string;
  passwordHash: string;
  passwordChangedAt: number;
  roles: string[];
  level: Level;
  vexpiredAt: number | null;
  phone: string | null;
  contact: string | null;
  company: string | null;
  address: string | null;
  ip: string | null;
  enabled: boolean;
  testFlag: boolean;
  blackFlag: boolean;
  extensionStaff: boolean;
  beta: boolean;
  purchased: boolean;
  teachingConfirmed: boolean;
  emailNotice: boolean;
  noticesHiddenAt: number | null;
  lastLoginAt: number | null;
  lastLoginIp: string | null;
}>;

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  size: number;
}

export interface UserSearch {
  keyword?: string;
  type?: number;
  level?: Level;
  blackFlag?: boolean;
  page: number;
  size: number;
}

export interface UserRepo {
  findById(id: number): Promise<UserRecord | undefined>;
  findByEmail(email: string): Promise<UserRecord | undefined>;
  findByInviteCode(code: string): Promise<UserRecord | undefined>;
  create(input: NewUser): Promise<UserRecord>;
  update(id: number, patch: UserPatch, now: number): Promise<void>;
  /**
   * Adds `delta` to the balance unless the result would be negative; returns the new balance, or undefined
   * when refused (or no such user). One statement, so concurrent changes cannot overdraw.
   */
  addToBalance(id: number, currency: Currency, delta: number): Promise<number | undefined>;
  /** Current balance, locked for the rest of the transaction where the database supports it. */
  balanceForUpdate(id: number, currency: Currency): Promise<number | undefined>;
  /** Atomically increments and returns the referral count (the new invitee's rank). */
  incrementReferralCount(id: number): Promise<number>;
  incrementUploadCount(id: number): Promise<void>;
  search(q: UserSearch): Promise<Page<UserRecord>>;
  /** Enabled, not blacklisted free individual accounts with balance below `below`, ascending id, after `afterId`. */
  freeUsersBelow(below: number, afterId: number, limit: number): Promise<{ id: number; surplus: number }[]>;
  count(filter: { since?: number; type?: number }): Promise<number>;
  /** Sets paid plans whose expiry passed back to free; returns how many. */
  expirePlans(now: number): Promise<number>;
  /** Users invited by `inviterId`, oldest first. */
  invitees(inviterId: number, page: number, size: number): Promise<Page<UserRecord>>;
  /** Accounts the inviter referred that registered from `ip`. */
  countInviteesFromIp(inviterId: number, ip: string): Promise<number>;
}

export interface Session {
  tokenId: number;
  expiresAt: number;
  revokedAt: number | null;
  user: UserRecord;
}

export interface TokenRepo {
  create(t: {
    userId: number;
    tokenHash: string;
    now: number;
    expiresAt: number;
    ip?: string | null;
    userAgent?: string | null;
  }): Promise<void>;
  /** The session of a token hash with its user (one query), revoked or not. */
  findSession(tokenHash: string): Promise<Session | undefined>;
  revoke(tokenHash: string, now: number): Promise<boolean>;
  /** Revokes every live token of the user except `exceptHash` (the current session, when given). */
  revokeAllForUser(userId: number, now: number, exceptHash?: string): Promise<number>;
  purgeExpired(before: number): Promise<number>;
  /** Distinct IP addresses the user's sessions were opened from since `since` (referral checks). */
  ipsOf(userId: number, since: number): Promise<string[]>;
}

export interface CodeRecord {
  id: number;
  email: string;
  type: number;
  accountType: number;
  codeHash: string;
  attempts: number;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

export interface CodeRepo {
  create(c: {
    email: string;
    type: number;
    accountType: number;
    codeHash: string;
    now: number;
    expiresAt: number;
    ip: string | null;
  }): Promise<void>;
  latest(email: string, type: number, accountType: number): Promise<CodeRecord | undefined>;
  /** Counts an attempt; returns the new count. */
  addAttempt(id: number): Promise<number>;
  /** Marks used unless already used; false when someone else used it first. */
  markUsed(id: number, now: number): Promise<boolean>;
  countSince(filter: { email?: string; ip?: string; since: number }): Promise<number>;
}

export interface LedgerEntry {
  id: number;
  userId: number;
  currency: Currency;
  amount: number;
  balanceAfter: number;
  reason: string;
  ref: string;
  note: string | null;
  createdAt: number;
}

export interface LedgerQuery {
  userId: number;
  currency?: Currency;
  reason?: string;
  from?: number;
  to?: number;
  page: number;
  size: number;
}

export interface LedgerRepo {
  /** Inserts the row unless its ref exists; returns the new id, or undefined when the ref was taken. */
  claim(e: Omit<LedgerEntry, 'id'>): Promise<number | undefined>;
  setBalanceAfter(id: number, balanceAfter: number): Promise<void>;
  findByRef(ref: string): Promise<LedgerEntry | undefined>;
  list(q: LedgerQuery): Promise<Page<LedgerEntry>>;
  sum(userId: number, currency: Currency): Promise<number>;
}

export interface GrantRepo {
  /** Records that `kind` for `period` was handled for the user; false if it already was. */
  claim(kind: string, period: string, userId: number, now: number): Promise<boolean>;
}

export interface ScheduledRunRepo {
  /** Starts a run unless one exists for the period; false if it does. */
  start(name: string, period: string, now: number): Promise<boolean>;
  finish(name: string, period: string, now: number, result: string): Promise<void>;
  get(
    name: string,
    period: string,
  ): Promise<{ startedAt: number; finishedAt: number | null; result: string | null } | undefined>;
}

export interface IdentityRepo {
  find(provider: string, externalId: string): Promise<number | undefined>;
  link(provider: string, externalId: string, userId: number, now: number): Promise<void>;
  /** Third-party accounts bound to the user, oldest first. */
  listForUser(userId: number): Promise<IdentityBinding[]>;
  /** Removes the user's bindings with the provider; returns how many. */
  unlink(userId: number, provider: string): Promise<number>;
}

export interface IdentityBinding {
  provider: string;
  externalId: string;
  createdAt: number;
}

export type CategoryKind = 'category' | 'tag';

export interface Category {
  id: number;
  parentId: number | null;
  kind: CategoryKind;
  name: string;
  sort: number;
  createdAt: number;
  updatedAt: number;
}

export interface CategoryRepo {
  list(kind: CategoryKind): Promise<Category[]>;
  findById(id: number): Promise<Category | undefined>;
  children(id: number): Promise<Category[]>;
  create(c: {
    parentId: number | null;
    kind: CategoryKind;
    name: string;
    sort: number;
    now: number;
  }): Promise<Category>;
  update(
    id: number,
    patch: Partial<Pick<Category, 'parentId' | 'name' | 'sort'>>,
    now: number,
  ): Promise<void>;
  delete(id: number): Promise<void>;
  findByName(kind: CategoryKind, name: string, parentId: number | null): Promise<Category | undefined>;
}

export interface Notice {
  id: number;
  page: number;
  jumpTo: string;
  button: string;
  url: string;
  type: number;
  title: string;
  content: string;
  enabled: boolean;
  createdAt: number;
  updatedAt: number;
}

export type NoticeInput = Omit<Notice, 'id' | 'createdAt' | 'updatedAt'>;

export interface NoticeRepo {
  list(opts: { enabledOnly: boolean; updatedAfter?: number }): Promise<Notice[]>;
  findById(id: number): Promise<Notice | undefined>;
  create(n: NoticeInput, now: number): Promise<Notice>;
  update(id: number, patch: Partial<NoticeInput>, now: number): Promise<void>;
  delete(id: number): Promise<boolean>;
}

export interface SysConfigRepo {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, now: number): Promise<void>;
}

export interface Machine {
  id: number;
  name: string;
  host: string;
  kind: string;
  status: string;
  capacity: number;
  running: number;
  version: string;
  enabled: boolean;
  remark: string;
  meta: Record<string, unknown>;
  lastHeartbeatAt: number | null;
  startedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface MachineRepo {
  list(): Promise<Machine[]>;
  findById(id: number): Promise<Machine | undefined>;
  findByName(name: string): Promise<Machine | undefined>;
  create(
    m: Partial<Omit<Machine, 'id' | 'createdAt' | 'updatedAt'>> & { name: string },
    now: number,
  ): Promise<Machine>;
  update(
    id: number,
    patch: Partial<Omit<Machine, 'id' | 'createdAt' | 'updatedAt'>>,
    now: number,
  ): Promise<void>;
  delete(id: number): Promise<boolean>;
}

export interface SecretRepo {
  /** The stored value of `key`, created from `make()` on first use (first writer wins across processes). */
  getOrCreate(key: string, make: () => string, now: number): Promise<string>;
}

/** Every repository, bound to one connection or one transaction. S2 adds its repositories here. */
export interface Repos {
  users: UserRepo;
  tokens: TokenRepo;
  codes: CodeRepo;
  ledger: LedgerRepo;
  grants: GrantRepo;
  runs: ScheduledRunRepo;
  identities: IdentityRepo;
  categories: CategoryRepo;
  notices: NoticeRepo;
  sysConfig: SysConfigRepo;
  machines: MachineRepo;
  secrets: SecretRepo;
}

/** Repositories plus transactions: `transaction(fn)` runs fn with repositories bound to one transaction. */
export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  readonly repos: Repos;
  transaction<T>(fn: (repos: Repos) => Promise<T>): Promise<T>;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(msg: MailMessage): Promise<void>;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

/** The RSA key pair the client encrypts passwords against (RSA-OAEP, SHA-256, base64 ciphertext). */
export interface PasswordTransport {
  readonly publicKeyPem: string;
  readonly algorithm: string;
  /** Decrypts a base64 ciphertext; throws on anything that is not one. */
  decrypt(ciphertextB64: string): string;
}

export interface RateLimiter {
  /** Counts a hit on `key`; `allowed` is false once more than `limit` hits fell in the last `windowMs`. */
  hit(key: string, limit: number, windowMs: number): Promise<{ allowed: boolean; retryAfterMs: number }>;
  reset(key: string): Promise<void>;
}

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Identity from a third-party login (the `/passport/3rd/login` interface). */
export interface ExternalIdentity {
  provider: string;
  externalId: string;
  email: string;
  name?: string;
}

/** A third-party authorization begun in a browser: kept sealed in that browser until the provider sends it back. */
export interface PendingAuthorization {
  provider: string;
  state: string;
  nonce: string;
  /** PKCE code verifier (S256). */
  verifier: string;
  redirectUri: string;
  expiresAt: number;
}

export interface OAuthProvider {
  readonly name: string;
  /** Text of the login page's button. */
  readonly label?: string;
  /** Redirect-based providers: the authorization URL to send the browser to and what to keep until it returns. */
  begin?(redirectUri: string): Promise<{ url: string; pending: PendingAuthorization }>;
  /** Exchanges the client's authorization code for the identity; throws AppError when refused. */
  exchange(
    code: string,
    redirectUri?: string,
    auth?: { state?: string; pending?: PendingAuthorization },
  ): Promise<ExternalIdentity>;
}
