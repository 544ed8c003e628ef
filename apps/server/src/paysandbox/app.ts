/**
 * The payment sandbox: plays WeChat Pay API v3 (Native) and Alipay's open-platform gateway with its own keys,
 * so the product's real payment code (request signing, answer and notice verification, AEAD decryption,
 * order query and close) runs end to end on one machine. Its code URL opens a "phone" page with Pay / Cancel;
 * its gateway shows a cashier page. Paying sends the signed notice to the merchant's notify URL, exactly as the
 * platforms do (WeChat: RSA-SHA256 headers + AES-256-GCM resource; Alipay: RSA2 form fields).
 *
 * A Fastify plugin (mounted at /paysandbox by the server when no merchant credentials are configured) or a
 * standalone app (`main.ts`). State is in memory: it is a sandbox.
 */
import { createCipheriv, createHash, createSign, createVerify, randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxKeys } from './keys.ts';

export interface SandboxOptions {
  keys: SandboxKeys;
  /** Base URL where browsers reach this sandbox (for the code URL and the cashier), e.g. http://host/paysandbox. */
  publicBase: (req: FastifyRequest) => string;
  /** Time source (seconds in signatures). */
  now?: () => number;
  /** How notices are delivered (tests may observe them); default fetch. */
  deliver?: (
    url: string,
    init: { method: 'POST'; headers: Record<string, string>; body: string },
  ) => Promise<number>;
}

interface WxTrade {
  outTradeNo: string;
  description: string;
  total: number;
  notifyUrl: string;
  expiresAt: number | null;
  state: 'NOTPAY' | 'SUCCESS' | 'CLOSED';
  transactionId: string | null;
  token: string;
  paidAt: number | null;
  notified: number | null;
}

interface AliTrade {
  outTradeNo: string;
  subject: string;
  totalAmount: string;
  notifyUrl: string | null;
  returnUrl: string | null;
  expiresAt: number | null;
  status: 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED';
  tradeNo: string | null;
  token: string;
  opened: boolean;
  paidAt: number | null;
}

export interface SandboxState {
  wechat: Map<string, WxTrade>;
  alipay: Map<string, AliTrade>;
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const yuan = (fen: number) => `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;

/** The note a cancelled payment page shows. */
const CANCELLED = `<p class="muted" data-state="cancelled">已取消支付 Payment cancelled</p>`;

/**
 * A sandbox payment page (the WeChat "phone", the Alipay cashier): what is bought, the amount, the order rows,
 * then paid / closed, or the pay and cancel buttons (POST `action`/pay, `action`/cancel).
 */
function payPage(o: {
  title: string;
  header: string;
  what: string;
  amount: string;
  rows: string;
  paid: boolean;
  closed: string | null;
  action: string;
  payLabel: string;
  note: string;
  accent: string;
  wide?: boolean;
}): string {
  const done = o.paid
    ? `<p class="ok" data-state="paid">支付成功 Payment successful</p>`
    : o.closed
      ? `<p class="bad" data-state="closed">${o.closed}</p>`
      : '';
  const buttons = done
    ? ''
    : `<form method="post" action="${o.action}/pay"><button class="pay" id="pay" type="submit">${o.payLabel}</button></form>
<form method="post" action="${o.action}/cancel"><button class="cancel" id="cancel" type="submit">取消 Cancel</button></form>`;
  return page(
    o.title,
    `<header>${o.header}<span class="tag">SANDBOX</span></header><main>
<div class="muted">${esc(o.what)}</div><div class="amt">¥${o.amount}</div>
${o.rows}${o.note}${done}${buttons}</main>`,
    o.accent,
    o.wide ?? false,
  );
}

function page(title: string, body: string, accent: string, wide = false): string {
  return `<!doctype html><html lang="zh"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title><style>
body{margin:0;font-family:system-ui,"WenQuanYi Micro Hei",sans-serif;background:#eef0f3;color:#222;display:flex;justify-content:center}
.phone{width:360px;min-height:100vh;background:#fff;box-shadow:0 0 20px #0002;display:flex;flex-direction:column}
header{background:${accent};color:#fff;padding:16px 20px;font-size:18px;font-weight:600}
main{padding:28px 24px;flex:1}.amt{font-size:40px;font-weight:700;margin:12px 0 4px}.muted{color:#777;font-size:14px}
.row{display:flex;justify-content:space-between;border-top:1px solid #eee;padding:10px 0;font-size:14px}
button{width:100%;padding:14px;font-size:17px;border:0;border-radius:8px;margin-top:14px;cursor:pointer}
.pay{background:${accent};color:#fff}.cancel{background:#f2f2f2;color:#333}.ok{color:#1a7f37;font-size:22px;font-weight:600}
.bad{color:#b42318;font-size:22px;font-weight:600}.tag{display:inline-block;background:#fff3;border-radius:4px;padding:2px 6px;font-size:12px;margin-left:8px}
</style></head><body><div class="phone"${wide ? ' style="width:560px"' : ''}>${body}</div></body></html>`;
}

function sortedQuery(params: Record<string, string>, omit: string[]): string {
  return Object.keys(params)
    .filter((k) => !omit.includes(k) && params[k] !== undefined && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

export function createPaySandbox(opts: SandboxOptions): { plugin: FastifyPluginAsync; state: SandboxState } {
  const { keys } = opts;
  const now = opts.now ?? (() => Date.now());
  const deliver =
    opts.deliver ??
    (async (url, init) => {
      const r = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
      await r.arrayBuffer();
      return r.status;
    });
  const state: SandboxState = { wechat: new Map(), alipay: new Map() };
  const byToken = <T extends { token: string }>(m: Map<string, T>, token: string) =>
    [...m.values()].find((t) => t.token === token);

  // ---- WeChat Pay API v3 ---------------------------------------------------------------------------------
  const wx = keys.wechat;

  /** Verifies the merchant's WECHATPAY2-SHA256-RSA2048 Authorization of a request. */
  function verifyWxRequest(req: FastifyRequest, body: string): string | null {
    const h = req.headers.authorization ?? '';
    const m = /^WECHATPAY2-SHA256-RSA2048\s+(.+)$/.exec(h);
    if (!m) return 'missing WECHATPAY2-SHA256-RSA2048 authorization';
    const f = Object.fromEntries(
      [...m[1].matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]] as [string, string]),
    );
    if (f.mchid !== wx.mchid) return 'mchid mismatch';
    if (f.serial_no !== wx.merchantSerial) return 'unknown merchant certificate serial';
    if (Math.abs(Number(f.timestamp) * 1000 - now()) > 300_000) return 'timestamp expired';
    const message = `${req.method}\n${req.url}\n${f.timestamp}\n${f.nonce_str}\n${body}\n`;
    const ok = createVerify('RSA-SHA256')
      .update(message)
      .verify(wx.merchantPublicKey, f.signature ?? '', 'base64');
    return ok ? null : 'signature verification failed';
  }

  function wxSignHeaders(body: string): Record<string, string> {
    const ts = String(Math.floor(now() / 1000));
    const nonce = randomBytes(16).toString('hex');
    const sig = createSign('RSA-SHA256')
      .update(`${ts}\n${nonce}\n${body}\n`)
      .sign(wx.platformPrivateKey, 'base64');
    return {
      'Wechatpay-Timestamp': ts,
      'Wechatpay-Nonce': nonce,
      'Wechatpay-Signature': sig,
      'Wechatpay-Serial': wx.platformSerial,
      'Request-ID': randomUUID(),
    };
  }

  function wxSend(reply: FastifyReply, status: number, data: unknown | null) {
    const body = data === null ? '' : JSON.stringify(data);
    reply.headers(wxSignHeaders(body)).status(status);
    if (data === null) return reply.send();
    return reply.type('application/json').send(body);
  }

  const wxTx = (t: WxTrade) => ({
    appid: wx.appid,
    mchid: wx.mchid,
    out_trade_no: t.outTradeNo,
    transaction_id: t.transactionId ?? undefined,
    trade_type: 'NATIVE',
    trade_state: t.state,
    trade_state_desc: { NOTPAY: '未支付', SUCCESS: '支付成功', CLOSED: '已关闭' }[t.state],
    bank_type: t.state === 'SUCCESS' ? 'OTHERS' : undefined,
    success_time: t.paidAt ? new Date(t.paidAt).toISOString() : undefined,
    payer: t.state === 'SUCCESS' ? { openid: 'o-sandbox-payer' } : undefined,
    amount: {
      total: t.total,
      payer_total: t.state === 'SUCCESS' ? t.total : undefined,
      currency: 'CNY',
      payer_currency: 'CNY',
    },
  });

  /** The signed, encrypted TRANSACTION.SUCCESS notice of a paid trade. */
  function wxNotice(t: WxTrade): { headers: Record<string, string>; body: string } {
    const nonce = randomBytes(6).toString('hex');
    const aad = 'transaction';
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(wx.apiV3Key), Buffer.from(nonce));
    cipher.setAAD(Buffer.from(aad));
    const enc = Buffer.concat([cipher.update(JSON.stringify(wxTx(t))), cipher.final(), cipher.getAuthTag()]);
    const body = JSON.stringify({
      id: randomUUID(),
      create_time: new Date(now()).toISOString(),
      resource_type: 'encrypt-resource',
      event_type: 'TRANSACTION.SUCCESS',
      summary: '支付成功',
      resource: {
        original_type: 'transaction',
        algorithm: 'AEAD_AES_256_GCM',
        ciphertext: enc.toString('base64'),
        associated_data: aad,
        nonce,
      },
    });
    return { headers: { 'Content-Type': 'application/json', ...wxSignHeaders(body) }, body };
  }

  async function wxNotify(t: WxTrade): Promise<number> {
    const n = wxNotice(t);
    try {
      const status = await deliver(t.notifyUrl, { method: 'POST', headers: n.headers, body: n.body });
      if (status >= 200 && status < 300) t.notified = now();
      return status;
    } catch {
      return 0;
    }
  }

  // ---- Alipay gateway --------------------------------------------------------------------------------------
  const ali = keys.alipay;
  const aliSign = (params: Record<string, string>) =>
    createSign('RSA-SHA256')
      .update(sortedQuery(params, ['sign', 'sign_type']))
      .sign(ali.alipayPrivateKey, 'base64');
  const aliTime = () => new Date(now() + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');

  function verifyAliRequest(params: Record<string, string>): string | null {
    if (params.app_id !== ali.appId) return 'invalid app_id';
    if (params.sign_type !== 'RSA2') return 'sign_type must be RSA2';
    const ok = createVerify('RSA-SHA256')
      .update(sortedQuery(params, ['sign']))
      .verify(ali.appPublicKey, params.sign ?? '', 'base64');
    return ok ? null : 'isv.invalid-signature';
  }

  function aliAnswer(reply: FastifyReply, method: string, data: Record<string, unknown>) {
    const key = `${method.replaceAll('.', '_')}_response`;
    const inner = JSON.stringify(data);
    const sign = createSign('RSA-SHA256').update(inner).sign(ali.alipayPrivateKey, 'base64');
    return reply.type('application/json; charset=utf-8').send(`{"${key}":${inner},"sign":"${sign}"}`);
  }

  /** A signed "Business Failed" answer (code 40004) with its sub code and message. */
  const aliFail = (reply: FastifyReply, method: string, subCode: string, subMsg: string) =>
    aliAnswer(reply, method, { code: '40004', msg: 'Business Failed', sub_code: subCode, sub_msg: subMsg });

  function aliNotice(t: AliTrade): Record<string, string> {
    const p: Record<string, string> = {
      notify_time: aliTime(),
      notify_type: 'trade_status_sync',
      notify_id: randomBytes(16).toString('hex'),
      charset: 'utf-8',
      version: '1.0',
      app_id: ali.appId,
      trade_no: t.tradeNo ?? '',
      out_trade_no: t.outTradeNo,
      trade_status: t.status,
      total_amount: t.totalAmount,
      receipt_amount: t.totalAmount,
      buyer_pay_amount: t.totalAmount,
      subject: t.subject,
      gmt_create: aliTime(),
      gmt_payment: aliTime(),
      seller_id: '2088000000000001',
    };
    return { ...p, sign: aliSign(p), sign_type: 'RSA2' };
  }

  async function aliNotify(t: AliTrade): Promise<number> {
    if (!t.notifyUrl) return 0;
    try {
      return await deliver(t.notifyUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' },
        body: new URLSearchParams(aliNotice(t)).toString(),
      });
    } catch {
      return 0;
    }
  }

  const expired = (t: { expiresAt: number | null }) => t.expiresAt !== null && t.expiresAt <= now();

  const plugin: FastifyPluginAsync = async (app: FastifyInstance) => {
    // Raw bodies: WeChat signs the exact JSON text; Alipay posts forms.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

    const rawOf = (req: FastifyRequest) => (typeof req.body === 'string' ? req.body : '');
    const html = (reply: FastifyReply, body: string) => reply.type('text/html; charset=utf-8').send(body);

    /**
     * A payment page (`fields` of a trade) and its pay and cancel buttons (`base`/:token/pay, `base`/:token/cancel);
     * an unknown token is a 404 with `unknown`. Paying runs `pay` (marks an open trade paid and sends its notice),
     * which answers or leaves the answer to the page; cancelling shows the page with the cancelled note.
     * Returns the page of a trade.
     */
    function payButtons<T extends { token: string }>(
      base: string,
      trades: Map<string, T>,
      unknown: string,
      fields: (t: T) => Omit<Parameters<typeof payPage>[0], 'action' | 'note'>,
      pay: (t: T, reply: FastifyReply) => Promise<FastifyReply | undefined>,
    ) {
      const show = (t: T, note = '') =>
        payPage({ ...fields(t), action: `${app.prefix}${base}/${t.token}`, note });
      app.post<{ Params: { token: string } }>(`${base}/:token/pay`, async (req, reply) => {
        const t = byToken(trades, req.params.token);
        if (!t) return reply.status(404).send(unknown);
        return (await pay(t, reply)) ?? html(reply, show(t));
      });
      app.post<{ Params: { token: string } }>(`${base}/:token/cancel`, async (req, reply) => {
        const t = byToken(trades, req.params.token);
        if (!t) return reply.status(404).send(unknown);
        return html(reply, show(t, CANCELLED));
      });
      return show;
    }

    // WeChat: Native order.
    app.post('/wechat/v3/pay/transactions/native', async (req, reply) => {
      const raw = rawOf(req);
      const bad = verifyWxRequest(req, raw);
      if (bad) return wxSend(reply, 401, { code: 'SIGN_ERROR', message: bad });
      let b: {
        appid?: string;
        mchid?: string;
        description?: string;
        out_trade_no?: string;
        time_expire?: string;
        notify_url?: string;
        amount?: { total?: number; currency?: string };
      };
      try {
        b = JSON.parse(raw);
      } catch {
        return wxSend(reply, 400, { code: 'PARAM_ERROR', message: 'body is not JSON' });
      }
      const total = b.amount?.total;
      if (b.appid !== wx.appid || b.mchid !== wx.mchid)
        return wxSend(reply, 400, { code: 'APPID_MCHID_NOT_MATCH', message: 'appid和mch_id不匹配' });
      if (!b.out_trade_no || !/^[0-9A-Za-z_\-|*]{6,32}$/.test(b.out_trade_no))
        return wxSend(reply, 400, { code: 'PARAM_ERROR', message: 'out_trade_no invalid' });
      if (
        !Number.isInteger(total) ||
        (total as number) <= 0 ||
        !b.notify_url?.startsWith('http') ||
        !b.description
      )
        return wxSend(reply, 400, {
          code: 'PARAM_ERROR',
          message: 'amount, description or notify_url invalid',
        });
      const existing = state.wechat.get(b.out_trade_no);
      if (existing) {
        if (existing.state === 'SUCCESS')
          return wxSend(reply, 400, { code: 'ORDERPAID', message: '该订单已支付' });
        if (existing.state === 'CLOSED')
          return wxSend(reply, 400, { code: 'ORDER_CLOSED', message: '订单已关闭' });
        if (existing.total !== total)
          return wxSend(reply, 400, { code: 'OUT_TRADE_NO_USED', message: '商户订单号重复' });
      }
      const t: WxTrade = existing ?? {
        outTradeNo: b.out_trade_no,
        description: b.description,
        total: total as number,
        notifyUrl: b.notify_url,
        expiresAt: b.time_expire ? Date.parse(b.time_expire) : null,
        state: 'NOTPAY',
        transactionId: null,
        token: randomBytes(12).toString('base64url'),
        paidAt: null,
        notified: null,
      };
      state.wechat.set(t.outTradeNo, t);
      return wxSend(reply, 200, { code_url: `${opts.publicBase(req)}/wechat/phone/${t.token}` });
    });

    app.get<{ Params: { no: string }; Querystring: { mchid?: string } }>(
      '/wechat/v3/pay/transactions/out-trade-no/:no',
      async (req, reply) => {
        const bad = verifyWxRequest(req, '');
        if (bad) return wxSend(reply, 401, { code: 'SIGN_ERROR', message: bad });
        if (req.query.mchid !== wx.mchid)
          return wxSend(reply, 400, { code: 'PARAM_ERROR', message: 'mchid' });
        const t = state.wechat.get(req.params.no);
        if (!t) return wxSend(reply, 404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
        if (t.state === 'NOTPAY' && expired(t)) t.state = 'CLOSED';
        return wxSend(reply, 200, wxTx(t));
      },
    );

    app.post<{ Params: { no: string } }>(
      '/wechat/v3/pay/transactions/out-trade-no/:no/close',
      async (req, reply) => {
        const raw = rawOf(req);
        const bad = verifyWxRequest(req, raw);
        if (bad) return wxSend(reply, 401, { code: 'SIGN_ERROR', message: bad });
        const t = state.wechat.get(req.params.no);
        if (!t) return wxSend(reply, 404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
        if (t.state === 'SUCCESS') return wxSend(reply, 400, { code: 'ORDERPAID', message: '订单已支付' });
        t.state = 'CLOSED';
        return wxSend(reply, 204, null);
      },
    );

    // WeChat: the "phone" that scanned the code.
    const wxPage = (t: WxTrade) => ({
      title: '微信支付 WeChat Pay (sandbox)',
      header: '微信支付 WeChat Pay',
      what: t.description,
      amount: yuan(t.total),
      rows: `<div class="row"><span>商户单号 Order</span><span>${esc(t.outTradeNo)}</span></div>
<div class="row"><span>收款方 Payee</span><span>mocap</span></div>`,
      paid: t.state === 'SUCCESS',
      closed: t.state === 'CLOSED' || expired(t) ? '订单已关闭 Order closed' : null,
      payLabel: '立即支付 Pay',
      accent: '#07c160',
    });
    const wxPay = async (t: WxTrade) => {
      if (t.state !== 'NOTPAY' || expired(t)) return undefined;
      t.state = 'SUCCESS';
      t.paidAt = now();
      t.transactionId = `42000${Date.now()}${randomBytes(3).toString('hex')}`.slice(0, 32);
      await wxNotify(t);
      return undefined;
    };
    const wxPhone = payButtons('/wechat/phone', state.wechat, 'unknown code', wxPage, wxPay);

    app.get<{ Params: { token: string } }>('/wechat/phone/:token', async (req, reply) => {
      const t = byToken(state.wechat, req.params.token);
      if (!t)
        return reply
          .status(404)
          .type('text/html')
          .send(page('404', '<main>二维码已失效</main>', '#07c160'));
      return html(reply, wxPhone(t));
    });

    // Alipay: the open-platform gateway.
    const aliParams = (req: FastifyRequest): Record<string, string> => {
      const q = req.query as Record<string, string>;
      const form = Object.fromEntries(new URLSearchParams(rawOf(req)));
      return { ...q, ...form };
    };

    const aliPage = (t: AliTrade) => ({
      title: '支付宝收银台 Alipay cashier (sandbox)',
      header: '支付宝 Alipay',
      what: t.subject,
      amount: esc(t.totalAmount),
      rows: `<div class="row"><span>商户订单号 Order</span><span>${esc(t.outTradeNo)}</span></div>`,
      paid: t.status === 'TRADE_SUCCESS',
      closed: t.status === 'TRADE_CLOSED' || expired(t) ? '交易已关闭 Trade closed' : null,
      payLabel: '确认付款 Pay',
      accent: '#1677ff',
      wide: true,
    });
    const aliPay = async (t: AliTrade, reply: FastifyReply) => {
      if (t.status === 'WAIT_BUYER_PAY' && !expired(t)) {
        t.status = 'TRADE_SUCCESS';
        t.paidAt = now();
        t.tradeNo = `2026${Date.now()}${randomBytes(4).toString('hex')}`.slice(0, 28);
        await aliNotify(t);
      }
      // Paid with a return URL: back to the merchant's page with the signed return parameters.
      if (t.status !== 'TRADE_SUCCESS' || !t.returnUrl) return undefined;
      const r: Record<string, string> = {
        charset: 'utf-8',
        out_trade_no: t.outTradeNo,
        method: 'alipay.trade.page.pay.return',
        total_amount: t.totalAmount,
        trade_no: t.tradeNo ?? '',
        auth_app_id: ali.appId,
        version: '1.0',
        app_id: ali.appId,
        seller_id: '2088000000000001',
        timestamp: aliTime(),
      };
      const q = new URLSearchParams({ ...r, sign: aliSign(r), sign_type: 'RSA2' });
      return reply.redirect(`${t.returnUrl}${t.returnUrl.includes('?') ? '&' : '?'}${q}`, 302);
    };
    const cashier = payButtons('/alipay/cashier', state.alipay, 'unknown trade', aliPage, aliPay);

    const gateway = async (req: FastifyRequest, reply: FastifyReply) => {
      const p = aliParams(req);
      const method = p.method ?? '';
      const bad = verifyAliRequest(p);
      let biz: Record<string, string> = {};
      try {
        biz = JSON.parse(p.biz_content ?? '{}');
      } catch {
        biz = {};
      }
      if (method === 'alipay.trade.page.pay') {
        if (bad)
          return reply
            .status(400)
            .type('text/html; charset=utf-8')
            .send(page('错误', `<main>${esc(bad)}</main>`, '#1677ff'));
        const no = biz.out_trade_no;
        if (
          !no ||
          !/^\d+(\.\d{1,2})?$/.test(biz.total_amount ?? '') ||
          biz.product_code !== 'FAST_INSTANT_TRADE_PAY'
        )
          return reply
            .status(400)
            .type('text/html; charset=utf-8')
            .send(page('错误', '<main>参数错误 invalid arguments</main>', '#1677ff'));
        let t = state.alipay.get(no);
        if (!t) {
          t = {
            outTradeNo: no,
            subject: biz.subject ?? '',
            totalAmount: biz.total_amount,
            notifyUrl: p.notify_url ?? null,
            returnUrl: p.return_url ?? null,
            expiresAt: biz.time_expire ? Date.parse(`${biz.time_expire.replace(' ', 'T')}+08:00`) : null,
            status: 'WAIT_BUYER_PAY',
            tradeNo: null,
            token: randomBytes(12).toString('base64url'),
            opened: true,
            paidAt: null,
          };
          state.alipay.set(no, t);
        }
        return html(reply, cashier(t));
      }
      if (bad)
        return aliAnswer(reply, method, {
          code: '40002',
          msg: 'Invalid Arguments',
          sub_code: 'isv.invalid-signature',
          sub_msg: bad,
        });
      const t = state.alipay.get(biz.out_trade_no ?? '');
      if (method === 'alipay.trade.query') {
        if (!t) return aliFail(reply, method, 'ACQ.TRADE_NOT_EXIST', '交易不存在');
        if (t.status === 'WAIT_BUYER_PAY' && expired(t)) t.status = 'TRADE_CLOSED';
        return aliAnswer(reply, method, {
          code: '10000',
          msg: 'Success',
          out_trade_no: t.outTradeNo,
          trade_no: t.tradeNo ?? '',
          trade_status: t.status,
          total_amount: t.totalAmount,
          buyer_pay_amount: t.status === 'TRADE_SUCCESS' ? t.totalAmount : '0.00',
        });
      }
      if (method === 'alipay.trade.close') {
        if (!t) return aliFail(reply, method, 'ACQ.TRADE_NOT_EXIST', '交易不存在');
        if (t.status === 'TRADE_SUCCESS')
          return aliFail(reply, method, 'ACQ.TRADE_STATUS_ERROR', '交易状态不合法');
        t.status = 'TRADE_CLOSED';
        return aliAnswer(reply, method, { code: '10000', msg: 'Success', out_trade_no: t.outTradeNo });
      }
      return aliFail(reply, method || 'error', 'isv.invalid-method', `unknown method ${method}`);
    };
    app.post('/alipay/gateway.do', gateway);
    app.get('/alipay/gateway.do', gateway);
  };

  return { plugin, state };
}

/** A stable fingerprint of the sandbox keys (logged at boot so operators can tell which keys are live). */
export const keyFingerprint = (pem: string) => createHash('sha256').update(pem).digest('hex').slice(0, 12);
