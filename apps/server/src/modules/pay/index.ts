/** The money side's services, built once from the infrastructure (see services/index.ts). */
import type { Infra } from '../../infra/index.ts';
import type { CoinService } from '../../services/coins.ts';
import { createPayStore } from '../order/repo.ts';
import { OrderService } from '../order/service.ts';
import { PayService } from './service.ts';

export interface PayServices {
  orders: OrderService;
  pay: PayService;
}

export function createPayServices(infra: Infra, coins: CoinService): PayServices {
  const orders = new OrderService(createPayStore(infra.database), coins, infra.clock);
  const pay = new PayService(orders, infra.payment.providers, infra.payment, infra.clock, (msg, err) =>
    console.warn(`[pay] ${msg}${err ? `: ${(err as Error).message ?? err}` : ''}`),
  );
  return { orders, pay };
}

export { OrderService, PayService };
