/**
 * Payment configuration (part of the server's zod config): merchant credentials of WeChat Pay and Alipay.
 * With none set, the built-in payment sandbox plays both providers (the embedded default); with any set, the
 * product is in live mode: the sandbox is not mounted, and a provider with incomplete credentials is a boot
 * error (a provider with none is simply unavailable).
 */
import { z } from 'zod';
import type { AlipayConfig } from './alipay.ts';
import type { WechatConfig } from './wechat.ts';

const opt = z
  .string()
  .trim()
  .transform((s) => (s === '' ? undefined : s))
  .optional();

/** PEM from an environment variable: literal `\n` sequences become newlines. */
const pem = opt.transform((s) => s?.replace(/\\n/g, '\n'));

export const PaymentConfigShape = {
  WECHATPAY_MCHID: opt,
  WECHATPAY_APPID: opt,
  /** Serial number of the merchant API certificate. */
  WECHATPAY_SERIAL: opt,
  WECHATPAY_PRIVATE_KEY: pem,
  /** The 32-character APIv3 key. */
  WECHATPAY_APIV3_KEY: opt,
  /** WeChat Pay public key id (PUB_KEY_ID_…) or platform certificate serial, and its public key. */
  WECHATPAY_PLATFORM_SERIAL: opt,
  WECHATPAY_PLATFORM_PUBLIC_KEY: pem,
  WECHATPAY_BASE_URL: z.url().default('https://api.mch.weixin.qq.com/'),
  ALIPAY_APP_ID: opt,
  ALIPAY_PRIVATE_KEY: pem,
  ALIPAY_PUBLIC_KEY: pem,
  ALIPAY_GATEWAY: z.url().default('https://openapi.alipay.com/gateway.do'),
  /** Where the server reaches the sandbox (default: itself, at /paysandbox). */
  PAY_SANDBOX_URL: opt,
  /** Seconds between sweeps that close expired orders. */
  PAY_SWEEP_SECONDS: z.coerce.number().int().min(5).default(30),
};

type Raw = z.output<z.ZodObject<typeof PaymentConfigShape>>;

/** The live providers' settings: the adapters' own options. */
export type LiveWechat = WechatConfig;
export type LiveAlipay = AlipayConfig;

export type PaymentConfig =
  | { kind: 'sandbox'; sandboxUrl?: string; sweepSeconds: number }
  | { kind: 'live'; wechat?: LiveWechat; alipay?: LiveAlipay; sweepSeconds: number };

/** The payment mode from validated variables; the problems (incomplete credentials) are returned as issues. */
export function paymentConfig(c: Raw): { config: PaymentConfig; issues: string[] } {
  const issues: string[] = [];
  const wxVals = {
    mchid: c.WECHATPAY_MCHID,
    appid: c.WECHATPAY_APPID,
    serial: c.WECHATPAY_SERIAL,
    privateKey: c.WECHATPAY_PRIVATE_KEY,
    apiV3Key: c.WECHATPAY_APIV3_KEY,
    platformSerial: c.WECHATPAY_PLATFORM_SERIAL,
    platformPublicKey: c.WECHATPAY_PLATFORM_PUBLIC_KEY,
  };
  const aliVals = {
    appId: c.ALIPAY_APP_ID,
    privateKey: c.ALIPAY_PRIVATE_KEY,
    alipayPublicKey: c.ALIPAY_PUBLIC_KEY,
  };
  const some = (o: Record<string, string | undefined>) => Object.values(o).some(Boolean);
  const all = (o: Record<string, string | undefined>) => Object.values(o).every(Boolean);
  const sweepSeconds = c.PAY_SWEEP_SECONDS;
  if (!some(wxVals) && !some(aliVals))
    return { config: { kind: 'sandbox', sandboxUrl: c.PAY_SANDBOX_URL, sweepSeconds }, issues };
  if (some(wxVals) && !all(wxVals))
    issues.push(
      'WECHATPAY_*: WeChat Pay needs WECHATPAY_MCHID, WECHATPAY_APPID, WECHATPAY_SERIAL, WECHATPAY_PRIVATE_KEY, WECHATPAY_APIV3_KEY, WECHATPAY_PLATFORM_SERIAL and WECHATPAY_PLATFORM_PUBLIC_KEY together',
    );
  if (c.WECHATPAY_APIV3_KEY && Buffer.byteLength(c.WECHATPAY_APIV3_KEY) !== 32)
    issues.push('WECHATPAY_APIV3_KEY: must be 32 bytes');
  if (some(aliVals) && !all(aliVals))
    issues.push('ALIPAY_*: Alipay needs ALIPAY_APP_ID, ALIPAY_PRIVATE_KEY and ALIPAY_PUBLIC_KEY together');
  if (c.PAY_SANDBOX_URL)
    issues.push('PAY_SANDBOX_URL: the payment sandbox never runs with merchant credentials');
  return {
    config: {
      kind: 'live',
      wechat: all(wxVals)
        ? { baseUrl: c.WECHATPAY_BASE_URL, ...(wxVals as Omit<LiveWechat, 'baseUrl'>) }
        : undefined,
      alipay: all(aliVals)
        ? { gateway: c.ALIPAY_GATEWAY, ...(aliVals as Omit<LiveAlipay, 'gateway'>) }
        : undefined,
      sweepSeconds,
    },
    issues,
  };
}
