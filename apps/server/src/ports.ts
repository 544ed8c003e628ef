/**
 * The shared ports: domain types and the interfaces of repositories and infrastructure (object storage, job
 * queue, mail, hashing, rate limits, clock, third-party login). Services import only ports (this file and their
 * slice's `ports.ts`), never Fastify, Kysely, BullMQ, fs or the S3 SDK; `src/infra/` and the slices' `repo.ts`
 * implement them, `src/wiring.ts` plugs them in. The dependency rule (`.dependency-cruiser.cjs`) enforces it.
 */
import type { Readable } from 'node:stream';
import type { BucketCredentials, UploadCredentials } from '@mocap/contracts';

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
  /** The login before the last one (moved here by each login). */
  previousLoginAt: number | null;
  previousLoginIp: string | null;
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

/**
 * What an account update may change: everything but its id and type, its balances (changed through the coin
 * ledger), its invitation, its counts and its row times.
 */
export type UserPatch = Partial<
  Omit<
    UserRecord,
    | 'id'
    | 'type'
    | 'surplus'
    | 'cvCoin'
    | 'inviteCode'
    | 'referredBy'
    | 'referralCount'
    | 'uploadCount'
    | 'createdAt'
    | 'updatedAt'
  >
>;

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  size: number;
}

/** A list query for one page: its filters `F`, the page number and the page size. */
export type PagedQuery<F> = F & { page: number; size: number };

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

/** What a machine's row holds besides its id and times (what registration and the console set). */
export type MachineInput = Omit<Machine, 'id' | 'createdAt' | 'updatedAt'>;

export interface MachineRepo {
  list(): Promise<Machine[]>;
  findById(id: number): Promise<Machine | undefined>;
  findByName(name: string): Promise<Machine | undefined>;
  create(m: Partial<MachineInput> & { name: string }, now: number): Promise<Machine>;
  update(id: number, patch: Partial<MachineInput>, now: number): Promise<void>;
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

/** The received temp files of an upload (the media adapters): content hash, size, removal. */
export interface TempFilePort {
  md5(path: string): Promise<string>;
  size(path: string): Promise<number>;
  remove(path: string): Promise<void>;
}

/** A day in milliseconds (the clock's unit): plan lengths, report days, pack durations. */
export const DAY_MS = 86_400_000;

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

/**
 * Object storage: one interface, two implementations chosen by config — local disk under DATA_DIR
 * (`local.ts`) and S3-compatible (`s3.ts`). Keys are `/`-separated relative paths of safe characters
 * (`[A-Za-z0-9._-]` per segment, no `..`), e.g. `videos/42/source.mp4`.
 *
 * Writes are all-or-nothing: an interrupted or rejected `put` leaves no object behind (local: temp file +
 * rename; S3: single PUT or multipart upload aborted on error).
 */

export interface PutOptions {
  contentType?: string;
  /** Reject (and store nothing) when the body is larger than this many bytes. */
  maxBytes?: number;
}

export interface ObjectInfo {
  size: number;
  contentType?: string;
  modifiedAt?: Date;
}

export interface SignedUrlOptions {
  /** Lifetime of the URL in seconds (default 300). */
  expiresInS?: number;
  /** File name offered to the browser (`Content-Disposition: attachment`). */
  fileName?: string;
  contentType?: string;
}

/**
 * Temporary upload credentials (spec §3 "Cloud credentials" plus the object key and the URL to PUT to) and the
 * temporary S3 credentials (STS) they may carry: the contract's shapes (`@mocap/contracts` storage.ts), which
 * the web app's credential caches keep too.
 */
export type { BucketCredentials, UploadCredentials } from '@mocap/contracts';

export interface UploadGrantOptions {
  key: string;
  /** Owner of the grant (a user id), bound into the session token. */
  owner: string | number;
  maxBytes: number;
  contentType?: string;
  /** Lifetime in seconds (default 1800, the spec's cloud-auth reuse time). */
  expiresInS?: number;
}

export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  /** Stores bytes or a stream under `key` (replacing any object there). Returns the stored size. */
  put(key: string, body: Uint8Array | Readable | string, options?: PutOptions): Promise<ObjectInfo>;
  /** Stores a local file. */
  putFile(key: string, path: string, options?: PutOptions): Promise<ObjectInfo>;
  /**
   * A stream of the object (or of bytes `start..end` inclusive, for HTTP Range requests); throws
   * `StorageNotFoundError` when absent.
   */
  get(key: string, range?: { start: number; end: number }): Promise<Readable>;
  getBytes(key: string): Promise<Buffer>;
  /** Copies the object to a local file (creating folders). */
  download(key: string, path: string): Promise<void>;
  stat(key: string): Promise<ObjectInfo | null>;
  exists(key: string): Promise<boolean>;
  /** Deletes one object; absent keys are fine. */
  delete(key: string): Promise<void>;
  /** Deletes every object whose key starts with `prefix/`. */
  deletePrefix(prefix: string): Promise<number>;
  /** An expiring URL that downloads the object without other credentials. */
  signedUrl(key: string, options?: SignedUrlOptions): Promise<string>;
  /** Temporary credentials to upload one object directly (see `UploadCredentials`). */
  uploadCredentials(options: UploadGrantOptions): Promise<UploadCredentials>;
  /** Checks a session token from `uploadCredentials`; returns its grant or throws `StorageGrantError`. */
  verifyUploadGrant(sessionToken: string): UploadGrant;
  /** Local storage only (its signed URLs point at `/product/files`): the payload of a valid download token. */
  verifyDownloadToken?(token: string): DownloadTokenPayload;
  /**
   * Read-only STS credentials for the objects under `prefix` (GetObject, and ListBucket limited to the prefix),
   * valid `durationS`; null when the store offers no STS (local disk, or S3 without `S3_STS_ENDPOINT`).
   */
  readCredentials?(
    prefix: string,
    durationS: number,
    owner: string | number,
  ): Promise<BucketCredentials | null>;
  close(): Promise<void>;
}

/** What a signed download URL of local storage carries: key, expiry (unix s), file name, content type. */
export interface DownloadTokenPayload {
  k: string;
  exp: number;
  fn?: string;
  ct?: string;
}

/** Purpose-bound, expiring HMAC tokens (the deployment's URL-signing secret). */
export interface SignedTokens {
  sign(purpose: string, payload: Record<string, unknown>): string;
  /** The payload of a valid, unexpired token for this purpose; throws otherwise. */
  verify<T extends { exp: number }>(purpose: string, token: string): T;
}

export interface UploadGrant {
  id: string;
  key: string;
  owner: string;
  maxBytes: number;
  contentType?: string;
  expiresAt: number;
}

export class StorageNotFoundError extends Error {
  override readonly name = 'StorageNotFoundError';
  constructor(readonly key: string) {
    super(`no stored object "${key}"`);
  }
}

export class StorageTooLargeError extends Error {
  override readonly name = 'StorageTooLargeError';
  constructor(
    readonly key: string,
    readonly maxBytes: number,
  ) {
    super(`object "${key}" is larger than ${maxBytes} bytes`);
  }
}

export class StorageGrantError extends Error {
  override readonly name = 'StorageGrantError';
}

const SEGMENT = /^[A-Za-z0-9._-]+$/;

/** Throws unless `key` is a safe relative key (no `..`, no empty or odd segments). */
export function checkKey(key: string): string {
  if (typeof key !== 'string' || key.length === 0 || key.length > 512) throw new Error(`bad storage key`);
  const parts = key.split('/');
  for (const p of parts) {
    if (!SEGMENT.test(p) || p === '.' || p === '..') throw new Error(`bad storage key "${key}"`);
  }
  return key;
}

/**
 * Job queue: one interface, two implementations chosen by config — a database-backed queue (`db.ts`, the
 * embedded default: jobs are rows, so a restart or a killed worker loses nothing; works across processes that
 * share the database) and BullMQ on Redis (`bullmq.ts`, REDIS_URL).
 *
 * Semantics shared by both (the queue test suite runs the same tests against each):
 * - `enqueue` is idempotent per job id; `priority` high > normal > low, FIFO within a priority.
 * - A handler that throws is retried after `backoffMs · 2^(attempt-1)` until `attempts` runs out; then the job
 *   fails for good and the worker's `onFailed` hook runs (once per job, in the worker that saw it).
 * - A worker that dies mid-job (its lock not renewed for `lockMs`) has the job put back and retried by another
 *   worker; a death counts as an attempt.
 * - Progress (0..100) is stored on the job and published to `subscribe` listeners in every process.
 */

export type Priority = 'low' | 'normal' | 'high';
export type JobState = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed';

export interface EnqueueOptions {
  jobId: string;
  priority?: Priority;
  /** Total attempts, first run included (default 3). */
  attempts?: number;
  /** Base retry delay (default 2000 ms), doubled after each failure. */
  backoffMs?: number;
}

export interface JobInfo<T = unknown> {
  id: string;
  data: T;
  state: JobState;
  progress: number;
  /** Attempts started so far. */
  attempts: number;
  maxAttempts: number;
  priority: Priority;
  error?: string;
  result?: unknown;
  createdAt: number;
  finishedAt?: number;
}

export interface JobContext<T = unknown> {
  id: string;
  data: T;
  /** 1 for the first run. */
  attempt: number;
  maxAttempts: number;
  /** Reports progress 0..100 (stored and published). */
  progress(percent: number): Promise<void>;
  /** Aborted when the worker closes or loses the job's lock. */
  signal: AbortSignal;
}

export type JobHandler<T, R = unknown> = (job: JobContext<T>) => Promise<R>;

export interface ProcessOptions<T> {
  /** Jobs run at the same time by this worker (default 1). */
  concurrency?: number;
  /** Name of this worker (default host:pid:random). */
  workerId?: string;
  /** Called once when a job fails for good (after its last attempt, or a stall past the last attempt). */
  onFailed?: (job: JobInfo<T>, error: string) => Promise<void> | void;
}

export interface QueueWorker {
  readonly id: string;
  /** Jobs this worker is running now. */
  running(): number;
  /**
   * Stops taking new jobs at once; running ones go on to their end (an administrator drained or disabled the
   * machine). The promise resolves once the running jobs are done. `resume()` takes jobs again. Idempotent.
   */
  pause(): Promise<void>;
  resume(): void;
  isPaused(): boolean;
  /**
   * Stops taking jobs. Default: waits for running jobs to finish. `{ abandon: true }` stops at once and
   * leaves running jobs locked, as a crashed process would (they are recovered once their lock expires).
   */
  close(options?: { abandon?: boolean }): Promise<void>;
}

export type QueueEvent =
  | { type: 'active'; jobId: string; attempt: number }
  | { type: 'progress'; jobId: string; progress: number }
  | { type: 'completed'; jobId: string }
  | { type: 'retrying'; jobId: string; attempt: number; error: string }
  | { type: 'failed'; jobId: string; error: string };

export interface JobQueue<T = unknown> {
  readonly kind: 'db' | 'bullmq';
  readonly name: string;
  enqueue(data: T, options: EnqueueOptions): Promise<void>;
  process<R>(handler: JobHandler<T, R>, options?: ProcessOptions<T>): QueueWorker;
  getJob(jobId: string): Promise<JobInfo<T> | null>;
  /** Number of jobs that will run before this waiting job (0 = next); null when it is not waiting. */
  position(jobId: string): Promise<number | null>;
  counts(): Promise<Record<JobState, number>>;
  /** Removes a job that is not running. Returns false when absent or active. */
  remove(jobId: string): Promise<boolean>;
  /** Events of every job, from every process. Returns the unsubscribe function. */
  subscribe(listener: (e: QueueEvent) => void): () => void;
  close(): Promise<void>;
}

export const PRIORITY_RANK: Record<Priority, number> = { high: 1, normal: 2, low: 3 };

export function backoffDelay(baseMs: number, attempt: number): number {
  return baseMs * 2 ** Math.max(0, attempt - 1);
}

/**
 * Thrown by a handler for a failure that another attempt cannot fix (an unreadable video, nobody in it): the
 * job fails for good at once instead of being retried.
 */
export class PermanentJobError extends Error {
  override readonly name = 'PermanentJobError';
}

export function isPermanent(err: unknown): boolean {
  return err instanceof PermanentJobError || (err as { permanent?: unknown })?.permanent === true;
}

export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
