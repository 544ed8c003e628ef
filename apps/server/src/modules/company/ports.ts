/** The events a company's webhooks can subscribe to: the contract's. */
export { WEBHOOK_EVENTS, type WebhookEvent } from '@mocap/contracts';

import type { WebhookEvent } from '@mocap/contracts';

export interface NoticePrefs {
  made: boolean;
  failed: boolean;
  lowBalance: boolean;
  /** CV coins: a balance below this after a job is "low". */
  lowBalanceThreshold: number;
  lowBalanceSentAt: number | null;
}

export interface ApiKeyRecord {
  id: number;
  userId: number;
  name: string;
  /** The first characters of the key, to tell keys apart in a list. */
  prefix: string;
  ratePerMinute: number;
  /** The public-API operations this key may call (`GET /product/…`); null: all of them. */
  routes: string[] | null;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export interface WebhookRecord {
  id: number;
  userId: number;
  url: string;
  secret: string;
  events: WebhookEvent[];
  createdAt: number;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface DeliveryRecord {
  id: number;
  webhookId: number;
  userId: number;
  event: WebhookEvent;
  eventKey: string;
  body: string;
  state: DeliveryState;
  attempts: number;
  nextAt: number | null;
  responseCode: number | null;
  error: string | null;
  createdAt: number;
  deliveredAt: number | null;
}

export interface CompanyRepo {
  prefs(userId: number): Promise<NoticePrefs | undefined>;
  savePrefs(userId: number, p: NoticePrefs, now: number): Promise<void>;
  createKey(
    k: Omit<ApiKeyRecord, 'id' | 'lastUsedAt' | 'revokedAt'> & { keyHash: string },
  ): Promise<ApiKeyRecord>;
  listKeys(userId: number): Promise<ApiKeyRecord[]>;
  countActiveKeys(userId: number): Promise<number>;
  findKeyByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  revokeKey(userId: number, id: number, now: number): Promise<boolean>;
  touchKey(id: number, now: number): Promise<void>;
  createWebhook(w: Omit<WebhookRecord, 'id'>): Promise<WebhookRecord>;
  listWebhooks(userId: number): Promise<WebhookRecord[]>;
  deleteWebhook(userId: number, id: number, now: number): Promise<boolean>;
  /** Inserts a delivery unless (webhook, eventKey) exists; returns it or undefined when it existed. */
  insertDelivery(d: Omit<DeliveryRecord, 'id'>): Promise<DeliveryRecord | undefined>;
  dueDeliveries(now: number, limit: number): Promise<DeliveryRecord[]>;
  findDelivery(id: number): Promise<DeliveryRecord | undefined>;
  updateDelivery(
    id: number,
    p: Partial<
      Pick<
        DeliveryRecord,
        'body' | 'state' | 'attempts' | 'nextAt' | 'responseCode' | 'error' | 'deliveredAt'
      >
    >,
  ): Promise<void>;
  listDeliveries(
    userId: number,
    page: number,
    size: number,
  ): Promise<{ list: DeliveryRecord[]; total: number }>;
  findWebhook(id: number): Promise<WebhookRecord | undefined>;
  /** Claims (user, scope, key); when taken: its state and stored response. */
  claimIdempotency(
    userId: number,
    scope: string,
    key: string,
    now: number,
  ): Promise<
    | { claimed: true }
    | { claimed: false; state: 'pending' | 'done'; response: string | null; createdAt: number }
  >;
  findIdempotency(
    userId: number,
    scope: string,
    key: string,
  ): Promise<{ state: 'pending' | 'done'; response: string | null } | undefined>;
  /** Counts for the administrator console: active keys, webhooks, deliveries by state. */
  counts(userId: number): Promise<{ activeKeys: number; webhooks: number; pending: number; failed: number }>;
  /** Stores the response (done), or releases the claim (null: the call failed, a retry may run it). */
  finishIdempotency(userId: number, scope: string, key: string, response: string | null): Promise<void>;
}

/** Posts a webhook body; resolves with the HTTP status (or rejects on a network error / timeout). */
export type WebhookPoster = (url: string, body: string, headers: Record<string, string>) => Promise<number>;
