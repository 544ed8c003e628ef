/**
 * Alipay computer-website payment through the official `alipay-sdk`: `alipay.trade.page.pay` as the
 * auto-submitting form (RSA2-signed with the application key), `alipay.trade.query` / `alipay.trade.close`
 * with the answer's signature verified against Alipay's public key, and async notices / return parameters
 * verified with the same key.
 */
import { AlipaySdk } from 'alipay-sdk';
import {
  type AlipayPagePort,
  fenToYuan,
  PaymentNoticeError,
  type ProviderOrderState,
  type ProviderPaid,
  yuanToFen,
} from '../../modules/order/ports.ts';

export interface AlipayConfig {
  /** https://openapi.alipay.com/gateway.do (or the sandbox's gateway). */
  gateway: string;
  appId: string;
  /** Application private key (PEM, PKCS#8 or PKCS#1). */
  privateKey: string;
  /** Alipay's public key (PEM). */
  alipayPublicKey: string;
}

/** `yyyy-MM-dd HH:mm:ss` in China time, as Alipay's time_expire wants. */
export function alipayTime(t: number): string {
  return new Date(t + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

export function createAlipayPage(cfg: AlipayConfig): AlipayPagePort {
  const sdk = new AlipaySdk({
    appId: cfg.appId,
    privateKey: cfg.privateKey,
    alipayPublicKey: cfg.alipayPublicKey,
    gateway: cfg.gateway,
    keyType: cfg.privateKey.includes('BEGIN RSA PRIVATE KEY') ? 'PKCS1' : 'PKCS8',
    signType: 'RSA2',
    timeout: 15_000,
    camelcase: false,
  });

  const verified = (params: Record<string, string>) => {
    if (params.app_id && params.app_id !== cfg.appId)
      throw new PaymentNoticeError('notice for another app_id');
    let ok = false;
    try {
      ok = sdk.checkNotifySignV2(params);
    } catch {
      ok = false;
    }
    if (!ok) throw new PaymentNoticeError('Alipay signature does not verify');
  };

  return {
    pageForm(o) {
      return sdk.pageExecute('alipay.trade.page.pay', 'POST', {
        bizContent: {
          out_trade_no: o.orderNo,
          product_code: 'FAST_INSTANT_TRADE_PAY',
          total_amount: fenToYuan(o.amount),
          subject: o.subject.slice(0, 128),
          time_expire: alipayTime(o.expiresAt),
        },
        notifyUrl: o.notifyUrl,
        returnUrl: o.returnUrl,
      });
    },

    async query(orderNo): Promise<ProviderOrderState> {
      const r = (await sdk.exec(
        'alipay.trade.query',
        { bizContent: { out_trade_no: orderNo } },
        { validateSign: true },
      )) as unknown as Record<string, string>;
      if (r.code !== '10000') return { state: 'unknown' };
      const amount = yuanToFen(r.total_amount ?? '');
      switch (r.trade_status) {
        case 'TRADE_SUCCESS':
        case 'TRADE_FINISHED':
          return { state: 'paid', amount, tradeNo: r.trade_no };
        case 'WAIT_BUYER_PAY':
          return { state: 'pending' };
        case 'TRADE_CLOSED':
          return { state: 'closed' };
        default:
          return { state: 'unknown' };
      }
    },

    async close(orderNo) {
      const r = (await sdk.exec(
        'alipay.trade.close',
        { bizContent: { out_trade_no: orderNo } },
        { validateSign: true },
      )) as unknown as Record<string, string>;
      // ACQ.TRADE_NOT_EXIST: the cashier was never opened, so there is nothing to close at Alipay.
      if (r.code !== '10000' && r.sub_code !== 'ACQ.TRADE_NOT_EXIST')
        throw new Error(`alipay.trade.close: ${r.code} ${r.sub_code ?? ''} ${r.sub_msg ?? ''}`);
    },

    parseNotice(params): ProviderPaid | null {
      verified(params);
      const status = params.trade_status;
      if (status !== 'TRADE_SUCCESS' && status !== 'TRADE_FINISHED') return null;
      const amount = yuanToFen(params.total_amount ?? '');
      if (!params.out_trade_no || amount === undefined)
        throw new PaymentNoticeError('notice without order or amount');
      return {
        orderNo: params.out_trade_no,
        amount,
        tradeNo: params.trade_no ?? '',
        noticeId: params.notify_id || `${params.trade_no}:${status}`,
      };
    },

    parseReturn(params) {
      verified(params);
      const amount = yuanToFen(params.total_amount ?? '');
      if (!params.out_trade_no || amount === undefined)
        throw new PaymentNoticeError('return without order or amount');
      return { orderNo: params.out_trade_no, amount };
    },
  };
}
