/** The company slice over Kysely (migration 1100): notice choices, API keys, webhooks, deliveries. */

import type { Generated, Selectable } from 'kysely';
import { newestFirst } from '../../infra/db/paging.ts';
import {
  countWhere,
  deleteWhere,
  dueRows,
  insertRow,
  rowsWhere,
  rowWhere,
  snakeKeys,
  updateWhere,
} from '../../infra/db/rows.ts';
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
    const r = await rowWhere(this.db, 'company_settings', { user_id: userId });
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
    const routes = k.routes === null ? null : k.routes.join(',');
    const values = { ...snakeKeys(k), routes, last_used_at: null, revoked_at: null };
    return toKey(await insertRow(this.db, 'api_keys', values));
  }

  async listKeys(userId: number) {
    return (await rowsWhere(this.db, 'api_keys', { user_id: userId }, [['id', 'desc']])).map(toKey);
  }

  countActiveKeys(userId: number) {
    return countWhere(this.db, 'api_keys', { user_id: userId, revoked_at: null });
  }

  async findKeyByHash(hash: string) {
    const r = await rowWhere(this.db, 'api_keys', { key_hash: hash });
    return r && toKey(r);
  }

  async revokeKey(userId: number, id: number, now: number) {
    return (
      (await updateWhere(
        this.db,
        'api_keys',
        { revoked_at: now },
        { id, user_id: userId, revoked_at: null },
      )) > 0
    );
  }

  async touchKey(id: number, now: number) {
    await updateWhere(this.db, 'api_keys', { last_used_at: now }, { id });
  }

  async createWebhook(w: Omit<WebhookRecord, 'id'>) {
    const values = { ...snakeKeys(w), events: w.events.join(','), deleted_at: null };
    return toHook(await insertRow(this.db, 'webhooks', values));
  }

  async listWebhooks(userId: number) {
    const rows = await rowsWhere(this.db, 'webhooks', { user_id: userId, deleted_at: null }, [['id', 'asc']]);
    return rows.map(toHook);
  }

  async findWebhook(id: number) {
    const r = await rowWhere(this.db, 'webhooks', { id, deleted_at: null });
    return r && toHook(r);
  }

  async deleteWebhook(userId: number, id: number, now: number) {
    const where = { id, user_id: userId, deleted_at: null };
    return (await updateWhere(this.db, 'webhooks', { deleted_at: now }, where)) > 0;
  }

  async insertDelivery(d: Omit<DeliveryRecord, 'id'>) {
    const r = await this.db
      .insertInto('webhook_deliveries')
      .values(snakeKeys(d))
      .onConflict((oc) => oc.columns(['webhook_id', 'event_key']).doNothing())
      .returningAll()
      .executeTakeFirst();
    return r && toDelivery(r);
  }

  async dueDeliveries(now: number, limit: number) {
    const rows = await dueRows(this.db, 'webhook_deliveries', { state: 'pending' }, 'next_at', now, limit);
    return rows.map(toDelivery);
  }

  async findDelivery(id: number) {
    const r = await rowWhere(this.db, 'webhook_deliveries', { id });
    return r && toDelivery(r);
  }

  async updateDelivery(id: number, p: Parameters<CompanyRepo['updateDelivery']>[1]) {
    await updateWhere(this.db, 'webhook_deliveries', snakeKeys(p), { id });
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
    const r = await rowWhere(this.db, 'idempotency_keys', { user_id: userId, scope, idem_key: key });
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
    const r = await rowWhere(this.db, 'idempotency_keys', { user_id: userId, scope, idem_key: key });
    return r && { state: r.state as 'pending' | 'done', response: r.response };
  }

  async finishIdempotency(userId: number, scope: string, key: string, response: string | null) {
    const where = { user_id: userId, scope, idem_key: key };
    if (response === null) await deleteWhere(this.db, 'idempotency_keys', where);
    else await updateWhere(this.db, 'idempotency_keys', { state: 'done', response }, where);
  }

  async listDeliveries(userId: number, page: number, size: number) {
    const base = this.db.selectFrom('webhook_deliveries').where('user_id', '=', userId);
    const { list, total } = await newestFirst(base, { page, size }, toDelivery);
    return { list, total };
  }
}
