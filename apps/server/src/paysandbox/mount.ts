/**
 * What the server adds for payments outside /product: the payment sandbox at /paysandbox (sandbox mode only:
 * never with merchant credentials), the server's own address for notices once it listens, and the sweep that
 * closes expired orders (at the provider first) while the server runs.
 */
import type { FastifyInstance } from 'fastify';
import type { Infra, Services } from '../wiring.ts';
import { createPaySandbox } from './app.ts';

export const SANDBOX_PREFIX = '/paysandbox';

export async function mountPayments(app: FastifyInstance, infra: Infra, services: Services): Promise<void> {
  const payment = infra.payment;
  if (payment.providers.mode === 'sandbox' && payment.sandboxKeys) {
    const { plugin } = createPaySandbox({
      keys: payment.sandboxKeys,
      publicBase: () => payment.sandboxPublic?.() ?? `${payment.selfBase()}${SANDBOX_PREFIX}`,
    });
    await app.register(plugin, { prefix: SANDBOX_PREFIX });
    if (infra.config.NODE_ENV === 'production')
      app.log.warn(
        'payments: no WECHATPAY_*/ALIPAY_* merchant credentials, so the payment SANDBOX plays both providers at /paysandbox: anyone can "pay" there. Configure the credentials before selling.',
      );
  }
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onListen', async () => {
    const a = app.server.address();
    if (a && typeof a === 'object') {
      const host = a.address === '0.0.0.0' || a.address === '::' ? '127.0.0.1' : a.address;
      payment.setSelfBase(`http://${host.includes(':') ? `[${host}]` : host}:${a.port}`);
    }
    const every = infra.config.payment.sweepSeconds * 1000;
    timer = setInterval(() => {
      services.pay
        .closeExpired()
        .catch((e) => app.log.warn({ err: (e as Error).message }, 'order sweep failed'));
    }, every);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
