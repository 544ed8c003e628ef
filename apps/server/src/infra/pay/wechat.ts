/**
 * WeChat Pay API v3, Native payment, through `wechatpay-axios-plugin` (requests signed WECHATPAY2-SHA256-RSA2048
 * with the merchant key, responses verified with the platform public key). Notices are verified here with the
 * same library's primitives: RSA-SHA256 over `timestamp\nnonce\nbody\n` with the platform key, a ±5 min time
 * window, then the resource decrypted with AEAD_AES_256_GCM under the APIv3 key.
 */
import { Aes, Formatter, Rsa, Wechatpay } from 'wechatpay-axios-plugin';
import {
  PaymentNoticeError,
  type ProviderOrderState,
  type ProviderPaid,
  type WechatNativePort,
} from '../../modules/order/ports.ts';

export interface WechatConfig {
  /** https://api.mch.weixin.qq.com/ (or the sandbox's base). */
  baseUrl: string;
  mchid: string;
  appid: string;
  /** Serial number of the merchant API certificate. */
  serial: string;
  /** Merchant API private key (PEM). */
  privateKey: string;
  /** APIv3 key: 32 characters. */
  apiV3Key: string;
  /** Platform (or "WeChat Pay public key") serial → public key PEM. */
  platformSerial: string;
  platformPublicKey: string;
}

/** Notices older or newer than this are refused (a replay of an old notice, or a forged time). */
export const NOTICE_WINDOW_MS = 5 * 60_000;

/** RFC 3339 in China time, as WeChat expects for `time_expire`. */
export function rfc3339Cst(t: number): string {
  const d = new Date(t + 8 * 3_600_000).toISOString().slice(0, 19);
  return `${d}+08:00`;
}

interface Transaction {
  mchid?: string;
  appid?: string;
  out_trade_no?: string;
  transaction_id?: string;
  trade_state?: string;
  amount?: { total?: number; payer_total?: number; currency?: string };
}

export function createWechatNative(cfg: WechatConfig): WechatNativePort {
  if (Buffer.byteLength(cfg.apiV3Key) !== 32) throw new Error('the WeChat Pay APIv3 key must be 32 bytes');
  const platformKey = Rsa.from(cfg.platformPublicKey, Rsa.KEY_TYPE_PUBLIC);
  const wxpay = new Wechatpay({
    mchid: cfg.mchid,
    serial: cfg.serial,
    privateKey: Rsa.from(cfg.privateKey, Rsa.KEY_TYPE_PRIVATE),
    certs: { [cfg.platformSerial]: platformKey },
    baseURL: cfg.baseUrl,
    timeout: 15_000,
  } as never) as unknown as WxChain;

  const toState = (t: Transaction): ProviderOrderState => {
    if (t.mchid !== cfg.mchid || (t.appid && t.appid !== cfg.appid)) return { state: 'unknown' };
    const amount = t.amount?.total;
    switch (t.trade_state) {
      case 'SUCCESS':
        return { state: 'paid', amount, tradeNo: t.transaction_id };
      case 'NOTPAY':
      case 'USERPAYING':
        return { state: 'pending' };
      case 'CLOSED':
      case 'REVOKED':
      case 'PAYERROR':
        return { state: 'closed' };
      default:
        return { state: 'unknown' };
    }
  };

  return {
    async prepay(o) {
      const res = await wxpay.v3.pay.transactions.native.post({
        appid: cfg.appid,
        mchid: cfg.mchid,
        description: o.description.slice(0, 127),
        out_trade_no: o.orderNo,
        time_expire: rfc3339Cst(o.expiresAt),
        notify_url: o.notifyUrl,
        amount: { total: o.amount, currency: 'CNY' },
      });
      const codeUrl = (res.data as { code_url?: string }).code_url;
      if (!codeUrl) throw new Error('WeChat Pay answered without code_url');
      return { codeUrl };
    },

    async query(orderNo) {
      try {
        const res = await wxpay.v3.pay.transactions.outTradeNo.$out_trade_no$.get({
          params: { mchid: cfg.mchid },
          out_trade_no: orderNo,
        });
        return toState(res.data as Transaction);
      } catch (e) {
        const status = (e as { response?: { status?: number } }).response?.status;
        if (status === 404) return { state: 'unknown' };
        throw e;
      }
    },

    async close(orderNo) {
      await wxpay.v3.pay.transactions.outTradeNo.$out_trade_no$.close.post(
        { mchid: cfg.mchid },
        { out_trade_no: orderNo },
      );
    },

    parseNotice(headers, rawBody, now) {
      const h = (k: string) => headers[k] ?? headers[k.toLowerCase()];
      const timestamp = h('Wechatpay-Timestamp');
      const nonce = h('Wechatpay-Nonce');
      const signature = h('Wechatpay-Signature');
      const serial = h('Wechatpay-Serial');
      if (!timestamp || !nonce || !signature || !serial)
        throw new PaymentNoticeError('notice without signature headers');
      if (serial !== cfg.platformSerial)
        throw new PaymentNoticeError(`notice signed by unknown serial ${serial}`);
      if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Number(timestamp) * 1000 - now) > NOTICE_WINDOW_MS)
        throw new PaymentNoticeError('notice time outside the accepted window');
      let valid = false;
      try {
        valid = Rsa.verify(Formatter.response(timestamp, nonce, rawBody), signature, platformKey);
      } catch {
        valid = false;
      }
      if (!valid) throw new PaymentNoticeError('notice signature does not verify');
      let body: {
        id?: string;
        event_type?: string;
        resource?: { algorithm?: string; ciphertext?: string; nonce?: string; associated_data?: string };
      };
      try {
        body = JSON.parse(rawBody);
      } catch {
        throw new PaymentNoticeError('notice body is not JSON');
      }
      const r = body.resource;
      if (!body.id || !r?.ciphertext || !r.nonce || r.algorithm !== 'AEAD_AES_256_GCM')
        throw new PaymentNoticeError('notice without an AEAD_AES_256_GCM resource');
      let tx: Transaction;
      try {
        tx = JSON.parse(Aes.AesGcm.decrypt(r.ciphertext, cfg.apiV3Key, r.nonce, r.associated_data ?? ''));
      } catch {
        throw new PaymentNoticeError('notice resource does not decrypt with the APIv3 key');
      }
      if (body.event_type !== 'TRANSACTION.SUCCESS') return null;
      const state = toState(tx);
      if (state.state !== 'paid' || !tx.out_trade_no || typeof state.amount !== 'number')
        throw new PaymentNoticeError('notice is not a successful payment of this merchant');
      return {
        orderNo: tx.out_trade_no,
        amount: state.amount,
        tradeNo: state.tradeNo ?? '',
        noticeId: body.id,
      } satisfies ProviderPaid;
    },
  };
}

/** The few chains of the plugin's dynamic client used here. */
interface WxResponse {
  status: number;
  data: unknown;
}
interface WxChain {
  v3: {
    pay: {
      transactions: {
        native: { post(body: unknown): Promise<WxResponse> };
        outTradeNo: {
          $out_trade_no$: {
            get(config: unknown): Promise<WxResponse>;
            close: { post(body: unknown, config: unknown): Promise<WxResponse> };
          };
        };
      };
    };
  };
}
