/**
 * Payment flows over the provider ports (WeChat Pay Native, Alipay page pay): making the provider's payment for
 * an order, polling, notices, the Alipay return, closing expired orders. Fulfilment is OrderService's.
 */
import { AppError, Codes } from '../../errors.ts';
import type { Clock, UserRecord } from '../../ports.ts';
import {
  type AlipayPagePort,
  fenToYuan,
  type OrderRecord,
  PaymentNoticeError,
  type PaymentProviders,
  type ProviderOrderState,
  type WechatNativePort,
} from '../order/ports.ts';
import type { OrderService } from '../order/service.ts';

export interface PayUrls {
  /** Absolute base of this API (`https://host/product`) for the providers' notices. */
  apiBase(): string;
  /** Absolute base of the web app (`https://host/capture`) for the Alipay return. */
  webBase(): string;
}

export const METHOD_UNAVAILABLE = '该支付方式暂不可用';

export class PayService {
  constructor(
    private readonly orders: OrderService,
    private readonly providers: PaymentProviders,
    private readonly urls: PayUrls,
    private readonly clock: Clock,
    private readonly log: (msg: string, err?: unknown) => void = () => {},
  ) {}

  get mode(): 'sandbox' | 'live' {
    return this.providers.mode;
  }

  methods(): { wechat: boolean; alipay: boolean; mode: 'sandbox' | 'live' } {
    return { wechat: !!this.providers.wechat, alipay: !!this.providers.alipay, mode: this.providers.mode };
  }

  private wechat(): WechatNativePort {
    if (!this.providers.wechat) throw new AppError(Codes.REFUSED, METHOD_UNAVAILABLE);
    return this.providers.wechat;
  }

  private alipay(): AlipayPagePort {
    if (!this.providers.alipay) throw new AppError(Codes.REFUSED, METHOD_UNAVAILABLE);
    return this.providers.alipay;
  }

  /** `POST /wx/prepay/{goodsId}`: the Native code URL and the order number (an open order's QR is reused). */
  async wxPrepay(
    user: UserRecord,
    goodsId: number,
    company: boolean,
    renew = false,
  ): Promise<{ url: string; orderNo: string; amount: number; expiresAt: number; remainingMs: number }> {
    const wx = this.wechat();
    // `renew`: the buyer chose the price again after the countdown ran out: the open order is closed (at the
    // provider first) and a fresh one made, instead of handing back the open one.
    if (renew) {
      const open = await this.orders.repos.orders.openFor(user.id, goodsId, 'wechat', this.clock.now());
      if (open) await this.closeOne(open);
    }
    const { order, reused } = await this.orders.open(user, goodsId, 'wechat', company);
    const remainingMs = () => Math.max(0, order.expiresAt - this.clock.now());
    if (reused && order.codeUrl)
      return {
        url: order.codeUrl,
        orderNo: order.orderNo,
        amount: order.amount,
        expiresAt: order.expiresAt,
        remainingMs: remainingMs(),
      };
    let codeUrl: string;
    try {
      ({ codeUrl } = await wx.prepay({
        orderNo: order.orderNo,
        description: order.title,
        amount: order.amount,
        expiresAt: order.expiresAt,
        notifyUrl: `${this.urls.apiBase()}/pay/wx/notify`,
      }));
    } catch (e) {
      this.log(`wechat prepay ${order.orderNo} failed`, e);
      await this.orders.close(order.orderNo);
      throw new AppError(Codes.BUSY, 'payment provider unavailable, retry later');
    }
    await this.orders.setCodeUrl(order.orderNo, codeUrl);
    return {
      url: codeUrl,
      orderNo: order.orderNo,
      amount: order.amount,
      expiresAt: order.expiresAt,
      remainingMs: remainingMs(),
    };
  }

  /** `POST /alipay/palace/{goodsId}`: the auto-submitting form to Alipay's cashier. */
  async alipayForm(
    user: UserRecord,
    goodsId: number,
    company: boolean,
  ): Promise<{ html: string; orderNo: string }> {
    const ali = this.alipay();
    const { order } = await this.orders.open(user, goodsId, 'alipay', company);
    const html = ali.pageForm({
      orderNo: order.orderNo,
      subject: order.title,
      amount: order.amount,
      expiresAt: order.expiresAt,
      notifyUrl: `${this.urls.apiBase()}/pay/alipay/notify`,
      returnUrl: `${this.urls.apiBase()}/pay/alipay/return`,
    });
    return { html, orderNo: order.orderNo };
  }

  /**
   * `GET /wx/order/{orderNo}`: true once paid. A pending order is also asked of the provider (a notice may be
   * late or lost); an expired one is closed at the provider and here.
   */
  async isPaid(user: UserRecord, orderNo: string): Promise<boolean> {
    const o = await this.orders.ownOrder(user, orderNo);
    if (o.status === 'paid') return true;
    if (o.status === 'closed') return false;
    const state = await this.queryProvider(o);
    if (state?.state === 'paid') return this.settleFromQuery(o, state);
    if (o.expiresAt <= this.clock.now()) await this.closeOne(o);
    return false;
  }

  private async queryProvider(o: OrderRecord): Promise<ProviderOrderState | undefined> {
    const port = o.method === 'wechat' ? this.providers.wechat : this.providers.alipay;
    if (!port) return undefined;
    try {
      return await port.query(o.orderNo);
    } catch (e) {
      this.log(`${o.method} query ${o.orderNo} failed`, e);
      return undefined;
    }
  }

  private async settleFromQuery(o: OrderRecord, state: ProviderOrderState): Promise<boolean> {
    try {
      const r = await this.orders.fulfil(o.method, {
        orderNo: o.orderNo,
        amount: state.amount ?? -1,
        tradeNo: state.tradeNo ?? '',
      });
      return r.order.status === 'paid' || !r.fulfilled;
    } catch (e) {
      this.log(`settling ${o.orderNo} from the provider's answer failed`, e);
      return false;
    }
  }

  /** A WeChat Pay notice (raw body + Wechatpay-* headers). Throws PaymentNoticeError when not accepted. */
  async wxNotice(
    headers: Record<string, string | undefined>,
    rawBody: string,
  ): Promise<{ orderNo: string } | null> {
    const paid = this.wechat().parseNotice(headers, rawBody, this.clock.now());
    if (!paid) return null;
    await this.orders.fulfil('wechat', paid);
    return { orderNo: paid.orderNo };
  }

  /** An Alipay async notice (form fields). Throws PaymentNoticeError when not accepted. */
  async alipayNotice(params: Record<string, string>): Promise<{ orderNo: string } | null> {
    const paid = this.alipay().parseNotice(params);
    if (!paid) return null;
    await this.orders.fulfil('alipay', paid);
    return { orderNo: paid.orderNo };
  }

  /**
   * The browser's return from Alipay: the signed parameters are verified, the order is settled by asking Alipay
   * (the return itself proves nothing about payment), and the web app gets payStatus and orderNo.
   */
  async alipayReturn(params: Record<string, string>): Promise<string> {
    let orderNo = '';
    let paid = false;
    try {
      ({ orderNo } = this.alipay().parseReturn(params));
      const o = await this.orders.byNo(orderNo);
      if (o) {
        paid = o.status === 'paid';
        if (!paid && o.status === 'pending') {
          const state = await this.queryProvider(o);
          if (state?.state === 'paid') paid = await this.settleFromQuery(o, state);
        }
      }
    } catch (e) {
      if (!(e instanceof PaymentNoticeError)) throw e;
      this.log('alipay return refused', e);
    }
    const q = new URLSearchParams({ payStatus: paid ? '1' : '0', orderNo });
    return `${this.urls.webBase()}/asPay/view?${q}`;
  }

  private async closeOne(o: OrderRecord): Promise<void> {
    const port = o.method === 'wechat' ? this.providers.wechat : this.providers.alipay;
    const state = await this.queryProvider(o);
    if (state?.state === 'paid') {
      await this.settleFromQuery(o, state);
      return;
    }
    try {
      await port?.close(o.orderNo);
    } catch (e) {
      // Alipay answers "trade not exist" for a cashier never opened: nothing to close there.
      this.log(`${o.method} close ${o.orderNo} failed`, e);
    }
    await this.orders.close(o.orderNo);
  }

  /** Closes every expired pending order (provider first); returns how many were closed. */
  async closeExpired(): Promise<number> {
    let n = 0;
    for (const o of await this.orders.expired(100)) {
      await this.closeOne(o);
      n++;
    }
    return n;
  }

  yuan = fenToYuan;
}
