/**
 * Payment calls (spec §7 Payment, Records, Referral and cash-back) and the rules of the payment modal (spec §4,
 * §9): the 300 s countdown, the 2 s poll of the WeChat order, money in fen shown as yuan.
 */
import type {
  Cashback,
  CashbackSummary,
  Goods,
  GoodsList,
  Invitee,
  Invoice,
  InvoiceInput,
  Order,
  Page,
  PayMethods,
  Prepay,
  ReferralRecords,
  SkuRole,
} from '@mocap/contracts';
import { API_BASE, api, authHeaders } from './api.ts';
import { hasKey, t } from './i18n.ts';

export const PAY_COUNTDOWN_S = 300;
export const PAY_POLL_MS = 2000;

/** The payment endpoints' shapes are the contract's (`@mocap/contracts` pay.ts). */
export type { Cashback, Goods, GoodsList, Invitee, InvoiceInput, Order, Page, Prepay };

/** 9900 → "99.00" (integer arithmetic). */
export const yuan = (fen: number): string => `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
/** 9900 → "99", 9950 → "99.50". */
export const yuanShort = (fen: number): string => (fen % 100 === 0 ? String(fen / 100) : yuan(fen));

/** The goods' name in the user's language (the server's title is bilingual). */
export const goodsName = (g: { name: string; title: string }): string =>
  hasKey(`goods.${g.name}`) ? t(`goods.${g.name}`) : g.title;

/** The catalogue's goods names by id (server `modules/goods/catalogue.ts`; ids are stable). */
const GOODS_NAME_BY_ID: Record<number, string> = {
  1: 'monthly',
  2: 'yearly',
  11: 'coins100',
  12: 'coins500',
  13: 'coins2000',
  21: 'cv1000',
  22: 'cv5000',
  23: 'cv20000',
};

/** An order's goods in the user's language (the stored title is bilingual: "月度专业版 Monthly Pro"). */
export const orderGoodsName = (o: Pick<Order, 'goodsId' | 'title'>): string =>
  goodsName({ name: GOODS_NAME_BY_ID[o.goodsId] ?? '', title: o.title });

export const getGoods = () => api.get<GoodsList>('/goods');
export const companyProducts = () => api.post<Goods[]>('/sysProduct/queryAll');
export const payMethods = () => api.get<PayMethods>('/pay/methods', { silent: true });
/** `renew`: a fresh order even if one of these goods is still open (the price was chosen again after expiry). */
export const wxPrepay = (goodsId: number, company = false, renew = false) =>
  api.post<Prepay>(
    `${company ? `/wx/company/prepay/${goodsId}` : `/wx/prepay/${goodsId}`}${renew ? '?renew=1' : ''}`,
  );
/** Truthy when paid. Polled: failures are silent (the next poll tries again). */
export const wxOrderPaid = (orderNo: string) =>
  api.get<boolean>(`/wx/order/${encodeURIComponent(orderNo)}`, { silent: true });
export const alipayForm = (goodsId: number, company = false) =>
  api.post<string>(company ? `/alipay/company/palace/${goodsId}` : `/alipay/palace/${goodsId}`);
export const orderRecords = (page = 1, size = 10) =>
  api.post<Page<Order>>('/user/order/record', { page, size });
export const orderDetail = (orderNo: string) => api.get<Order>(`/user/order/${encodeURIComponent(orderNo)}`);
export const isPursh = () => api.get<0 | 1>('/auth/enhanced/purchasing', { silent: true });
export const skuRole = () => api.get<SkuRole>('/user/sku/role', { silent: true });

export const requestInvoice = (i: InvoiceInput) =>
  api.post<Invoice>(i.taxNo ? '/code/personInvoice/business' : '/code/personInvoice', i);

export const cashbackCode = () => api.get<string>('/user/getRandomBackCashCode');
export const setCashbackCode = (code: string) => api.post<string>('/user/setBackCashCode', { code });
export const cashbackSummary = () => api.post<CashbackSummary>('/user/referral/cash');
export const cashbackRecords = (page = 1, size = 10) =>
  api.post<Page<Cashback>>('/user/referral/cashBack', { page, size });

export const referralRecords = () => api.post<ReferralRecords>('/user/referral/record', {}, { silent: true });
export const referralEmail = (email: string) => api.post<null>('/user/referral/email', { email });

/** Downloads the order's A4 PDF (the server renders it with a CJK font). */
export async function downloadOrderPdf(orderNo: string): Promise<Blob> {
  const res = await fetch(`${API_BASE}/user/order/${encodeURIComponent(orderNo)}/pdf`, {
    headers: authHeaders(),
  });
  if (!res.ok || res.headers.get('content-type') !== 'application/pdf') throw new Error(`PDF ${res.status}`);
  return res.blob();
}

/** Puts the Alipay form into the page and submits it (the browser goes to the cashier). */
export function submitPayForm(html: string, doc: Document = document): void {
  const box = doc.createElement('div');
  box.style.display = 'none';
  box.innerHTML = html;
  doc.body.appendChild(box);
  const form = box.querySelector('form');
  if (!form) throw new Error('payment form missing');
  form.submit();
}

/** The seconds left before `deadline` (ms), never below 0. */
export const secondsLeft = (deadline: number, now: number): number =>
  Math.max(0, Math.ceil((deadline - now) / 1000));

export const mmss = (s: number): string =>
  `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
