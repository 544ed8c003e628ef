/** The company slice over Kysely (migration 1100): notice choices, API keys, webhooks, deliveries. */

import type { Generated, Selectable } from 'kysely';
import { newestFirst } from '../../infra/db/paging.ts';
import { rowWhere } from '../../infra/db/rows.ts';
import type { DB } from '../../infra/db/schema.ts';
import { SliceRepo } from '../../infra/db/slice.ts';
import type {
  ApiKeyRecord,
  CompanyRepo,
  DeliveryRecord,
  DeliveryState,
  NoticePrefs,
  WebhookEvent,
  WebhookRecord,
} from './ports.ts';

interface SettingsTable {
  user_id: number;
  notice_made: number;
  notice_failed: number;
  notice_low_balance: number;
  low_balance_threshold: number;
  low_balance_sent_at: number | null;
  updated_at: number;
}
interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  prefix: string;
  key_hash: string;
  rate_per_minute: number;
  routes: string | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}
interface WebhooksTable {
  id: Generated<number>;
  user_id: number;
  url: string;
  secret: string;
  events: string;
  created_at: number;
  deleted_at: number | null;
}
interface DeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  user_id: number;
  event: string;
  event_key: string;
  body: string;
  state: string;
  attempts: number;
  next_at: number | null;
  response_code: number | null;
  error: string | null;
  created_at: number;
  delivered_at: number | null;
}
interface IdempotencyTable {
  user_id: number;
  scope: string;
  idem_key: string;
  state: string;
  response: string | null;
  created_at: number;
}
type CDB = DB & {
  idempotency_keys: IdempotencyTable;
  company_settings: SettingsTable;
  api_keys: ApiKeysTable;
  webhooks: WebhooksTable;
  webhook_deliveries: DeliveriesTable;
};

const num = (v: number | string | bigint | null): number | null => (v === null ? null : Number(v));

const toKey = (r: Selectable<ApiKeysTable>): ApiKeyRecord => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  name: r.name,
  prefix: r.prefix,
  ratePerMinute: Number(r.rate_per_minute),
  routes: r.routes === null || r.routes === undefined ? null : r.routes.split(',').filter(Boolean),
  createdAt: Number(r.created_at),
  lastUsedAt: num(r.last_used_at),
  revokedAt: num(r.revoked_at),
});
const toHook = (r: Selectable<WebhooksTable>): WebhookRecord => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  url: r.url,
  secret: r.secret,
  events: r.events.split(',').filter(Boolean) as WebhookEvent[],
  createdAt: Number(r.created_at),
});
const toDelivery = (r: Selectable<DeliveriesTable>): DeliveryRecord => ({
  id: Number(r.id),
  webhookId: Number(r.webhook_id),
  userId: Number(r.user_id),
  event: r.event as WebhookEvent,
  eventKey: r.event_key,
  body: r.body,
  state: r.state as DeliveryState,
  attempts: Number(r.attempts),
  nextAt: num(r.next_at),
  responseCode: num(r.response_code),
  error: r.error,
  createdAt: Number(r.created_at),
  deliveredAt: num(r.delivered_at),
});

export class KyselyCompanyRepo extends SliceRepo<CDB> implements CompanyRepo {
  async prefs(userId: number): Promise<NoticePrefs | undefined> {
    const r = await this.db
      .selectFrom('company_settings')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return (
      r && {
        made: Number(r.notice_made) === 1,
        failed: Number(r.notice_failed) === 1,
        lowBalance: Number(r.notice_low_balance) === 1,
        lowBalanceThreshold: Number(r.low_balance_threshold),
        lowBalanceSentAt: num(r.low_balance_sent_at),
      }
    );
  }

  async savePrefs(userId: number, p: NoticePrefs, now: number): Promise<void> {
    const row = {
      notice_made: p.made ? 1 : 0,
      notice_failed: p.failed ? 1 : 0,
      notice_low_balance: p.lowBalance ? 1 : 0,
      low_balance_threshold: p.lowBalanceThreshold,
      low_balance_sent_at: p.lowBalanceSentAt,
      updated_at: now,
    };
    await this.db
      .insertInto('company_settings')
      .values({ user_id: userId, ...row })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
      .execute();
  }

  async createKey(k: Omit<ApiKeyRecord, 'id' | 'lastUsedAt' | 'revokedAt'> & { keyHash: string }) {
    const r = await this.db
      .insertInto('api_keys')
      .values({
        user_id: k.userId,
        name: k.name,
        prefix: k.prefix,
        key_hash: k.keyHash,
        rate_per_minute: k.ratePerMinute,
        routes: k.routes === null ? null : k.routes.join(','),
        created_at: k.createdAt,
        last_used_at: null,
        revoked_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toKey(r);
  }

  async listKeys(userId: number) {
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toKey);
  }

  async countActiveKeys(userId: number) {
    const r = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async findKeyByHash(hash: string) {
    const r = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('key_hash', '=', hash)
      .executeTakeFirst();
    return r && toKey(r);
  }

  async revokeKey(userId: number, id: number, now: number) {
    const r = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async touchKey(id: number, now: number) {
    await this.db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id).execute();
  }

  async createWebhook(w: Omit<WebhookRecord, 'id'>) {
    const r = await this.db
      .insertInto('webhooks')
      .values({
        user_id: w.userId,
        url: w.url,
        secret: w.secret,
        events: w.events.join(','),
        created_at: w.createdAt,
        deleted_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toHook(r);
  }

  async listWebhooks(userId: number) {
    const rows = await this.db
      .selectFrom('webhooks')
      .selectAll()
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .orderBy('id', 'asc')
      .execute();
    return rows.map(toHook);
  }

  async findWebhook(id: number) {
    const r = await rowWhere(this.db, 'webhooks', { id, deleted_at: null });
    return r && toHook(r);
  }

  async deleteWebhook(userId: number, id: number, now: number) {
    const r = await this.db
      .updateTable('webhooks')
      .set({ deleted_at: now })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async insertDelivery(d: Omit<DeliveryRecord, 'id'>) {
    const r = await this.db
      .insertInto('webhook_deliveries')
      .values({
        webhook_id: d.webhookId,
        user_id: d.userId,
        event: d.event,
        event_key: d.eventKey,
        body: d.body,
        state: d.state,
        attempts: d.attempts,
        next_at: d.nextAt,
        response_code: d.responseCode,
        error: d.error,
        created_at: d.createdAt,
        delivered_at: d.deliveredAt,
      })
      .onConflict((oc) => oc.columns(['webhook_id', 'event_key']).doNothing())
      .returningAll()
      .executeTakeFirst();
    return r && toDelivery(r);
  }

  async dueDeliveries(now: number, limit: number) {
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('state', '=', 'pending')
      .where('next_at', '<=', now)
      .orderBy('next_at', 'asc')
      .limit(limit)
      .execute();
    return rows.map(toDelivery);
  }

  async findDelivery(id: number) {
    const r = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return r && toDelivery(r);
  }

  async updateDelivery(id: number, p: Parameters<CompanyRepo['updateDelivery']>[1]) {
    const set: Partial<Omit<DeliveriesTable, 'id'>> = {};
    if (p.body !== undefined) set.body = p.body;
    if (p.state !== undefined) set.state = p.state;
    if (p.attempts !== undefined) set.attempts = p.attempts;
    if (p.nextAt !== undefined) set.next_at = p.nextAt;
    if (p.responseCode !== undefined) set.response_code = p.responseCode;
    if (p.error !== undefined) set.error = p.error;
    if (p.deliveredAt !== undefined) set.delivered_at = p.deliveredAt;
    await this.db.updateTable('webhook_deliveries').set(set).where('id', '=', id).execute();
  }

  async claimIdempotency(
    userId: number,
    scope: string,
    key: string,
    now: number,
  ): ReturnType<CompanyRepo['claimIdempotency']> {
    const ins = await this.db
      .insertInto('idempotency_keys')
      .values({ user_id: userId, scope, idem_key: key, state: 'pending', response: null, created_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'scope', 'idem_key']).doNothing())
      .executeTakeFirst();
    if (Number(ins.numInsertedOrUpdatedRows ?? 0n) > 0) return { claimed: true as const };
    const r = await this.db
      .selectFrom('idempotency_keys')
      .select(['state', 'response', 'created_at'])
      .where('user_id', '=', userId)
      .where('scope', '=', scope)
      .where('idem_key', '=', key)
      .executeTakeFirst();
    if (!r) return this.claimIdempotency(userId, scope, key, now); // released meanwhile
    return {
      claimed: false as const,
      state: r.state as 'pending' | 'done',
      response: r.response,
      createdAt: Number(r.created_at),
    };
  }

  async counts(userId: number) {
    const [keys, hooks, byState] = await Promise.all([
      this.countActiveKeys(userId),
      this.listWebhooks(userId).then((w) => w.length),
      this.db
        .selectFrom('webhook_deliveries')
        .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
        .where('user_id', '=', userId)
        .groupBy('state')
        .execute(),
    ]);
    const n = (state: string) => Number(byState.find((r) => r.state === state)?.n ?? 0);
    return { activeKeys: keys, webhooks: hooks, pending: n('pending'), failed: n('failed') };
  }

  async findIdempotency(userId: number, scope: string, key: string) {
    const r = await this.db
      .selectFrom('idempotency_keys')
      .select(['state', 'response'])
      .where('user_id', '=', userId)
      .where('scope', '=', scope)
      .where('idem_key', '=', key)
      .executeTakeFirst();
    return r && { state: r.state as 'pending' | 'done', response: r.response };
  }

  async finishIdempotency(userId: number, scope: string, key: string, response: string | null) {
    const q = this.db
      .updateTable('idempotency_keys')
      .where('user_id', '=', userId)
      .where('scope', '=', scope)
      .where('idem_key', '=', key);
    if (response === null) {
      await this.db
        .deleteFrom('idempotency_keys')
        .where('user_id', '=', userId)
        .where('scope', '=', scope)
        .where('idem_key', '=', key)
        .execute();
      return;
    }
    await q.set({ state: 'done', response }).execute();
  }

  async listDeliveries(userId: number, page: number, size: number) {
    const base = this.db.selectFrom('webhook_deliveries').where('user_id', '=', userId);
    const { list, total } = await newestFirst(base, { page, size }, toDelivery);
    return { list, total };
  }
}
