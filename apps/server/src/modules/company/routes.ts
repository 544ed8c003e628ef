/**
 * Company routes (issue 20): e-mail notice choices, API keys, webhooks and their delivery log. Keys and webhooks
 * are managed from a logged-in session only (an API key cannot mint keys); the rest accepts a key too.
 */
import {
  ApiKeySchema,
  CompanyNoticeBody,
  CompanyNoticeSchema,
  CreatedKeySchema,
  CreateKeyBody,
  CreateWebhookBody,
  DeliverySchema,
  PageQuery,
  WebhookSchema,
} from '@mocap/contracts';
import { z } from 'zod';
import { AppError, Codes } from '../../errors.ts';
import { type Guard, requireCompany, requireSession, userOf } from '../../http/context.ts';
import { IdParam, ok, pageOf } from '../../http/envelope.ts';
import { routePlugin } from '../../http/route.ts';
import { ACCOUNT_COMPANY } from '../../ports.ts';
import type { ApiKeyRecord, DeliveryRecord } from './ports.ts';
import { publicApiDocument } from './public-api.ts';
import { CompanyService } from './service.ts';

/** A company account logged in with a session (not an API key). */
export const requireCompanySession: Guard = async (req, reply) => {
  await requireSession(req, reply);
  if (req.auth!.user.type !== ACCOUNT_COMPANY) throw new AppError(Codes.INSUFFICIENT_PERMISSION);
};

/**
 * Upload with an `Idempotency-Key` header: a retry of an upload that finished answers the first result at once
 * (before the size/queue/coin checks, so nothing is charged again); one still running is refused (307).
 */
export const idempotentUploadReplay: Guard = async (req, reply) => {
  const key = CompanyService.idempotencyKey(req.headers['idempotency-key']);
  if (key === undefined) return;
  const stored = await req.server.ctx.services.company.replay<unknown>(userOf(req).id, 'video.upload', key);
  if (stored !== undefined) {
    reply.header('idempotent-replayed', 'true');
    await reply.send(ok(stored));
    return reply as never;
  }
};

export { PUBLIC_API_OPERATIONS } from './public-api.ts';

const keyView = (k: ApiKeyRecord) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  ratePerMinute: k.ratePerMinute,
  routes: k.routes,
  createdAt: k.createdAt,
  lastUsedAt: k.lastUsedAt,
  revokedAt: k.revokedAt,
});
const deliveryView = (d: DeliveryRecord) => ({
  id: d.id,
  webhookId: d.webhookId,
  event: d.event,
  body: d.body,
  state: d.state,
  attempts: d.attempts,
  nextAt: d.nextAt,
  responseCode: d.responseCode,
  error: d.error,
  createdAt: d.createdAt,
  deliveredAt: d.deliveredAt,
});

const tags = ['company'];

const routes = routePlugin(tags, (r, { company, accounts }, app) => {
  const noticeOf = async (userId: number, emailNotice: boolean) => {
    const p = await company.prefs(userId);
    return {
      emailNotice,
      made: p.made,
      failed: p.failed,
      lowBalance: p.lowBalance,
      lowBalanceThreshold: p.lowBalanceThreshold,
    };
  };

  r.get(
    '/company/emailNotice',
    { auth: requireCompany, summary: 'Which e-mails the company gets', data: CompanyNoticeSchema },
    async (req) => {
      const me = userOf(req);
      return await noticeOf(me.id, me.emailNotice);
    },
  );

  r.put(
    '/company/emailNotice',
    {
      auth: requireCompany,
      summary: 'Choose the e-mails: job made, job failed, low CV balance (and its threshold), or all off',
      body: CompanyNoticeBody,
      data: CompanyNoticeSchema,
    },
    async (req) => {
      const me = userOf(req);
      const { enabled, ...prefs } = req.body;
      if (enabled !== undefined) await accounts.setEmailNotice(me, enabled);
      const p: Parameters<typeof company.setPrefs>[1] = {};
      if (prefs.made !== undefined) p.made = prefs.made;
      if (prefs.failed !== undefined) p.failed = prefs.failed;
      if (prefs.lowBalance !== undefined) p.lowBalance = prefs.lowBalance;
      if (prefs.lowBalanceThreshold !== undefined) p.lowBalanceThreshold = prefs.lowBalanceThreshold;
      if (Object.keys(p).length > 0) await company.setPrefs(me, p);
      return await noticeOf(me.id, enabled ?? me.emailNotice);
    },
  );

  r.get(
    '/company/openapi.json',
    { summary: 'The public API on its own: the OpenAPI document of what an API key can call', hide: true },
    async () => publicApiDocument(app.swagger()),
  );

  // ---- API keys ----
  r.post(
    '/company/apiKeys',
    {
      auth: requireCompanySession,
      summary: 'Create an API key (named; the key is answered this once and stored hashed)',
      body: CreateKeyBody,
      data: CreatedKeySchema,
    },
    async (req) => {
      const { key, record } = await company.createKey(
        userOf(req),
        req.body.name,
        req.body.ratePerMinute,
        req.body.routes ?? null,
      );
      return { ...keyView(record), key };
    },
  );

  r.get(
    '/company/apiKeys',
    {
      auth: requireCompanySession,
      summary: 'The API keys of the company with their last-used time (revoked ones too)',
      data: z.array(ApiKeySchema),
    },
    async (req) => (await company.listKeys(userOf(req))).map(keyView),
  );

  r.deleteById(
    '/company/apiKeys/:id',
    {
      auth: requireCompanySession,
      summary: 'Revoke an API key (it gets 401 from now on)',
    },
    (u, id) => company.revokeKey(u, id),
  );

  // ---- webhooks ----
  r.post(
    '/company/webhooks',
    {
      auth: requireCompanySession,
      summary:
        'Register a webhook URL for video.made / video.failed / balance.low (answers its signing secret)',
      body: CreateWebhookBody,
      data: WebhookSchema,
    },
    async (req) => {
      const w = await company.createWebhook(userOf(req), req.body.url, req.body.events);
      return { id: w.id, url: w.url, secret: w.secret, events: w.events, createdAt: w.createdAt };
    },
  );

  r.get(
    '/company/webhooks',
    { auth: requireCompanySession, summary: 'The webhooks of the company', data: z.array(WebhookSchema) },
    async (req) =>
      (await company.listWebhooks(userOf(req))).map((w) => ({
        id: w.id,
        url: w.url,
        secret: w.secret,
        events: w.events,
        createdAt: w.createdAt,
      })),
  );

  r.deleteById(
    '/company/webhooks/:id',
    {
      auth: requireCompanySession,
      summary: 'Delete a webhook (its pending deliveries are given up)',
    },
    (u, id) => company.deleteWebhook(u, id),
  );

  r.get(
    '/company/webhooks/deliveries',
    {
      auth: requireCompanySession,
      summary: 'The delivery log, newest first (state, attempts, next retry, last response)',
      query: PageQuery,
      data: pageOf(DeliverySchema),
    },
    async (req) => {
      const { page, size } = req.query;
      const r = await company.deliveries(userOf(req), page, size);
      return { list: r.list.map(deliveryView), total: r.total, page, size };
    },
  );

  r.post(
    '/company/webhooks/deliveries/:id/redeliver',
    {
      auth: requireCompanySession,
      summary: 'Post a delivery again now (newly signed)',
      params: z.object({ id: IdParam }),
      data: DeliverySchema,
    },
    async (req) => deliveryView(await company.redeliver(userOf(req), req.params.id)),
  );
});

export default routes;
