/**
 * Payment providers chosen from validated config at boot: `live` (WeChat Pay / Alipay with the merchant's
 * credentials from the environment) or `sandbox` (the built-in payment sandbox, `src/paysandbox`, with keys
 * generated once and kept in the secrets table). Both run the same protocol clients (`wechat.ts`,
 * `alipay.ts`); only the keys and the base URLs differ. The sandbox is never built in live mode.
 */
import type { Config } from '../../config.ts';
import type { AlipayPagePort, PaymentProviders, WechatNativePort } from '../../modules/order/ports.ts';
import { generateSandboxKeys, type SandboxKeys } from '../../paysandbox/keys.ts';
import type { Clock, Store } from '../../ports.ts';
import { createAlipayPage } from './alipay.ts';
import { createWechatNative } from './wechat.ts';

export interface PaymentInfra {
  providers: PaymentProviders;
  /** Sandbox keys (sandbox mode only): the server mounts the sandbox app with them. */
  sandboxKeys?: SandboxKeys;
  /** Where browsers reach the sandbox (sandbox mode only). */
  sandboxPublic?: () => string;
  /** The server's own address once it listens (`http://127.0.0.1:8080`): default base of notices and sandbox. */
  setSelfBase(url: string): void;
  selfBase(): string;
  /** Absolute `/product` base for provider notices. */
  apiBase(): string;
  /** Absolute `/capture` base for the browser's return. */
  webBase(): string;
}

/** Builds a port on first use, so base URLs known only after `listen` are in place. */
function lazy<T extends object>(make: () => T): T {
  let inst: T | undefined;
  return new Proxy({} as T, {
    get(_t, prop) {
      inst ??= make();
      const v = (inst as Record<string | symbol, unknown>)[prop];
      return typeof v === 'function' ? v.bind(inst) : v;
    },
  });
}

export async function createPaymentInfra(config: Config, store: Store, clock: Clock): Promise<PaymentInfra> {
  let self = `http://127.0.0.1:${config.PORT}`;
  const publicBase = () => (config.PUBLIC_URL ?? self).replace(/\/+$/, '');
  const base = {
    setSelfBase(url: string) {
      self = url.replace(/\/+$/, '');
    },
    selfBase: () => self,
    apiBase: () => `${publicBase()}/product`,
    webBase: () => `${publicBase()}/capture`,
  };
  const pay = config.payment;
  if (pay.kind === 'live') {
    const wechat: WechatNativePort | undefined = pay.wechat && createWechatNative(pay.wechat);
    const alipay: AlipayPagePort | undefined = pay.alipay && createAlipayPage(pay.alipay);
    return { providers: { mode: 'live', wechat, alipay }, ...base };
  }
  const keys = JSON.parse(
    await store.repos.secrets.getOrCreate(
      'paysandbox_keys',
      () => JSON.stringify(generateSandboxKeys()),
      clock.now(),
    ),
  ) as SandboxKeys;
  // The server reaches the sandbox at its own address (the sandbox is mounted there), not through PUBLIC_URL.
  const sandboxBase = () => (pay.sandboxUrl ?? `${self}/paysandbox`).replace(/\/+$/, '');
  const wechat = lazy(() =>
    createWechatNative({
      baseUrl: `${sandboxBase()}/wechat/`,
      mchid: keys.wechat.mchid,
      appid: keys.wechat.appid,
      serial: keys.wechat.merchantSerial,
      privateKey: keys.wechat.merchantPrivateKey,
      apiV3Key: keys.wechat.apiV3Key,
      platformSerial: keys.wechat.platformSerial,
      platformPublicKey: keys.wechat.platformPublicKey,
    }),
  );
  // The browser is sent to the gateway (cashier page), so it is addressed through PUBLIC_URL when set.
  const sandboxPublic = () => (pay.sandboxUrl ?? `${publicBase()}/paysandbox`).replace(/\/+$/, '');
  const alipay = lazy(() =>
    createAlipayPage({
      gateway: `${sandboxPublic()}/alipay/gateway.do`,
      appId: keys.alipay.appId,
      privateKey: keys.alipay.appPrivateKey,
      alipayPublicKey: keys.alipay.alipayPublicKey,
    }),
  );
  return { providers: { mode: 'sandbox', wechat, alipay }, sandboxKeys: keys, sandboxPublic, ...base };
}
