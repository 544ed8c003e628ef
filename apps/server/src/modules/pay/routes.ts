/**
 * Payment routes (spec §7 "Payment"): WeChat Pay Native prepay and polling, Alipay page pay (form HTML), their
 * company variants, and the providers' notices / the browser's return from Alipay. Notices are answered in
 * each provider's own format; a notice that fails verification (forged signature, stale or replayed, wrong
 * amount, unknown order, undecryptable) is refused and pays nothing.
 */
import { PayMethodsSchema, PrepaySchema } from '@mocap/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser, userOf } from '../../http/context.ts';
import { envelope, IdParam, ok } from '../../http/envelope.ts';
import { routePlugin } from '../../http/route.ts';
import { PaymentNoticeError } from '../order/ports.ts';

const GoodsParams = z.object({ goodsId: IdParam });
const CompanyParams = z.object({ id: IdParam });
const RenewQuery = z.object({
  renew: z
    .enum(['0', '1'])
    .optional()
    .describe('1: close the open order of these goods and make a fresh one (after the countdown ran out)'),
});
const OrderNoParams = z.object({ orderNo: z.string().regex(/^[A-Za-z0-9_-]{6,32}$/) });

const tags = ['pay'];

const payRoutes = routePlugin(tags, async (r, { pay }, app) => {
  r.get(
    '/pay/methods',
    {
      summary: 'Which payment methods are available, and whether the payment sandbox plays the providers',
      data: PayMethodsSchema,
    },
    async () => pay.methods(),
  );

  const wxPrepay = (company: boolean) => async (req: FastifyRequest) => {
    const p = req.params as { goodsId?: number; id?: number };
    const renew = (req.query as { renew?: string } | undefined)?.renew === '1';
    return ok(await pay.wxPrepay(userOf(req), (p.goodsId ?? p.id) as number, company, renew));
  };
  r.post(
    '/wx/prepay/:goodsId',
    {
      auth: requireUser,
      summary:
        'WeChat Pay Native order for the goods: QR code URL and order number (an open order is reused)',
      description: 'Company accounts are refused 307 企业用户无法购买该类型商品.',
      params: GoodsParams,
      query: RenewQuery,
      response: { 200: envelope(PrepaySchema) },
    },
    wxPrepay(false),
  );
  r.post(
    '/wx/company/prepay/:id',
    {
      auth: requireUser,
      summary: 'WeChat Pay Native order for a company product (CV coins)',
      params: CompanyParams,
      query: RenewQuery,
      response: { 200: envelope(PrepaySchema) },
    },
    wxPrepay(true),
  );

  r.get(
    '/wx/order/:orderNo',
    {
      auth: requireUser,
      summary:
        'Whether the order is paid (polled every 2 s by the payment modal); asks the provider when pending',
      params: OrderNoParams,
      data: z.boolean(),
    },
    async (req) => pay.isPaid(userOf(req), req.params.orderNo),
  );

  const aliForm = (company: boolean) => async (req: FastifyRequest) => {
    const p = req.params as { goodsId?: number; id?: number };
    const r = await pay.alipayForm(userOf(req), (p.goodsId ?? p.id) as number, company);
    return ok(r.html);
  };
  r.post(
    '/alipay/palace/:goodsId',
    {
      auth: requireUser,
      summary: 'Alipay page pay for the goods: the auto-submitting form HTML (alipay.trade.page.pay, RSA2)',
      params: GoodsParams,
      response: { 200: envelope(z.string()) },
    },
    aliForm(false),
  );
  r.post(
    '/alipay/company/palace/:id',
    {
      auth: requireUser,
      summary: 'Alipay page pay for a company product',
      params: CompanyParams,
      response: { 200: envelope(z.string()) },
    },
    aliForm(true),
  );

  // Provider callbacks: raw bodies (WeChat signs the exact text; Alipay posts a form), answers in their formats.
  await app.register(async (cb) => {
    cb.removeAllContentTypeParsers();
    cb.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    const log = (req: FastifyRequest, e: unknown) =>
      req.log.warn({ err: (e as Error).message }, 'payment notice refused');

    cb.post('/pay/wx/notify', { schema: { hide: true } }, async (req, reply) => {
      try {
        await pay.wxNotice(
          req.headers as Record<string, string>,
          typeof req.body === 'string' ? req.body : '',
        );
        return reply.status(204).send();
      } catch (e) {
        if (!(e instanceof PaymentNoticeError)) throw e;
        log(req, e);
        return reply.status(400).send({ code: 'FAIL', message: e.message });
      }
    });

    cb.post('/pay/alipay/notify', { schema: { hide: true } }, async (req, reply) => {
      const params = Object.fromEntries(new URLSearchParams(typeof req.body === 'string' ? req.body : ''));
      try {
        await pay.alipayNotice(params);
        return reply.type('text/plain').send('success');
      } catch (e) {
        if (!(e instanceof PaymentNoticeError)) throw e;
        log(req, e);
        return reply.status(400).type('text/plain').send('fail');
      }
    });

    cb.get('/pay/alipay/return', { schema: { hide: true } }, async (req, reply) => {
      const params = Object.fromEntries(
        Object.entries(req.query as Record<string, unknown>).filter(([, v]) => typeof v === 'string'),
      ) as Record<string, string>;
      return reply.redirect(await pay.alipayReturn(params), 302);
    });
  });
});

export default payRoutes;
