/**
 * Administrator routes for accounts (spec §6/§7 "User administration"). Every route is guarded by
 * requireAdmin: a normal user gets 406 insufficient permission.
 */
import { randomUUID } from 'node:crypto';
import { CountSchema, CountUserBody, UserDetailSchema } from '@mocap/contracts';
import { z } from 'zod';
import { AppError, Codes } from '../../errors.ts';
import { bearerSecurity, requireAdmin, userOf } from '../../http/context.ts';
import { envelope, IdParam, ok, pageOf } from '../../http/envelope.ts';
import { routePlugin } from '../../http/route.ts';
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

/** The plan an account gets and for how many days (individual and company accounts alike). */
const SetLevelBody = z.object({
  id: z.number().int().positive(),
  level: LevelSchema,
  days: z.number().int().min(0).max(3650).default(30),
});

const tags = ['admin'];

const routes = routePlugin(tags, (r, { accounts, coins }, app) => {
  const opts = { preHandler: requireAdmin };
  const IdOnly = z.object({ id: IdParam });
  const toggle = z.object({ flag: z.boolean().optional().describe('default: flip') }).nullish();
  /** A page of accounts as the API shows them. */
  const viewPage = (p: Awaited<ReturnType<typeof accounts.search>>) => ({
    ...p,
    list: p.list.map((u) => accounts.view(u)),
  });

  r.post(
    '/user/search',
    {
      auth: requireAdmin,
      summary: 'Search accounts by e-mail or name',
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
      data: pageOf(UserViewSchema),
    },
    async (req) => {
      return viewPage(await accounts.search(req.body));
    },
  );

  const flagRoute = (
    method: 'post' | 'put',
    path: string,
    summary: string,
    field: 'testFlag' | 'blackFlag' | 'beta' | 'extensionStaff',
  ) =>
    r[method](
      path,
      { auth: requireAdmin, summary, params: IdOnly, body: toggle, data: UserViewSchema },
      async (req) => {
        const u = await accounts.getUser(req.params.id);
        const flag = req.body?.flag ?? !u[field];
        return accounts.view(await accounts.adminUpdate(u.id, { [field]: flag }));
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

  r.post(
    '/user/setExtensionStaff',
    {
      auth: requireAdmin,
      summary: 'Mark an account as extension (promotion) staff',
      body: z.object({ id: z.number().int().positive(), flag: z.boolean().default(true) }),
      data: UserViewSchema,
    },
    async (req) => accounts.view(await accounts.adminUpdate(req.body.id, { extensionStaff: req.body.flag })),
  );

  r.post(
    '/user/updateLevel/:id/:level/:days',
    {
      auth: requireAdmin,
      summary: 'Set the plan for a number of days (free clears it)',
      params: z.object({ id: IdParam, level: LevelSchema, days: z.coerce.number().int().min(0).max(3650) }),
      data: UserViewSchema,
    },
    async (req) => accounts.view(await accounts.setLevel(req.params.id, req.params.level, req.params.days)),
  );

  r.put(
    '/user/update/vip/level',
    {
      auth: requireAdmin,
      summary: 'Set the plan (body form of updateLevel)',
      body: SetLevelBody,
      data: UserViewSchema,
    },
    async (req) => accounts.view(await accounts.setLevel(req.body.id, req.body.level, req.body.days)),
  );

  r.post(
    '/user/addTime/:id/:num',
    {
      auth: requireAdmin,
      summary: 'Add (or remove, negative) days of the paid plan',
      params: z.object({ id: IdParam, num: z.coerce.number().int() }),
      data: UserViewSchema,
    },
    async (req) => accounts.view(await accounts.addTime(req.params.id, req.params.num)),
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
    r.get(
      path,
      {
        auth: requireAdmin,
        summary: "A user's detail: account, ledger, orders, videos, referrals (50 newest of each)",
        params: IdOnly,
        data: UserDetailSchema,
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
        return {
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
        };
      },
    );

  r.post(
    '/user/countUser',
    {
      auth: requireAdmin,
      summary: 'Count accounts (optionally since a time, of a type)',
      body: CountUserBody,
      data: CountSchema,
    },
    async (req) => ({ total: await accounts.count(req.body) }),
  );

  r.post(
    '/company/search',
    {
      auth: requireAdmin,
      tags: ['company'],
      summary: 'Search company accounts by e-mail or name',
      body: KeywordPage,
      data: pageOf(UserViewSchema),
    },
    async (req) => {
      return viewPage(await accounts.search({ ...req.body, type: 2 }));
    },
  );

  r.put(
    '/company/update/vip/level',
    {
      auth: requireAdmin,
      tags: ['company'],
      summary: 'Set the plan of a company account',
      body: SetLevelBody,
      data: UserViewSchema,
    },
    async (req) => {
      const u = await accounts.getUser(req.body.id);
      if (u.type !== 2) throw new AppError(Codes.NOT_FOUND, 'not a company account');
      return accounts.view(await accounts.setLevel(u.id, req.body.level, req.body.days));
    },
  );

  // Blacklist (spec §7 /sysConfig/blackListInfo plus insert, update): blacklisted accounts are refused with 408.
  r.post(
    '/sysConfig/blackListInfo',
    { auth: requireAdmin, summary: 'Blacklisted accounts', body: KeywordPage, data: pageOf(UserViewSchema) },
    async (req) => {
      return viewPage(await accounts.search({ ...req.body, blackFlag: true }));
    },
  );

  r.post(
    '/sysConfig/blackListInfo/insert',
    {
      auth: requireAdmin,
      summary: 'Blacklist an account by e-mail (ends its sessions)',
      body: z.object({ email: z.string().min(1).max(254) }),
      data: UserViewSchema,
    },
    async (req) => {
      const u = await accounts.findByEmail(req.body.email);
      return accounts.view(await accounts.adminUpdate(u.id, { blackFlag: true }));
    },
  );

  r.post(
    '/sysConfig/blackListInfo/update',
    {
      auth: requireAdmin,
      summary: 'Set or clear the blacklist flag of an account',
      body: z.object({ id: z.number().int().positive(), flag: z.boolean() }),
      data: UserViewSchema,
    },
    async (req) => accounts.view(await accounts.adminUpdate(req.body.id, { blackFlag: req.body.flag })),
  );

  r.post(
    '/user/scheduled/monthlyTopUp',
    {
      auth: requireAdmin,
      summary: "Run this month's free top-up now (idempotent: a second run in the month does nothing)",
      data: z.object({
        period: z.string(),
        skipped: z.boolean(),
        toppedUp: z.number().int(),
        coins: z.number().int(),
      }),
    },
    async () => app.ctx.services.scheduler.runMonthlyTopUp(),
  );
});

export default routes;
