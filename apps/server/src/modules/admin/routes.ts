/**
 * Administrator routes for accounts (spec §6/§7 "User administration"). Every route is guarded by
 * requireAdmin: a normal user gets 406 insufficient permission.
 */
import { randomUUID } from 'node:crypto';
import { UserDetailSchema } from '@mocap/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, Codes } from '../../errors.ts';
import { bearerSecurity, requireAdmin, userOf } from '../../http/context.ts';
import { envelope, IdParam, ok, pageOf } from '../../http/envelope.ts';
import { LedgerEntrySchema, LevelSchema, UserViewSchema } from '../../http/schemas.ts';
import { Reasons } from '../coins/service.ts';

/** A keyword search over a page of accounts. */
const KeywordPage = z
  .object({
    keyword: z.string().max(254).optional(),
    page: z.coerce.number().int().min(1).default(1),
    size: z.coerce.number().int().min(1).max(100).default(20),
  })
  .default({ page: 1, size: 20 });

const routes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { accounts, coins } = app.ctx.services;
  const tags = ['admin'];
  const opts = { preHandler: requireAdmin };
  const IdOnly = z.object({ id: IdParam });
  const toggle = z.object({ flag: z.boolean().optional().describe('default: flip') }).nullish();
  /** A page of accounts as the API shows them. */
  const viewPage = (p: Awaited<ReturnType<typeof accounts.search>>) => ({
    ...p,
    list: p.list.map((u) => accounts.view(u)),
  });

  app.post(
    '/user/search',
    {
      ...opts,
      schema: {
        tags,
        summary: 'Search accounts by e-mail or name',
        security: bearerSecurity,
        body: z
          .object({
            keyword: z.string().max(254).optional(),
            type: z.number().int().min(1).max(2).optional(),
            level: LevelSchema.optional(),
            blackFlag: z.boolean().optional(),
            page: z.coerce.number().int().min(1).default(1),
            size: z.coerce.number().int().min(1).max(100).default(20),
          })
          .default({ page: 1, size: 20 }),
        response: { 200: envelope(pageOf(UserViewSchema)) },
      },
    },
    async (req) => {
      return ok(viewPage(await accounts.search(req.body)));
    },
  );

  const flagRoute = (
    method: 'post' | 'put',
    path: string,
    summary: string,
    field: 'testFlag' | 'blackFlag' | 'beta' | 'extensionStaff',
  ) =>
    app[method](
      path,
      {
        ...opts,
        schema: {
          tags,
          summary,
          security: bearerSecurity,
          params: IdOnly,
          body: toggle,
          response: { 200: envelope(UserViewSchema) },
        },
      },
      async (req) => {
        const u = await accounts.getUser(req.params.id);
        const flag = req.body?.flag ?? !u[field];
        return ok(accounts.view(await accounts.adminUpdate(u.id, { [field]: flag })));
      },
    );
  flagRoute('post', '/user/test/:id', 'Set or flip the internal-test flag', 'testFlag');
  flagRoute(
    'post',
    '/user/blackFlag/:id',
    'Blacklist or clear (blacklisting ends every session)',
    'blackFlag',
  );
  flagRoute('put', '/user/beta/:id', 'Set or flip the beta flag', 'beta');

  app.post(
    '/user/setExtensionStaff',
    {
      ...opts,
      schema: {
        tags,
        summary: 'Mark an account as extension (promotion) staff',
        security: bearerSecurity,
        body: z.object({ id: z.number().int().positive(), flag: z.boolean().default(true) }),
        response: { 200: envelope(UserViewSchema) },
      },
    },
    async (req) =>
      ok(accounts.view(await accounts.adminUpdate(req.body.id, { extensionStaff: req.body.flag }))),
  );

  app.post(
    '/user/updateLevel/:id/:level/:days',
    {
      ...opts,
      schema: {
        tags,
        summary: 'Set the plan for a number of days (free clears it)',
        security: bearerSecurity,
        params: z.object({ id: IdParam, level: LevelSchema, days: z.coerce.number().int().min(0).max(3650) }),
        response: { 200: envelope(UserViewSchema) },
      },
    },
    async (req) =>
      ok(accounts.view(await accounts.setLevel(req.params.id, req.params.level, req.params.days))),
  );

  app.put(
    '/user/update/vip/level',
    {
      ...opts,
      schema: {
        tags,
        summary: 'Set the plan (body form of updateLevel)',
        security: bearerSecurity,
        body: z.object({
          id: z.number().int().positive(),
          level: LevelSchema,
          days: z.number().int().min(0).max(3650).default(30),
        }),
        response: { 200: envelope(UserViewSchema) },
      },
    },
    async (req) => ok(accounts.view(await accounts.setLevel(req.body.id, req.body.level, req.body.days))),
  );

  app.post(
    '/user/addTime/:id/:num',
    {
      ...opts,
      schema: {
        tags,
        summary: 'Add (or remove, negative) days of the paid plan',
        security: bearerSecurity,
        params: z.object({ id: IdParam, num: z.coerce.number().int() }),
        response: { 200: envelope(UserViewSchema) },
      },
    },
    async (req) => ok(accounts.view(await accounts.addTime(req.params.id, req.params.num))),
  );

  app.put(
    '/user/surplus/:id/:amount',
    {
      ...opts,
      schema: {
        tags,
        summary: 'Add (or, negative, remove) V coins; idempotent with the Idempotency-Key header',
        security: bearerSecurity,
        params: z.object({ id: IdParam, amount: z.coerce.number().int().min(-1_000_000).max(1_000_000) }),
        headers: z.object({ 'idempotency-key': z.string().min(1).max(120).optional() }),
        body: z
          .object({ note: z.string().max(255).optional(), currency: z.enum(['V', 'CV']).default('V') })
          .default({ currency: 'V' }),
        response: {
          200: envelope(
            z.object({ entry: LedgerEntrySchema, balance: z.number().int(), duplicate: z.boolean() }),
          ),
        },
      },
    },
    async (req) => {
      const key = req.headers['idempotency-key'];
      const admin = userOf(req);
      const r = await coins.change(
        req.params.id,
        req.params.amount,
        Reasons.ADMIN,
        key ? `admin:${key}` : `admin:${randomUUID()}`,
        {
          currency: req.body.currency,
          note: req.body.note ?? `by administrator ${admin.id}`,
          insufficientMessage: 'the balance cannot go below 0',
        },
      );
      return ok(r);
    },
  );

  // A user's detail for manageUser (and a company's for manageCompany): the account, its coin ledger (V, or CV
  // for a company), orders, videos and referrals (50 newest each).
  for (const path of ['/admin/user/:id', '/admin/company/:id'])
    app.get(
      path,
      {
        ...opts,
        schema: {
          tags,
          summary: "A user's detail: account, ledger, orders, videos, referrals (50 newest of each)",
          security: bearerSecurity,
          params: IdOnly,
          response: {
            200: envelope(UserDetailSchema),
          },
        },
      },
      async (req) => {
        const u = await accounts.getUser(req.params.id);
        const { orders, videos } = app.ctx.services;
        const [ledger, ord, vids, refs] = await Promise.all([
          coins.records({ userId: u.id, currency: u.type === 2 ? 'CV' : 'V', page: 1, size: 50 }),
          orders.list(u.id, undefined, 1, 50),
          videos.center(u, { page: 1, size: 50 }),
          accounts.invitees(u, 1, 50),
        ]);
        const inviter = u.referredBy ? await accounts.getUser(u.referredBy).catch(() => null) : null;
        return ok({
          user: accounts.view(u),
          ledger: { list: ledger.list, total: ledger.total },
          orders: {
            list: ord.list.map((o) => ({
              orderNo: o.orderNo,
              title: o.title,
              amount: o.amount,
              method: String(o.method),
              status: String(o.status),
              createAt: o.createdAt,
              paidAt: o.paidAt,
            })),
            total: ord.total,
          },
          videos: {
            list: vids.list.map((v) => ({
              id: v.id,
              name: v.name,
              status: v.status,
              duration: v.duration,
              createAt: v.createAt,
              inSquare: v.inSquare === 1,
            })),
            total: vids.total,
          },
          referrals: {
            list: refs.list.map((r) => ({ id: r.id, email: r.email, createdAt: r.createdAt })),
            total: refs.total,
          },
          invitedBy: inviter ? { id: inviter.id, email: inviter.email } : null,
        });
      },
    );

  app.post(
    '/user/countUser',
    {
      ...opts,
      schema: {
        tags,
        summary: 'Count accounts (optionally since a time, of a type)',
        security: bearerSecurity,
        body: z
          .object({ since: z.number().int().optional(), type: z.number().int().min(1).max(2).optional() })
          .default({}),
        response: { 200: envelope(z.object({ total: z.number().int() })) },
      },
    },
    async (req) => ok({ total: await accounts.count(req.body) }),
  );

  app.post(
    '/company/search',
    {
      ...opts,
      schema: {
        tags: ['company'],
        summary: 'Search company accounts by e-mail or name',
        security: bearerSecurity,
        body: KeywordPage,
        response: { 200: envelope(pageOf(UserViewSchema)) },
      },
    },
    async (req) => {
      return ok(viewPage(await accounts.search({ ...req.body, type: 2 })));
    },
  );

  app.put(
    '/company/update/vip/level',
    {
      ...opts,
      schema: {
        tags: ['company'],
        summary: 'Set the plan of a company account',
        security: bearerSecurity,
        body: z.object({
          id: z.number().int().positive(),
          level: LevelSchema,
          days: z.number().int().min(0).max(3650).default(30),
        }),
        response: { 200: envelope(UserViewSchema) },
      },
    },
    async (req) => {
      const u = await accounts.getUser(req.body.id);
      if (u.type !== 2) throw new AppError(Codes.NOT_FOUND, 'not a company account');
      return ok(accounts.view(await accounts.setLevel(u.id, req.body.level, req.body.days)));
    },
  );

  // Blacklist (spec §7 /sysConfig/blackListInfo plus insert, update): blacklisted accounts are refused with 408.
  app.post(
    '/sysConfig/blackListInfo',
    {
      ...opts,
      schema: {
        tags,
        summary: 'Blacklisted accounts',
        security: bearerSecurity,
        body: KeywordPage,
        response: { 200: envelope(pageOf(UserViewSchema)) },
      },
    },
    async (req) => {
      return ok(viewPage(await accounts.search({ ...req.body, blackFlag: true })));
    },
  );

  app.post(
    '/sysConfig/blackListInfo/insert',
    {
      ...opts,
      schema: {
        tags,
        summary: 'Blacklist an account by e-mail (ends its sessions)',
        security: bearerSecurity,
        body: z.object({ email: z.string().min(1).max(254) }),
        response: { 200: envelope(UserViewSchema) },
      },
    },
    async (req) => {
      const u = await accounts.findByEmail(req.body.email);
      return ok(accounts.view(await accounts.adminUpdate(u.id, { blackFlag: true })));
    },
  );

  app.post(
    '/sysConfig/blackListInfo/update',
    {
      ...opts,
      schema: {
        tags,
        summary: 'Set or clear the blacklist flag of an account',
        security: bearerSecurity,
        body: z.object({ id: z.number().int().positive(), flag: z.boolean() }),
        response: { 200: envelope(UserViewSchema) },
      },
    },
    async (req) => ok(accounts.view(await accounts.adminUpdate(req.body.id, { blackFlag: req.body.flag }))),
  );

  app.post(
    '/user/scheduled/monthlyTopUp',
    {
      ...opts,
      schema: {
        tags,
        summary: "Run this month's free top-up now (idempotent: a second run in the month does nothing)",
        security: bearerSecurity,
        response: {
          200: envelope(
            z.object({
              period: z.string(),
              skipped: z.boolean(),
              toppedUp: z.number().int(),
              coins: z.number().int(),
            }),
          ),
        },
      },
    },
    async () => ok(await app.ctx.services.scheduler.runMonthlyTopUp()),
  );
};

export default routes;
