/**
 * Payments (issue 19) on SQLite and PostgreSQL: goods, orders, fulfilment through the real protocol clients
 * against the payment sandbox (the server listens so the clients, the sandbox and the notices go over HTTP),
 * month → year upgrade, company refusal, expiry and close, and the protocol checks of notices: forged
 * signature, stale replay, duplicate and twenty concurrent notices, wrong amount, unknown order, decryption
 * failure — refused, nothing paid.
 */
import { createCipheriv, createSign, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import type { SandboxKeys } from '../src/paysandbox/keys.ts';
import { DAY_MS } from '../src/ports.ts';
import { databases, useServer } from './harness.ts';

interface OrderView {
  orderNo: string;
  status: string;
  amount: number;
  coins: number;
  levelAfter: string | null;
  expiryAfter: number | null;
  carriedDays: number | null;
}
interface Info {
  user: { surplus: number; level: string; vexpiredAt: number | null; isPursh: number };
}

/** A WeChat Pay TRANSACTION.SUCCESS notice as the platform makes it, with the keys given. */
function wxNotice(
  keys: SandboxKeys['wechat'],
  tx: { orderNo: string; total: number; state?: string },
  opts: { signKey?: string; apiV3Key?: string; timestamp?: number; id?: string } = {},
) {
  const resource = JSON.stringify({
    appid: keys.appid,
    mchid: keys.mchid,
    out_trade_no: tx.orderNo,
    transaction_id: `4200${randomBytes(8).toString('hex')}`,
    trade_state: tx.state ?? 'SUCCESS',
    amount: { total: tx.total, payer_total: tx.total, currency: 'CNY' },
  });
  const nonce = randomBytes(6).toString('hex');
  const c = createCipheriv('aes-256-gcm', Buffer.from(opts.apiV3Key ?? keys.apiV3Key), Buffer.from(nonce));
  c.setAAD(Buffer.from('transaction'));
  const enc = Buffer.concat([c.update(resource), c.final(), c.getAuthTag()]).toString('base64');
  const body = JSON.stringify({
    id: opts.id ?? randomUUID(),
    create_time: new Date().toISOString(),
    event_type: 'TRANSACTION.SUCCESS',
    resource_type: 'encrypt-resource',
    summary: '支付成功',
    resource: { algorithm: 'AEAD_AES_256_GCM', ciphertext: enc, associated_data: 'transaction', nonce },
  });
  const ts = String(Math.floor((opts.timestamp ?? Date.now()) / 1000));
  const n = randomBytes(16).toString('hex');
  const sig = createSign('RSA-SHA256')
    .update(`${ts}\n${n}\n${body}\n`)
    .sign(opts.signKey ?? keys.platformPrivateKey, 'base64');
  return {
    headers: {
      'content-type': 'application/json',
      'wechatpay-timestamp': ts,
      'wechatpay-nonce': n,
      'wechatpay-signature': sig,
      'wechatpay-serial': keys.platformSerial,
    },
    body,
  };
}

function alipaySign(params: Record<string, string>, key: string): Record<string, string> {
  const s = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  return { ...params, sign: createSign('RSA-SHA256').update(s).sign(key, 'base64'), sign_type: 'RSA2' };
}

/** Submits the Alipay form HTML as a browser would: fields posted to the action. */
async function submitForm(html: string): Promise<Response> {
  const action = /action="([^"]+)"/.exec(html)?.[1] ?? '';
  const fields = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
    fields.append(m[1], m[2].replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
  return fetch(action.replace(/&amp;/g, '&'), { method: 'POST', body: fields, redirect: 'manual' });
}

describe.each(databases)('payments on %s', (kind) => {
  const t = useServer(kind, { env: { PAY_SWEEP_SECONDS: '3600' } });
  let base = '';
  let keys: SandboxKeys;

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const a = t.app.server.address() as { port: number };
    base = `http://127.0.0.1:${a.port}`;
    // Signatures carry real time: the test clock starts at now.
    t.clock.t = Date.now();
    keys = t.infra.payment.sandboxKeys!;
  });

  // Notices carry real time (checked against the clock): every test starts at now.
  beforeEach(() => {
    t.clock.t = Date.now();
  });

  const info = async (token: string) =>
    (await t.call<Info>('GET', '/product/auth/info', { token })).data.user;
  const ledgerRows = async (orderNo: string) =>
    (await t.infra.database.db
      .selectFrom('coin_ledger')
      .select(['amount'])
      .where('ref', '=', `order:${orderNo}`)
      .execute()) as { amount: number }[];
  const order = async (token: string, orderNo: string) =>
    (await t.call<OrderView>('GET', `/product/user/order/${orderNo}`, { token })).data;
  const notify = (n: { headers: Record<string, string>; body: string }) =>
    t.app.inject({ method: 'POST', url: '/product/pay/wx/notify', headers: n.headers, payload: n.body });

  it('lists the goods with the spec prices and the sandbox as the embedded default', async () => {
    const g = await t.call<{
      list: { id: number; price: number; days: number | null; coins: number; offPercent: number | null }[];
    }>('GET', '/product/goods');
    const byId = new Map(g.data.list.map((x) => [x.id, x]));
    expect(byId.get(1)).toMatchObject({ price: 9900, days: 30 });
    expect(byId.get(2)).toMatchObject({ price: 77900, days: 360, coins: 15000, offPercent: 35 });
    expect(g.data.list.some((x) => x.id > 20)).toBe(false);
    const m = await t.call<{ mode: string; wechat: boolean; alipay: boolean }>('GET', '/product/pay/methods');
    expect(m.data).toEqual({ mode: 'sandbox', wechat: true, alipay: true });
  });

  it('buys monthly by WeChat Native: the phone page pays, the signed encrypted notice fulfils once', async () => {
    const { token } = await t.register(`wx-${kind}@example.com`);
    const before = await info(token);
    expect(before.isPursh).toBe(0);
    const p = await t.call<{ url: string; orderNo: string; amount: number }>('POST', '/product/wx/prepay/1', {
      token,
    });
    expect(p.code).toBe(0);
    expect(p.data.amount).toBe(9900);
    expect(p.data.url).toContain('/paysandbox/wechat/phone/');
    // Same goods again while the QR is valid: the same order and code.
    const again = await t.call<{ url: string; orderNo: string }>('POST', '/product/wx/prepay/1', { token });
    expect(again.data).toMatchObject({ url: p.data.url, orderNo: p.data.orderNo });
    expect((await t.call<boolean>('GET', `/product/wx/order/${p.data.orderNo}`, { token })).data).toBe(false);

    const phone = await fetch(p.data.url);
    expect(await phone.text()).toContain('¥99.00');
    const paid = await fetch(`${p.data.url}/pay`, { method: 'POST' });
    expect(await paid.text()).toContain('data-state="paid"');

    expect((await t.call<boolean>('GET', `/product/wx/order/${p.data.orderNo}`, { token })).data).toBe(true);
    const after = await info(token);
    expect(after.level).toBe('monthly');
    expect(after.vexpiredAt).toBe(t.clock.now() + 30 * DAY_MS);
    expect(after.surplus - before.surplus).toBe(1000);
    expect(after.isPursh).toBe(1);
    expect((await t.call('GET', '/product/user/sku/role', { token })).data).toEqual({
      isMonthly: true,
      isYear: false,
    });
    expect((await t.call('GET', '/product/auth/enhanced/purchasing', { token })).data).toBe(1);
    expect(await ledgerRows(p.data.orderNo)).toEqual([{ amount: 1000 }]);
    const rec = await t.call<{ list: OrderView[]; total: number }>('POST', '/product/user/order/record', {
      token,
      body: {},
    });
    expect(rec.data.total).toBe(1);
    expect(rec.data.list[0]).toMatchObject({
      orderNo: p.data.orderNo,
      status: 'paid',
      amount: 9900,
      coins: 1000,
    });

    // The PDF: one A4 page with the order number and amount.
    const pdf = await t.app.inject({
      method: 'GET',
      url: `/product/user/order/${p.data.orderNo}/pdf`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const { PDFParse } = await import('pdf-parse');
    const parser = new PDFParse({ data: new Uint8Array(pdf.rawPayload) });
    const text = await parser.getText();
    expect(text.total).toBe(1);
    expect(text.text).toContain(p.data.orderNo);
    expect(text.text).toContain('¥99.00');
    expect(text.text).toContain('订单凭证');
    await parser.destroy();
    expect(pdf.rawPayload.toString('latin1')).toMatch(/\/MediaBox \[0 0 595\.28 841\.89\]/);

    // Month → year through Alipay: the remaining 30 days are carried, 15000 V added.
    t.clock.advance(5 * DAY_MS);
    const form = await t.call<string>('POST', '/product/alipay/palace/2', { token });
    expect(form.code).toBe(0);
    expect(form.data).toContain('alipay.trade.page.pay');
    const cashier = await submitForm(form.data);
    const html = await cashier.text();
    expect(html).toContain('¥779.00');
    const payAction = /action="([^"]+\/pay)"/.exec(html)?.[1];
    const ret = await fetch(`${base}${payAction}`, { method: 'POST', redirect: 'manual' });
    expect(ret.status).toBe(302);
    const back = await t.app.inject({ method: 'GET', url: ret.headers.get('location')!.replace(base, '') });
    const loc = new URL(back.headers.location as string);
    expect(loc.pathname).toBe('/capture/asPay/view');
    expect(loc.searchParams.get('payStatus')).toBe('1');
    const yearNo = loc.searchParams.get('orderNo')!;
    const y = await order(token, yearNo);
    expect(y).toMatchObject({
      status: 'paid',
      amount: 77900,
      coins: 15000,
      levelAfter: 'yearly',
      carriedDays: 25,
    });
    const u = await info(token);
    expect(u.level).toBe('yearly');
    expect(u.vexpiredAt).toBe(t.clock.now() + 25 * DAY_MS + 360 * DAY_MS);
    expect(u.surplus - after.surplus).toBe(15000);
    expect((await t.call('GET', '/product/user/sku/role', { token })).data).toEqual({
      isMonthly: false,
      isYear: true,
    });
    // A yearly member is not sold the monthly plan.
    const m = await t.call('POST', '/product/wx/prepay/1', { token });
    expect(m.code).toBe(307);
  });

  it('refuses individual goods to a company account with the spec message', async () => {
    const { token } = await t.register(`co-${kind}@example.com`, { company: true });
    for (const url of ['/product/wx/prepay/1', '/product/alipay/palace/2', '/product/wx/prepay/11']) {
      const r = await t.call('POST', url, { token });
      expect(r.code).toBe(307);
      expect(r.message).toBe('企业用户无法购买该类型商品');
    }
    const c = await t.call<{ orderNo: string; amount: number }>('POST', '/product/wx/company/prepay/21', {
      token,
    });
    expect(c.code).toBe(0);
    expect(c.data.amount).toBe(10000);
  });

  it('refuses forged, stale, undecryptable, wrong-amount and unknown-order notices: nothing paid', async () => {
    const { token } = await t.register(`proto-${kind}@example.com`);
    const p = (await t.call<{ orderNo: string }>('POST', '/product/wx/prepay/11', { token })).data;
    const balance = (await info(token)).surplus;
    const forger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string;
    const cases = {
      forged: wxNotice(keys.wechat, { orderNo: p.orderNo, total: 1000 }, { signKey: forger }),
      stale: wxNotice(
        keys.wechat,
        { orderNo: p.orderNo, total: 1000 },
        { timestamp: Date.now() - 10 * 60_000 },
      ),
      undecryptable: wxNotice(
        keys.wechat,
        { orderNo: p.orderNo, total: 1000 },
        { apiV3Key: randomBytes(16).toString('hex') },
      ),
      wrongAmount: wxNotice(keys.wechat, { orderNo: p.orderNo, total: 1 }),
      unknownOrder: wxNotice(keys.wechat, { orderNo: 'MC00000000000000000000', total: 1000 }),
    };
    for (const [name, n] of Object.entries(cases)) {
      const r = await notify(n);
      expect(r.statusCode, name).toBe(400);
      expect(r.json().code, name).toBe('FAIL');
    }
    // A tampered body under a genuine signature.
    const genuine = wxNotice(keys.wechat, { orderNo: p.orderNo, total: 1000 });
    const tampered = await notify({ ...genuine, body: genuine.body.replace('SUCCESS', 'SUCCESS ') });
    expect(tampered.statusCode).toBe(400);
    expect((await order(token, p.orderNo)).status).toBe('pending');
    expect((await info(token)).surplus).toBe(balance);
    expect(await ledgerRows(p.orderNo)).toEqual([]);

    // Alipay: a notice signed with another key is refused.
    const ali = alipaySign(
      {
        app_id: keys.alipay.appId,
        out_trade_no: p.orderNo,
        trade_status: 'TRADE_SUCCESS',
        total_amount: '10.00',
        notify_id: 'x1',
      },
      forger,
    );
    const ar = await t.app.inject({
      method: 'POST',
      url: '/product/pay/alipay/notify',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(ali).toString(),
    });
    expect(ar.body).toBe('fail');
    expect((await info(token)).surplus).toBe(balance);
  });

  it('Alipay: wrong amount and forged return refused, a replayed notice pays once, twenty at once too', async () => {
    const { token } = await t.register(`ali-${kind}@example.com`);
    const balance = (await info(token)).surplus;
    const form = await t.call<string>('POST', '/product/alipay/palace/12', { token });
    const orderNo = /&quot;out_trade_no&quot;:&quot;(\w+)&quot;|"out_trade_no":"(\w+)"/.exec(form.data);
    const no = orderNo?.[1] ?? orderNo?.[2] ?? '';
    expect(no).toMatch(/^MC/);
    const notice = (amount: string, id: string) =>
      alipaySign(
        {
          app_id: keys.alipay.appId,
          out_trade_no: no,
          trade_no: `2026${id}`,
          trade_status: 'TRADE_SUCCESS',
          total_amount: amount,
          notify_id: id,
          notify_time: '2026-11-26 10:00:00',
        },
        keys.alipay.alipayPrivateKey,
      );
    const post = (p: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/product/pay/alipay/notify',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(p).toString(),
      });
    expect((await post(notice('0.01', 'n0'))).body).toBe('fail');
    expect((await order(token, no)).status).toBe('pending');
    // A forged return is not taken as paid.
    const forged = new URLSearchParams({ ...notice('50.00', 'r0'), sign: 'AAAA' });
    const back = await t.app.inject({ method: 'GET', url: `/product/pay/alipay/return?${forged}` });
    expect(new URL(back.headers.location as string).searchParams.get('payStatus')).toBe('0');
    const good = notice('50.00', 'n1');
    const rs = await Promise.all(
      [good, good, ...Array.from({ length: 18 }, (_, i) => notice('50.00', `m${i}`))].map(post),
    );
    expect(rs.map((r) => r.body)).toEqual(Array(20).fill('success'));
    expect((await post(good)).body).toBe('success');
    expect(await ledgerRows(no)).toEqual([{ amount: 500 }]);
    expect((await info(token)).surplus).toBe(balance + 500);
  });

  it('pays once for a notice delivered twice and for twenty concurrent notices', async () => {
    const { token } = await t.register(`conc-${kind}@example.com`);
    const balance = (await info(token)).surplus;
    const a = (await t.call<{ orderNo: string }>('POST', '/product/wx/prepay/12', { token })).data;
    const n = wxNotice(keys.wechat, { orderNo: a.orderNo, total: 5000 });
    expect((await notify(n)).statusCode).toBe(204);
    expect((await notify(n)).statusCode).toBe(204);
    expect(await ledgerRows(a.orderNo)).toEqual([{ amount: 500 }]);

    // Another order (a new pack): twenty notices at once, half of them the same notice, half distinct ids.
    const b = (await t.call<{ orderNo: string }>('POST', '/product/wx/prepay/12', { token })).data;
    expect(b.orderNo).not.toBe(a.orderNo);
    const same = wxNotice(keys.wechat, { orderNo: b.orderNo, total: 5000 });
    const notices = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0 ? same : wxNotice(keys.wechat, { orderNo: b.orderNo, total: 5000 }),
    );
    const rs = await Promise.all(notices.map(notify));
    expect(rs.map((r) => r.statusCode)).toEqual(Array(20).fill(204));
    expect(await ledgerRows(b.orderNo)).toEqual([{ amount: 500 }]);
    expect((await info(token)).surplus).toBe(balance + 1000);
    expect((await order(token, b.orderNo)).status).toBe('paid');
  });

  it('closes an expired order at the provider and here; the phone page can no longer pay it', async () => {
    const { token } = await t.register(`exp-${kind}@example.com`);
    type P = { orderNo: string; url: string; remainingMs: number };
    const p = (await t.call<P>('POST', '/product/wx/prepay/11', { token })).data;
    expect(p.remainingMs).toBe(300_000);
    // Reopened 100 s later: the same order and code, with the time it has left.
    t.clock.advance(100_000);
    const again = (await t.call<P>('POST', '/product/wx/prepay/11', { token })).data;
    expect(again).toMatchObject({ orderNo: p.orderNo, url: p.url, remainingMs: 200_000 });
    t.clock.advance(201_000);
    expect((await t.call<boolean>('GET', `/product/wx/order/${p.orderNo}`, { token })).data).toBe(false);
    expect((await order(token, p.orderNo)).status).toBe('closed');
    expect(await (await fetch(p.url)).text()).toContain('data-state="closed"');
    const late = await fetch(`${p.url}/pay`, { method: 'POST' });
    expect(await late.text()).not.toContain('data-state="paid"');
    // A new purchase of the same goods makes a new order.
    const q = (await t.call<{ orderNo: string }>('POST', '/product/wx/prepay/11', { token })).data;
    expect(q.orderNo).not.toBe(p.orderNo);
    // renew=1 (chosen again after the countdown ran out): the open order is closed, a fresh one made.
    const r = (await t.call<{ orderNo: string }>('POST', '/product/wx/prepay/11?renew=1', { token })).data;
    expect(r.orderNo).not.toBe(q.orderNo);
    expect((await order(token, q.orderNo)).status).toBe('closed');
    expect((await order(token, r.orderNo)).status).toBe('pending');
  });
});

describe.each(databases)('records, invoices, company orders and cash-back on %s', (kind) => {
  const t = useServer(kind, { env: { PAY_SWEEP_SECONDS: '3600' } });
  let keys: SandboxKeys;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    keys = t.infra.payment.sandboxKeys!;
  });
  beforeEach(() => {
    t.clock.t = Date.now();
  });
  const pay = async (token: string, url: string) => {
    const p = (await t.call<{ orderNo: string; amount: number }>('POST', url, { token })).data;
    const n = wxNotice(keys.wechat, { orderNo: p.orderNo, total: p.amount });
    const r = await t.app.inject({
      method: 'POST',
      url: '/product/pay/wx/notify',
      headers: n.headers,
      payload: n.body,
    });
    expect(r.statusCode).toBe(204);
    return p.orderNo;
  };

  it('pays the inviter a commission at the administrator rate; payouts are marked once', async () => {
    const inviter = await t.register(`inv-${kind}@example.com`);
    const code = (
      await t.call<{ user: { inviteCode: string } }>('GET', '/product/auth/info', { token: inviter.token })
    ).data.user.inviteCode;
    const invitee = await t.register(`fr-${kind}@example.com`, { inviteCode: code });
    const admin = await t.adminToken();
    expect(
      (await t.call('POST', '/product/sysConfig/setCashBack', { token: admin, body: { rateBp: 1500 } })).data,
    ).toBe(1500);
    expect(
      (await t.call('POST', '/product/sysConfig/setCashBack', { token: inviter.token, body: { rateBp: 1 } }))
        .code,
    ).toBe(406);
    const orderNo = await pay(invitee.token, '/product/wx/prepay/1');
    const sum = await t.call<{ rateBp: number; pending: number; paid: number; code: string | null }>(
      'POST',
      '/product/user/referral/cash',
      { token: inviter.token },
    );
    // 15 % of 9900 fen, floored: 1485 fen.
    expect(sum.data).toMatchObject({ rateBp: 1500, pending: 1485, paid: 0 });
    const rec = await t.call<{ list: { orderNo: string; amount: number; invitee: string }[] }>(
      'POST',
      '/product/user/referral/cashBack',
      { token: inviter.token, body: {} },
    );
    expect(rec.data.list).toEqual([
      expect.objectContaining({ orderNo, amount: 1485, invitee: 'fr***@example.com' }),
    ]);
    const out = await t.call('POST', '/product/companyOrder/sendCashBack', {
      token: admin,
      body: { userId: inviter.id },
    });
    expect(out.data).toEqual({ count: 1, amount: 1485 });
    const again = await t.call('POST', '/product/companyOrder/sendCashBack', {
      token: admin,
      body: { userId: inviter.id },
    });
    expect(again.data).toEqual({ count: 0, amount: 0 });
    const after = await t.call<{ pending: number; paid: number }>('POST', '/product/user/referral/cash', {
      token: inviter.token,
    });
    expect(after.data).toMatchObject({ pending: 0, paid: 1485 });

    // Cash-back codes: one per user, unique.
    const mine = (
      await t.call<string>('GET', '/product/user/getRandomBackCashCode', { token: inviter.token })
    ).data;
    expect(mine).toMatch(/^[A-Z0-9]{8}$/);
    expect(
      (await t.call<string>('GET', '/product/user/getRandomBackCashCode', { token: inviter.token })).data,
    ).toBe(mine);
    expect(
      (
        await t.call('POST', '/product/user/setBackCashCode', {
          token: inviter.token,
          body: { code: 'walker7' },
        })
      ).data,
    ).toBe('WALKER7');
    const taken = await t.call('POST', '/product/user/setBackCashCode', {
      token: invitee.token,
      body: { code: 'WALKER7' },
    });
    expect(taken.code).toBe(307);
  });

  it('invoices: paid orders only, one per order, business needs a tax number; the administrator sets the status', async () => {
    const u = await t.register(`invoice-${kind}@example.com`);
    const orderNo = await pay(u.token, '/product/wx/prepay/11');
    const open = (await t.call<{ orderNo: string }>('POST', '/product/wx/prepay/12', { token: u.token })).data
      .orderNo;
    const body = { orderNo, title: '张三', email: 'invoice@example.com' };
    expect(
      (
        await t.call('POST', '/product/code/personInvoice', {
          token: u.token,
          body: { ...body, orderNo: open },
        })
      ).code,
    ).toBe(307);
    expect(
      (await t.call('POST', '/product/code/personInvoice/business', { token: u.token, body })).code,
    ).toBe(400);
    const inv = await t.call<{ id: number; status: string; amount: number; kind: string }>(
      'POST',
      '/product/code/personInvoice',
      { token: u.token, body },
    );
    expect(inv.data).toMatchObject({ status: 'pending', amount: 1000, kind: 'personal' });
    expect((await t.call('POST', '/product/code/personInvoice', { token: u.token, body })).code).toBe(307);
    const other = await t.register(`invoice2-${kind}@example.com`);
    expect((await t.call('POST', '/product/code/personInvoice', { token: other.token, body })).code).toBe(
      404,
    );
    const admin = await t.adminToken();
    expect((await t.call('PUT', `/product/invoice/${inv.data.id}/issued`, { token: admin })).data).toBe(true);
    const list = await t.call<{ list: { status: string }[] }>('POST', '/product/invoice/search', {
      token: admin,
      body: {},
    });
    expect(list.data.list.some((i) => i.status === 'issued')).toBe(true);
    const o = await t.call<{ invoice: string | null }>('GET', `/product/user/order/${orderNo}`, {
      token: u.token,
    });
    expect(o.data.invoice).toBe('issued');
  });

  it('company accounts buy CV packs (WeChat or Alipay form) and see them under companyOrder', async () => {
    const c = await t.register(`corp-${kind}@example.com`, { company: true });
    const products = await t.call<{ id: number; price: number }[]>('POST', '/product/sysProduct/queryAll');
    expect(products.data.map((p) => p.id)).toEqual([21, 22, 23]);
    const cvOf = async () => (await t.infra.store.repos.users.findById(c.id))!.cvCoin;
    const before = await cvOf();
    const orderNo = await pay(c.token, '/product/wx/company/prepay/22');
    expect((await cvOf()) - before).toBe(5000);
    const all = await t.call<{ list: { orderNo: string; currency: string; coins: number }[] }>(
      'POST',
      '/product/companyOrder/queryAll',
      { token: c.token, body: {} },
    );
    expect(all.data.list[0]).toMatchObject({ orderNo, currency: 'CV', coins: 5000 });
    // The company's CV ledger names the pack in English only, like its other notes (the order title is bilingual).
    const ledger = await t.call<{ list: { reason: string; note: string | null }[] }>(
      'POST',
      '/product/company/surplus/record',
      { token: c.token, body: {} },
    );
    expect(ledger.data.list[0]).toMatchObject({ note: `5000 CV coins (${orderNo})` });
    expect(
      (await t.call('GET', `/product/companyOrder/queryDetail/${orderNo}`, { token: c.token })).code,
    ).toBe(0);
    const form = await t.call<string>('POST', '/product/alipay/company/palace/21', { token: c.token });
    expect(form.data).toContain('<form');
    const u = await t.register(`notcorp-${kind}@example.com`);
    expect((await t.call('POST', '/product/wx/company/prepay/21', { token: u.token })).code).toBe(307);
    expect((await t.call('POST', '/product/companyOrder/queryAll', { token: u.token, body: {} })).code).toBe(
      406,
    );
  });

  it('the sweep closes expired orders at the provider first and here', async () => {
    const u = await t.register(`sweep-${kind}@example.com`);
    const a = (await t.call<{ orderNo: string }>('POST', '/product/wx/prepay/11', { token: u.token })).data
      .orderNo;
    await t.call('POST', '/product/alipay/palace/12', { token: u.token });
    t.clock.advance(301_000);
    expect(await t.services.pay.closeExpired()).toBeGreaterThanOrEqual(2);
    const o = await t.call<{ status: string }>('GET', `/product/user/order/${a}`, { token: u.token });
    expect(o.data.status).toBe('closed');
    expect(await t.services.pay.closeExpired()).toBe(0);
  });
});

describe('payment configuration', () => {
  const pemPair = () =>
    generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
  const merchant = pemPair();
  const platform = pemPair();
  const live = {
    WECHATPAY_MCHID: '1900000001',
    WECHATPAY_APPID: 'wx0000000000000001',
    WECHATPAY_SERIAL: 'ABCDEF',
    WECHATPAY_PRIVATE_KEY: merchant.privateKey.replace(/\n/g, '\\n'),
    WECHATPAY_APIV3_KEY: 'k'.repeat(32),
    WECHATPAY_PLATFORM_SERIAL: 'PUB_KEY_ID_1',
    WECHATPAY_PLATFORM_PUBLIC_KEY: platform.publicKey,
  };

  it('refuses incomplete merchant credentials and a sandbox URL beside real ones', () => {
    expect(() => loadConfig({ WECHATPAY_MCHID: '1900000001' })).toThrow(/WECHATPAY_MCHID, WECHATPAY_APPID/);
    expect(() => loadConfig({ ALIPAY_APP_ID: '2021' })).toThrow(/ALIPAY_APP_ID, ALIPAY_PRIVATE_KEY/);
    expect(() => loadConfig({ ...live, WECHATPAY_APIV3_KEY: 'short' })).toThrow(/32 bytes/);
    expect(() => loadConfig({ ...live, PAY_SANDBOX_URL: 'http://x/paysandbox' })).toThrow(/never runs/);
    expect(loadConfig({}).payment.kind).toBe('sandbox');
  });

  describe('with real credentials', () => {
    const t = useServer('sqlite', { env: live });
    it('runs live: no sandbox mounted, WeChat Pay on its real host, Alipay unavailable', async () => {
      expect(t.config.payment.kind).toBe('live');
      expect(t.infra.payment.providers.mode).toBe('live');
      expect(t.infra.payment.sandboxKeys).toBeUndefined();
      const r = await t.app.inject({ method: 'GET', url: '/paysandbox/wechat/phone/x' });
      expect(r.statusCode).toBe(404);
      const m = await t.call('GET', '/product/pay/methods');
      expect(m.data).toEqual({ mode: 'live', wechat: true, alipay: false });
      const { token } = await t.register('live@example.com');
      const a = await t.call('POST', '/product/alipay/palace/1', { token });
      expect(a.code).toBe(307);
      expect(a.message).toBe('该支付方式暂不可用');
    });
  });
});
