/**
 * The company side (issue 20): which e-mails a company gets, its API keys and its webhooks.
 *
 * - E-mail notices: job made, job failed, low CV balance (below the company's threshold; once until the balance is
 *   back above it). `PUT /company/emailNotice` chooses them; they go through the mailer (outbox by default, SMTP
 *   when configured).
 * - API keys: `mck_` + 32 random bytes (base64url), shown once; only the SHA-256 is stored. A key authenticates as
 *   its company on the operations of the public API only (the allow-list in public-api.ts), never on
 *   administrator routes nor anywhere else; each key has its own rate limit (per minute) and its last-used time.
 * - Webhooks: `video.made`, `video.failed`, `balance.low`. A delivery is a row (the delivery log) posted with
 *   `Mocap-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`; a failed post is retried with
 *   exponential backoff (30 s, 1 min, 2 min … capped at 1 h) for 24 h, then given up. Receivers check the
 *   timestamp (replay window) and the delivery id (`Mocap-Delivery`) with `verifyWebhookSignature`.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError, Codes } from '../../errors.ts';
import type { Clock, Mailer, RateLimiter, UserRecord } from '../../ports.ts';
import type {
  ApiKeyRecord,
  CompanyRepo,
  DeliveryRecord,
  NoticePrefs,
  WebhookEvent,
  WebhookPoster,
  WebhookRecord,
} from './ports.ts';
import { keyMayCall, PUBLIC_OPERATION_NAMES } from './public-api.ts';
import { checkWebhookUrl, type WebhookTargets } from './webhook-url.ts';

export const API_KEY_PREFIX = 'mck_';
/** Deliveries are retried for this long after the event. */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 3_600_000;
/** Receivers should refuse signatures older than this (seconds). */
export const WEBHOOK_TOLERANCE_S = 300;
export const MAX_KEYS = 20;
export const MAX_WEBHOOKS = 10;

export const DEFAULT_PREFS: NoticePrefs = {
  made: true,
  failed: true,
  lowBalance: true,
  lowBalanceThreshold: 100,
  lowBalanceSentAt: null,
};

/** What a finished job tells the company. */
export interface VideoEvent {
  videoId: number;
  userId: number;
  title: string;
  status: 'made' | 'failed';
  error: string | null;
  /** Seconds. */
  duration: number;
}

export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export function signWebhook(secret: string, body: string, t: number): string {
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

/**
 * For receivers: true when `header` signs `body` with `secret` and its timestamp is within `toleranceS` of
 * `nowS` (a body replayed later fails; a delivery id seen before is the receiver's to refuse).
 */
export function verifyWebhookSignature(
  secret: string,
  header: string | undefined,
  body: string,
  nowS: number,
  toleranceS = WEBHOOK_TOLERANCE_S,
): boolean {
  if (!header) return false;
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header.trim());
  if (!m) return false;
  const t = Number(m[1]);
  if (Math.abs(nowS - t) > toleranceS) return false;
  const want = Buffer.from(signWebhook(secret, body, t).slice(-64), 'hex');
  return timingSafeEqual(want, Buffer.from(m[2], 'hex'));
}

export const backoffMs = (attempts: number): number =>
  Math.min(3_600_000, 30_000 * 2 ** Math.max(0, attempts - 1));

export interface CompanyDeps {
  repo: CompanyRepo;
  clock: Clock;
  mailer: Mailer;
  limiter: RateLimiter;
  getUser(id: number): Promise<UserRecord | undefined>;
  /** CV balance. */
  balance(userId: number): Promise<number>;
  post: WebhookPoster;
  /**
   * Where webhooks may point (webhook-url.ts): `public` (https, public hosts only; the default, and production's)
   * or `any` (development and tests: http and this machine too).
   */
  webhookTargets?: WebhookTargets;
  productName?: string;
  /** Public base of the web app, for links in e-mails. */
  publicUrl?: string;
}

export class CompanyService {
  constructor(private readonly deps: CompanyDeps) {}

  private get now(): number {
    return this.deps.clock.now();
  }

  // ---- e-mail notices ----
  async prefs(userId: number): Promise<NoticePrefs> {
    return (await this.deps.repo.prefs(userId)) ?? { ...DEFAULT_PREFS };
  }

  async setPrefs(
    user: UserRecord,
    p: Partial<Pick<NoticePrefs, 'made' | 'failed' | 'lowBalance' | 'lowBalanceThreshold'>>,
  ): Promise<NoticePrefs> {
    const next = { ...(await this.prefs(user.id)), ...p };
    await this.deps.repo.savePrefs(user.id, next, this.now);
    return next;
  }

  // ---- API keys ----
  /**
   * A new key. `routes`: the public-API operations it may call (`GET /product/…`, from `PUBLIC_OPERATION_NAMES`);
   * null or absent: all of them.
   */
  async createKey(
    user: UserRecord,
    name: string,
    ratePerMinute = 120,
    routes: string[] | null = null,
  ): Promise<{ key: string; record: ApiKeyRecord }> {
    if (routes !== null) {
      const unknown = routes.filter((r) => !PUBLIC_OPERATION_NAMES.includes(r));
      if (unknown.length > 0)
        throw new AppError(
          Codes.PARAMETER_ERROR,
          `not an operation of the public API: ${unknown.join(', ')} (GET /product/company/openapi.json lists them)`,
        );
      if (routes.length === 0)
        throw new AppError(Codes.PARAMETER_ERROR, 'routes: name at least one operation');
      routes = PUBLIC_OPERATION_NAMES.filter((r) => routes!.includes(r));
    }
    if ((await this.deps.repo.countActiveKeys(user.id)) >= MAX_KEYS)
      throw new AppError(Codes.REFUSED, `at most ${MAX_KEYS} active API keys; revoke one first`);
    const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
    const record = await this.deps.repo.createKey({
      userId: user.id,
      name,
      prefix: key.slice(0, 12),
      ratePerMinute,
      routes,
      createdAt: this.now,
      keyHash: hashApiKey(key),
    });
    return { key, record };
  }

  listKeys(user: UserRecord): Promise<ApiKeyRecord[]> {
    return this.deps.repo.listKeys(user.id);
  }

  async revokeKey(user: UserRecord, id: number): Promise<void> {
    if (!(await this.deps.repo.revokeKey(user.id, id, this.now)))
      throw new AppError(Codes.NOT_FOUND, 'no such API key (or already revoked)');
  }

  static isApiKey(token: string | undefined): token is string {
    return typeof token === 'string' && token.startsWith(API_KEY_PREFIX);
  }

  /**
   * The company a key belongs to: 401 for an unknown or revoked key, 406 on a route outside the public API (the
   * allow-list `PUBLIC_API_OPERATIONS`: never an administrator route) or outside the key's own `routes`, 1047 past
   * the key's rate limit.
   */
  async authenticateKey(
    token: string,
    route: { method: string; url: string },
  ): Promise<{ user: UserRecord; key: ApiKeyRecord }> {
    const key = await this.deps.repo.findKeyByHash(hashApiKey(token));
    if (!key || key.revokedAt !== null)
      throw new AppError(Codes.UNAUTHENTICATED, 'invalid or revoked API key');
    const user = await this.deps.getUser(key.userId);
    if (user?.type !== 2) throw new AppError(Codes.UNAUTHENTICATED, 'invalid or revoked API key');
    if (!user.enabled || user.blackFlag) throw new AppError(Codes.ACCOUNT_DISABLED);
    if (!keyMayCall(route.method, route.url))
      throw new AppError(
        Codes.INSUFFICIENT_PERMISSION,
        'an API key works on the public API only (GET /product/company/openapi.json lists it): log in for this',
      );
    if (!keyMayCall(route.method, route.url, key.routes))
      throw new AppError(
        Codes.INSUFFICIENT_PERMISSION,
        'this API key is not allowed on this route (its route list)',
      );
    const hit = await this.deps.limiter.hit(`apikey:${key.id}`, key.ratePerMinute, 60_000);
    if (!hit.allowed)
      throw new AppError(
        Codes.TOO_MANY_REQUESTS,
        `rate limit of this API key (${key.ratePerMinute}/min): retry in ${Math.ceil(hit.retryAfterMs / 1000)} s`,
      );
    // last-used time at most once a minute per key (no write per request)
    if (key.lastUsedAt === null || this.now - key.lastUsedAt > 60_000)
      await this.deps.repo.touchKey(key.id, this.now);
    return { user, key };
  }

  // ---- for the administrator console (manageCompany) ----
  /**
   * A company's public-API side at a glance (for ADMIN's company detail): notice choices, active API keys,
   * webhooks, deliveries still retrying and given up, and the CV balance.
   */
  async overview(userId: number) {
    const [prefs, counts, balance] = await Promise.all([
      this.prefs(userId),
      this.deps.repo.counts(userId),
      this.deps.balance(userId),
    ]);
    return {
      notices: {
        made: prefs.made,
        failed: prefs.failed,
        lowBalance: prefs.lowBalance,
        lowBalanceThreshold: prefs.lowBalanceThreshold,
      },
      activeKeys: counts.activeKeys,
      webhooks: counts.webhooks,
      deliveriesPending: counts.pending,
      deliveriesFailed: counts.failed,
      cvCoin: balance,
    };
  }

  // ---- Idempotency-Key ----
  /** Checks an Idempotency-Key header value: 1-128 visible ASCII characters. */
  static idempotencyKey(v: unknown): string | undefined {
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || !/^[\x21-\x7e]{1,128}$/.test(v))
      throw new AppError(Codes.PARAMETER_ERROR, 'Idempotency-Key must be 1-128 visible ASCII characters');
    return v;
  }

  /** The stored answer of a finished call with this key (a retry), or undefined when the call should run. */
  async replay<T>(userId: number, scope: string, key: string): Promise<T | undefined> {
    const c = await this.deps.repo.findIdempotency(userId, scope, key);
    if (!c) return undefined;
    if (c.state === 'done' && c.response !== null) return JSON.parse(c.response) as T;
    throw new AppError(Codes.REFUSED, 'a request with this Idempotency-Key is still running; retry later');
  }

  /**
   * Runs `fn` once per (user, scope, key): a retry after success gets the first answer (nothing charged twice), a
   * retry while the first still runs is refused, and a failed call releases the key so it can be retried.
   */
  async once<T>(userId: number, scope: string, key: string | undefined, fn: () => Promise<T>): Promise<T> {
    if (key === undefined) return fn();
    const c = await this.deps.repo.claimIdempotency(userId, scope, key, this.now);
    if (!c.claimed) {
      if (c.state === 'done' && c.response !== null) return JSON.parse(c.response) as T;
      throw new AppError(Codes.REFUSED, 'a request with this Idempotency-Key is still running; retry later');
    }
    let result: T;
    try {
      result = await fn();
    } catch (e) {
      await this.deps.repo.finishIdempotency(userId, scope, key, null);
      throw e;
    }
    await this.deps.repo.finishIdempotency(userId, scope, key, JSON.stringify(result));
    return result;
  }

  // ---- webhooks ----
  async createWebhook(user: UserRecord, url: string, events: WebhookEvent[]): Promise<WebhookRecord> {
    const u = checkWebhookUrl(url, this.deps.webhookTargets ?? 'public');
    if ((await this.deps.repo.listWebhooks(user.id)).length >= MAX_WEBHOOKS)
      throw new AppError(Codes.REFUSED, `at most ${MAX_WEBHOOKS} webhooks`);
    return this.deps.repo.createWebhook({
      userId: user.id,
      url: u.toString(),
      secret: `whsec_${randomBytes(24).toString('base64url')}`,
      events: [...new Set(events)],
      createdAt: this.now,
    });
  }

  listWebhooks(user: UserRecord): Promise<WebhookRecord[]> {
    return this.deps.repo.listWebhooks(user.id);
  }

  async deleteWebhook(user: UserRecord, id: number): Promise<void> {
    if (!(await this.deps.repo.deleteWebhook(user.id, id, this.now)))
      throw new AppError(Codes.NOT_FOUND, 'no such webhook');
  }

  deliveries(user: UserRecord, page: number, size: number) {
    return this.deps.repo.listDeliveries(user.id, page, size);
  }

  /** Sends a delivery again now (a new attempt; the log keeps counting). */
  async redeliver(user: UserRecord, id: number): Promise<DeliveryRecord> {
    const d = await this.deps.repo.findDelivery(id);
    if (!d || d.userId !== user.id) throw new AppError(Codes.NOT_FOUND, 'no such delivery');
    await this.attempt(d, true);
    return (await this.deps.repo.findDelivery(id))!;
  }

  /** Queues an event to every webhook of the company that wants it, and tries each once now. */
  async emit(userId: number, event: WebhookEvent, eventKey: string, data: unknown): Promise<number> {
    const hooks = (await this.deps.repo.listWebhooks(userId)).filter((w) => w.events.includes(event));
    let queued = 0;
    for (const w of hooks) {
      const createdAt = this.now;
      const d = await this.deps.repo.insertDelivery({
        webhookId: w.id,
        userId,
        event,
        eventKey,
        body: '',
        state: 'pending',
        attempts: 0,
        nextAt: createdAt,
        responseCode: null,
        error: null,
        createdAt,
        deliveredAt: null,
      });
      if (!d) continue; // this event was already queued for this webhook
      queued++;
      await this.attempt(d, false, data);
    }
    return queued;
  }

  /** Posts every delivery whose retry time has come. Returns how many were attempted. */
  async deliverDue(limit = 50): Promise<number> {
    const due = await this.deps.repo.dueDeliveries(this.now, limit);
    for (const d of due) await this.attempt(d, false);
    return due.length;
  }

  private async attempt(d: DeliveryRecord, manual: boolean, data?: unknown): Promise<void> {
    const w = await this.deps.repo.findWebhook(d.webhookId);
    let body = d.body;
    if (!body) {
      body = JSON.stringify({ id: `evt_${d.id}`, type: d.event, createdAt: d.createdAt, data: data ?? null });
    }
    const attempts = d.attempts + 1;
    if (!w) {
      await this.deps.repo.updateDelivery(d.id, { state: 'failed', nextAt: null, error: 'webhook deleted' });
      return;
    }
    const t = Math.floor(this.now / 1000);
    let code: number | null = null;
    let error: string | null = null;
    try {
      code = await this.deps.post(w.url, body, {
        'content-type': 'application/json',
        'mocap-event': d.event,
        'mocap-delivery': String(d.id),
        'mocap-signature': signWebhook(w.secret, body, t),
      });
      if (code < 200 || code >= 300) error = `HTTP ${code}`;
    } catch (e) {
      error = (e instanceof Error ? e.message : String(e)).slice(0, 500);
    }
    const now = this.now;
    if (!error) {
      await this.bodyAnd(d, body, {
        state: 'delivered',
        attempts,
        nextAt: null,
        responseCode: code,
        error: null,
        deliveredAt: now,
      });
      return;
    }
    const next = now + backoffMs(attempts);
    const giveUp = !manual && next > d.createdAt + WEBHOOK_RETRY_WINDOW_MS;
    await this.bodyAnd(d, body, {
      state: giveUp ? 'failed' : d.state === 'delivered' ? 'delivered' : 'pending',
      attempts,
      nextAt: giveUp || d.state === 'delivered' ? null : next,
      responseCode: code,
      error,
    });
  }

  private async bodyAnd(d: DeliveryRecord, body: string, p: Parameters<CompanyRepo['updateDelivery']>[1]) {
    await this.deps.repo.updateDelivery(d.id, d.body ? p : { ...p, body });
  }

  // ---- events from the capture jobs ----
  /** A company's video was made or failed for good: e-mail (as chosen), webhooks, and the low-balance check. */
  async videoFinished(e: VideoEvent): Promise<void> {
    const user = await this.deps.getUser(e.userId);
    if (user?.type !== 2) return;
    const prefs = await this.prefs(user.id);
    const event: WebhookEvent = e.status === 'made' ? 'video.made' : 'video.failed';
    const data = {
      videoId: e.videoId,
      title: e.title,
      status: e.status,
      error: e.error,
      duration: e.duration,
    };
    await this.emit(user.id, event, `${event}:${e.videoId}:${this.now}`, data);
    const want = e.status === 'made' ? prefs.made : prefs.failed;
    if (want && user.emailNotice) {
      const name = this.deps.productName ?? 'mocap';
      await this.deps.mailer.send({
        to: user.email,
        subject:
          e.status === 'made'
            ? `[${name}] 视频已制作完成 Video made: ${e.title}`
            : `[${name}] 视频制作失败 Video failed: ${e.title}`,
        text:
          e.status === 'made'
            ? `你的视频「${e.title}」(#${e.videoId}) 已制作完成，可以下载。\nYour video "${e.title}" (#${e.videoId}) is made and ready to download.${this.link()}`
            : `你的视频「${e.title}」(#${e.videoId}) 制作失败，已退回 CV 币。\nYour video "${e.title}" (#${e.videoId}) failed; its CV coins were refunded.\n${e.error ?? ''}${this.link()}`,
      });
    }
    await this.checkLowBalance(user, prefs);
  }

  private link(): string {
    return this.deps.publicUrl ? `\n\n${this.deps.publicUrl}/capture/` : '';
  }

  /** Sends balance.low (mail as chosen + webhook) once when the CV balance falls below the threshold. */
  async checkLowBalance(user: UserRecord, prefs?: NoticePrefs): Promise<boolean> {
    const p = prefs ?? (await this.prefs(user.id));
    const bal = await this.deps.balance(user.id);
    if (bal >= p.lowBalanceThreshold) {
      if (p.lowBalanceSentAt !== null)
        await this.deps.repo.savePrefs(user.id, { ...p, lowBalanceSentAt: null }, this.now);
      return false;
    }
    if (p.lowBalanceSentAt !== null) return false;
    await this.deps.repo.savePrefs(user.id, { ...p, lowBalanceSentAt: this.now }, this.now);
    await this.emit(user.id, 'balance.low', `balance.low:${this.now}:${randomBytes(4).toString('hex')}`, {
      balance: bal,
      threshold: p.lowBalanceThreshold,
    });
    if (p.lowBalance && user.emailNotice) {
      const name = this.deps.productName ?? 'mocap';
      await this.deps.mailer.send({
        to: user.email,
        subject: `[${name}] CV币余额不足 Low CV coin balance: ${bal}`,
        text: `你的 CV 币余额为 ${bal}，低于提醒值 ${p.lowBalanceThreshold}。请及时充值。\nYour CV coin balance is ${bal}, below your reminder level of ${p.lowBalanceThreshold}. Please recharge.${this.link()}`,
      });
    }
    return true;
  }
}
