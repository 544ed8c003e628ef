/**
 * Records of the money side (spec §7 Records, Company, Referral and cash-back): a user's orders and their
 * detail and A4 PDF, company orders, invoices (personal / business title, an administrator changes their
 * status), cash-back codes, commissions and payouts.
 */
import { randomBytes } from 'node:crypto';
import {
  CashbackPaidSchema,
  CashbackSchema,
  CashbackSummarySchema,
  InvoiceBody,
  InvoiceSchema,
  OrderSchema,
  SendCashbackBody,
} from '@mocap/contracts';
import { z } from 'zod';
import { AppError, Codes } from '../../errors.ts';
import { requireAdmin, requireCompany, requireUser, userOf } from '../../http/context.ts';
import { PageQuery, pageOf } from '../../http/envelope.ts';
import { routePlugin } from '../../http/route.ts';
import type { UserRecord } from '../../ports.ts';
import { isAdmin } from '../auth/service.ts';
import type { OrderRecord } from './ports.ts';

const OrderNoParams = z.object({ orderNo: z.string().regex(/^[A-Za-z0-9_-]{6,32}$/) });

const mask = (email: string) => {
  const [name, host] = email.split('@');
  return `${name.slice(0, 2)}***@${host ?? ''}`;
};

const tags = ['pay'];

const orderRoutes = routePlugin(tags, (r, { orders, accounts }) => {
  const view = async (o: OrderRecord, account?: string) => ({
    orderNo: o.orderNo,
    account: account ?? (await orders.userById(o.userId))?.email ?? '',
    goodsId: o.goodsId,
    type: o.goodsKind,
    title: o.title,
    amount: o.amount,
    method: o.method,
    status: o.status,
    createAt: o.createdAt,
    updateAt: o.updatedAt,
    expiresAt: o.expiresAt,
    paidAt: o.paidAt,
    tradeNo: o.tradeNo,
    coins: o.result?.coins ?? o.grant.coins + o.grant.bonus,
    bonus: o.grant.bonus,
    currency: o.grant.currency,
    levelAfter: o.result?.levelAfter ?? null,
    expiryAfter: o.result?.expiryAfter ?? null,
    carriedDays: o.result?.carriedDays ?? null,
    invoice: (await orders.invoiceOf(o.orderNo))?.status ?? null,
  });

  /** A page of the caller's orders of `kind` (the body's page and size; none: the first page). */
  const listFor = async (
    u: UserRecord,
    kind: 'individual' | 'company',
    body?: z.output<typeof PageQuery>,
  ) => {
    const q = PageQuery.parse(body ?? {});
    const p = await orders.list(u.id, kind, q.page, q.size);
    return { ...p, list: await Promise.all(p.list.map((o) => view(o, u.email))) };
  };

  r.post(
    '/user/order/record',
    {
      auth: requireUser,
      summary: 'Your orders, newest first',
      body: PageQuery.optional(),
      data: pageOf(OrderSchema),
    },
    async (req) => listFor(userOf(req), 'individual', req.body),
  );

  r.get(
    '/user/order/:orderNo',
    {
      auth: requireUser,
      summary: 'One of your orders (administrators: any order)',
      params: OrderNoParams,
      data: OrderSchema,
    },
    async (req) => {
      const u = userOf(req);
      return await view(await orders.ownOrder(u, req.params.orderNo, isAdmin(u)));
    },
  );

  r.get(
    '/user/order/:orderNo/pdf',
    {
      auth: requireUser,
      summary: 'The order as an A4 PDF (Chinese text in a CJK font)',
      params: OrderNoParams,
    },
    async (req, reply) => {
      const u = userOf(req);
      const o = await orders.ownOrder(u, req.params.orderNo, isAdmin(u));
      const v = await view(o);
      const pdf = await orders.receiptPdf({
        orderNo: o.orderNo,
        account: v.account,
        title: o.title,
        amount: o.amount,
        method: o.method,
        status: o.status,
        createdAt: o.createdAt,
        paidAt: o.paidAt,
        tradeNo: o.tradeNo,
        coins: v.coins,
        currency: o.grant.currency,
        expiryAfter: v.expiryAfter,
      });
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="order-${o.orderNo}.pdf"`)
        .send(pdf);
    },
  );

  // ---- company ----
  r.post(
    '/companyOrder/queryAll',
    {
      auth: requireCompany,
      tags: ['company'],
      summary: "The company's orders (CV-coin packs)",
      body: PageQuery.optional(),
      data: pageOf(OrderSchema),
    },
    async (req) => listFor(userOf(req), 'company', req.body),
  );

  r.get(
    '/companyOrder/queryDetail/:orderNo',
    {
      auth: requireCompany,
      tags: ['company'],
      summary: 'One company order',
      params: OrderNoParams,
      data: OrderSchema,
    },
    async (req) => view(await orders.ownOrder(userOf(req), req.params.orderNo)),
  );

  // ---- invoices ----
  const requestInvoice = async (
    u: UserRecord,
    body: z.infer<typeof InvoiceBody>,
    kind: 'personal' | 'business',
  ) => {
    if (kind === 'business' && !body.taxNo)
      throw new AppError(
        Codes.PARAMETER_ERROR,
        '企业发票需要填写税号 (a business invoice needs the tax number)',
      );
    const o = await orders.ownOrder(u, body.orderNo);
    if (o.status !== 'paid') throw new AppError(Codes.REFUSED, '订单未支付，无法开具发票');
    const created = await orders.createInvoice({
      userId: u.id,
      orderNo: o.orderNo,
      kind,
      title: body.title,
      taxNo: kind === 'business' ? (body.taxNo ?? null) : null,
      email: body.email,
      amount: o.amount,
    });
    if (!created) throw new AppError(Codes.REFUSED, '该订单已申请发票，请勿重复申请');
    return created;
  };
  for (const [url, kind, company] of [
    ['/code/personInvoice', 'personal', false],
    ['/code/personInvoice/business', 'business', false],
    ['/companyOrder/createInvoice', 'business', true],
  ] as const) {
    r.post(
      url,
      {
        auth: company ? requireCompany : requireUser,
        summary: `Request a ${kind} invoice for a paid order (one per order; an administrator issues it)`,
        body: InvoiceBody,
        data: InvoiceSchema,
      },
      async (req) => requestInvoice(userOf(req), req.body, kind),
    );
  }

  r.post(
    '/invoice/search',
    {
      auth: requireAdmin,
      tags: ['admin'],
      summary: 'Invoices requested (administrators)',
      body: PageQuery.extend({ status: z.enum(['pending', 'issued', 'rejected']).optional() }).optional(),
      data: pageOf(InvoiceSchema),
    },
    async (req) => {
      const b = PageQuery.extend({ status: z.enum(['pending', 'issued', 'rejected']).optional() }).parse(
        req.body ?? {},
      );
      return await orders.invoices(b);
    },
  );

  r.put(
    '/invoice/:id/:status',
    {
      auth: requireAdmin,
      tags: ['admin'],
      summary: 'Set an invoice issued or rejected (administrators)',
      params: z.object({
        id: z.coerce.number().int().positive(),
        status: z.enum(['pending', 'issued', 'rejected']),
      }),
      data: z.boolean(),
    },
    async (req) => {
      if (!(await orders.setInvoiceStatus(req.params.id, req.params.status)))
        throw new AppError(Codes.NOT_FOUND, 'invoice not found');
      return true;
    },
  );

  // ---- cash-back ----
  const CODE = /^[A-Za-z0-9]{4,16}$/;
  r.get(
    '/user/getRandomBackCashCode',
    {
      auth: requireUser,
      tags: ['referral'],
      summary: 'Your cash-back code (made on first call: 8 letters and digits)',
      data: z.string(),
    },
    async (req) => {
      const u = userOf(req);
      const have = await orders.cashbackCodeOf(u.id);
      if (have) return have;
      for (;;) {
        const code = randomBytes(6).toString('base64url').replace(/[-_]/g, 'x').slice(0, 8).toUpperCase();
        if (await orders.setCashbackCode(u.id, code)) return code;
      }
    },
  );

  r.post(
    '/user/setBackCashCode',
    {
      auth: requireUser,
      tags: ['referral'],
      summary: 'Choose your cash-back code (4–16 letters or digits, unique)',
      body: z.object({ code: z.string().regex(CODE, '4–16 letters or digits') }),
      data: z.string(),
    },
    async (req) => {
      const code = req.body.code.toUpperCase();
      if (!(await orders.setCashbackCode(userOf(req).id, code)))
        throw new AppError(Codes.REFUSED, '该返现码已被使用');
      return code;
    },
  );

  const cashbackPage = async (
    inviterId: number,
    status: 'pending' | 'paid' | undefined,
    page: number,
    size: number,
  ) => {
    const p = await orders.cashbackRecords({ inviterId, status, page, size });
    const list = await Promise.all(
      p.list.map(async (r) => ({
        ...r,
        invitee: mask((await orders.userById(r.inviteeId))?.email ?? ''),
      })),
    );
    return { ...p, list };
  };

  r.post(
    '/user/referral/cashBack',
    {
      auth: requireUser,
      tags: ['referral'],
      summary: 'Your commissions on the paid orders of people you invited',
      body: PageQuery.optional(),
      data: pageOf(CashbackSchema),
    },
    async (req) => {
      const q = PageQuery.parse(req.body ?? {});
      return await cashbackPage(userOf(req).id, undefined, q.page, q.size);
    },
  );

  r.post(
    '/user/referral/cash',
    {
      auth: requireUser,
      tags: ['referral'],
      summary: 'Cash-back totals: rate, code, pending and paid-out commission (fen)',
      data: CashbackSummarySchema,
    },
    async (req) => {
      const u = userOf(req);
      const t = await orders.cashbackTotals(u.id);
      return {
        code: (await orders.cashbackCodeOf(u.id)) ?? null,
        rateBp: await orders.cashbackRate(),
        ...t,
      };
    },
  );

  r.post(
    '/sysConfig/setCashBack',
    {
      auth: requireAdmin,
      tags: ['admin'],
      summary: 'Set the cash-back rate in basis points of the order amount (1000 = 10 %)',
      body: z.object({ rateBp: z.number().int().min(0).max(10_000) }),
      data: z.number().int(),
    },
    async (req) => {
      await orders.setCashbackRate(req.body.rateBp);
      return req.body.rateBp;
    },
  );

  r.post(
    '/companyOrder/sendCashBack',
    {
      auth: requireAdmin,
      tags: ['admin'],
      summary: "Mark an inviter's pending commissions paid out (all, or the ids given)",
      body: SendCashbackBody,
      data: CashbackPaidSchema,
    },
    async (req) => {
      await accounts.getUser(req.body.userId);
      let ids = req.body.ids;
      if (!ids) {
        const all = await orders.cashbackRecords({
          inviterId: req.body.userId,
          status: 'pending',
          page: 1,
          size: 10_000,
        });
        ids = all.list.map((r) => r.id);
      } else {
        const mine = await orders.cashbackRecords({
          inviterId: req.body.userId,
          status: 'pending',
          page: 1,
          size: 10_000,
        });
        const own = new Set(mine.list.map((r) => r.id));
        ids = ids.filter((i) => own.has(i));
      }
      return await orders.markCashbackPaid(ids);
    },
  );
});

export default orderRoutes;
