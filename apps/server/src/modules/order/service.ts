/**
 * Orders and their fulfilment. An order fixes what it gives when it is made (plan days, coins, bonus); paying
 * it changes, in ONE transaction, the order's status, the account's level and expiry, the purchase flag, the
 * coin balance with its ledger row (ref `order:<orderNo>`), the provider notice marker and the inviter's
 * cash-back commission. The order row is locked first and only a pending (or expired-and-closed) order turns
 * paid, so a notice delivered twice, or twenty at once, pays once.
 */
import { randomInt } from 'node:crypto';
import { AppError, Codes, Messages } from '../../errors.ts';
import { ACCOUNT_COMPANY, type Clock, DAY_MS, type Page, type UserRecord } from '../../ports.ts';
import { type CoinService, Reasons } from '../coins/service.ts';
import { type Goods, goodsById, PACK_BONUS_PERCENT } from '../goods/catalogue.ts';
import { effectiveLevel } from '../user/service.ts';
import {
  type CashbackRecord,
  type CashbackRepo,
  type InvoiceRecord,
  type InvoiceRepo,
  type OrderGrant,
  type OrderPdfInput,
  type OrderPdfRenderer,
  type OrderRecord,
  type OrderResult,
  type PayMethod,
  PaymentNoticeError,
  type PayRepos,
  type PayStore,
  type ProviderPaid,
} from './ports.ts';

/** Spec §9: the payment countdown is 300 s; an order lives as long as its QR code. */
export const ORDER_TTL_MS = 300_000;
/** Default cash-back rate (basis points of the order amount) until an administrator sets one: 10 %. */
export const DEFAULT_CASHBACK_BP = 1000;
export const CASHBACK_RATE_KEY = 'cashback_rate_bp';

export const PayMessages = {
  COMPANY_CANNOT_BUY: Messages.COMPANY_CANNOT_BUY,
  /** Not in the spec: an individual account calling a company purchase. */
  COMPANY_ONLY: '该商品仅限企业用户购买',
  /** Not in the spec: a yearly member buying the monthly plan (it would shorten nothing and gain nothing). */
  YEARLY_HAS_MONTHLY: '您已是年度会员，无需购买月度版',
  UNKNOWN_GOODS: '商品不存在',
  UNKNOWN_ORDER: '订单不存在',
} as const;

export interface FulfilOutcome {
  order: OrderRecord;
  /** False when the order had already been paid (nothing changed now). */
  fulfilled: boolean;
}

/** `MC` + UTC yyyyMMddHHmmss + 8 random digits (22 characters; WeChat wants 6–32). */
export function newOrderNo(now: number): string {
  const d = new Date(now).toISOString().replace(/\D/g, '').slice(0, 14);
  return `MC${d}${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

export class OrderService {
  constructor(
    private readonly store: PayStore,
    private readonly coins: CoinService,
    private readonly clock: Clock,
    private readonly renderPdf?: OrderPdfRenderer,
  ) {}

  // ---------- records around orders: receipts, invoices, cash-back ----------

  async userById(id: number): Promise<UserRecord | undefined> {
    return this.store.repos.users.findById(id);
  }

  /** The order's receipt as an A4 PDF. */
  async receiptPdf(o: OrderPdfInput): Promise<Buffer> {
    if (!this.renderPdf) throw new AppError(Codes.INTERNAL, 'no PDF renderer configured');
    return this.renderPdf(o);
  }

  invoiceOf(orderNo: string): Promise<InvoiceRecord | undefined> {
    return this.store.repos.invoices.byOrder(orderNo);
  }

  /** Files an invoice request; undefined when the order already has one. */
  createInvoice(
    i: Omit<InvoiceRecord, 'id' | 'status' | 'updatedAt' | 'createdAt'>,
  ): Promise<InvoiceRecord | undefined> {
    return this.store.repos.invoices.create({ ...i, createdAt: this.clock.now() });
  }

  invoices(q: Parameters<InvoiceRepo['list']>[0]): Promise<Page<InvoiceRecord>> {
    return this.store.repos.invoices.list(q);
  }

  setInvoiceStatus(id: number, status: InvoiceRecord['status']): Promise<boolean> {
    return this.store.repos.invoices.setStatus(id, status, this.clock.now());
  }

  cashbackCodeOf(userId: number): Promise<string | undefined> {
    return this.store.repos.cashback.codeOf(userId);
  }

  /** Sets the user's cash-back code; false when another user holds it. */
  setCashbackCode(userId: number, code: string): Promise<boolean> {
    return this.store.repos.cashback.setCode(userId, code, this.clock.now());
  }

  cashbackRecords(q: Parameters<CashbackRepo['list']>[0]): Promise<Page<CashbackRecord>> {
    return this.store.repos.cashback.list(q);
  }

  cashbackTotals(inviterId: number): Promise<{ pending: number; paid: number }> {
    return this.store.repos.cashback.totals(inviterId);
  }

  /** Marks pending cash-back records paid; how many and their sum. */
  markCashbackPaid(ids: number[]): Promise<{ count: number; amount: number }> {
    return this.store.repos.cashback.markPaid(ids, this.clock.now());
  }

  /** The goods, checked against the account type: company accounts buy company goods only, and vice versa. */
  goodsFor(user: UserRecord, goodsId: number, companyRoute: boolean): Goods {
    const g = goodsById(goodsId);
    if (!g) throw new AppError(Codes.NOT_FOUND, PayMessages.UNKNOWN_GOODS);
    const isCompany = user.type === ACCOUNT_COMPANY;
    if (isCompany && g.kind !== 'company') throw new AppError(Codes.REFUSED, PayMessages.COMPANY_CANNOT_BUY);
    if (!isCompany && g.kind === 'company') throw new AppError(Codes.REFUSED, PayMessages.COMPANY_ONLY);
    if (companyRoute !== isCompany)
      throw new AppError(
        Codes.REFUSED,
        isCompany ? PayMessages.COMPANY_CANNOT_BUY : PayMessages.COMPANY_ONLY,
      );
    if (g.kind === 'plan' && g.level === 'monthly' && effectiveLevel(user, this.clock.now()) === 'yearly')
      throw new AppError(Codes.REFUSED, PayMessages.YEARLY_HAS_MONTHLY);
    return g;
  }

  grantOf(user: UserRecord, g: Goods): OrderGrant {
    if (g.kind === 'company') return { coins: g.coins, bonus: 0, currency: 'CV' };
    if (g.kind === 'plan') return { level: g.level, days: g.days, coins: g.coins, bonus: 0, currency: 'V' };
    const pct = PACK_BONUS_PERCENT[effectiveLevel(user, this.clock.now())];
    return { coins: g.coins, bonus: Math.floor((g.coins * pct) / 100), currency: 'V' };
  }

  /**
   * A pending order for (user, goods, method): the open one when it is still unexpired (same price, same QR),
   * otherwise a new one. `attach` gives the provider's payment handle for a new order.
   */
  async open(
    user: UserRecord,
    goodsId: number,
    method: PayMethod,
    companyRoute: boolean,
  ): Promise<{ order: OrderRecord; goods: Goods; reused: boolean }> {
    const g = this.goodsFor(user, goodsId, companyRoute);
    const now = this.clock.now();
    // Leave at least a minute for paying before handing out an open order again.
    const open = await this.store.repos.orders.openFor(user.id, g.id, method, now + 60_000);
    if (open && (method !== 'wechat' || open.codeUrl)) return { order: open, goods: g, reused: true };
    const order = await this.store.repos.orders.create({
      orderNo: newOrderNo(now),
      userId: user.id,
      goodsId: g.id,
      goodsKind: g.kind,
      title: g.title,
      amount: g.price,
      method,
      status: 'pending',
      codeUrl: null,
      grant: this.grantOf(user, g),
      createdAt: now,
      expiresAt: now + ORDER_TTL_MS,
    });
    return { order, goods: g, reused: false };
  }

  setCodeUrl(orderNo: string, codeUrl: string): Promise<void> {
    return this.store.repos.orders.setCodeUrl(orderNo, codeUrl, this.clock.now());
  }

  byNo(orderNo: string): Promise<OrderRecord | undefined> {
    return this.store.repos.orders.byNo(orderNo);
  }

  /** The caller's own order (administrators see every order); 404 otherwise. */
  async ownOrder(user: UserRecord, orderNo: string, admin = false): Promise<OrderRecord> {
    const o = await this.store.repos.orders.byNo(orderNo);
    if (!o || (!admin && o.userId !== user.id))
      throw new AppError(Codes.NOT_FOUND, PayMessages.UNKNOWN_ORDER);
    return o;
  }

  list(userId: number | undefined, kind: 'individual' | 'company' | undefined, page: number, size: number) {
    return this.store.repos.orders.list({ userId, kind, page, size });
  }

  /**
   * Pays an order the provider confirmed. Throws PaymentNoticeError for an unknown order, a wrong amount or a
   * replayed notice id; returns `fulfilled: false` when the order was already paid.
   */
  async fulfil(method: PayMethod, paid: ProviderPaid): Promise<FulfilOutcome> {
    return this.store.transaction(async (repos) => {
      const order = await repos.orders.byNoForUpdate(paid.orderNo);
      if (!order) throw new PaymentNoticeError(`unknown order ${paid.orderNo}`);
      if (order.method !== method)
        throw new PaymentNoticeError(`order ${order.orderNo} is not a ${method} order`);
      if (paid.amount !== order.amount)
        throw new PaymentNoticeError(
          `amount ${paid.amount} does not match order ${order.orderNo} (${order.amount})`,
        );
      const now = this.clock.now();
      if (paid.noticeId && !(await repos.payNotices.claim(paid.noticeId, method, order.orderNo, now)))
        return { order, fulfilled: false };
      if (order.status === 'paid') return { order, fulfilled: false };
      const result = await this.apply(repos, order, now);
      if (!(await repos.orders.markPaid(order.orderNo, paid.tradeNo, result, now)))
        return { order, fulfilled: false };
      await this.commission(repos, order, now);
      return {
        order: { ...order, status: 'paid', tradeNo: paid.tradeNo, result, paidAt: now, updatedAt: now },
        fulfilled: true,
      };
    });
  }

  private async apply(repos: PayRepos, order: OrderRecord, now: number): Promise<OrderResult> {
    const user = await repos.users.findById(order.userId);
    if (!user) throw new PaymentNoticeError(`order ${order.orderNo}: account gone`);
    const g = order.grant;
    const levelBefore = effectiveLevel(user, now);
    const expiryBefore = levelBefore === 'free' ? null : user.vexpiredAt;
    let levelAfter: string = levelBefore;
    let expiryAfter = expiryBefore;
    let carriedDays: number | undefined;
    if (g.level && g.days) {
      const remaining = expiryBefore !== null ? Math.max(0, expiryBefore - now) : 0;
      if (g.level === 'yearly' && levelBefore === 'monthly') {
        // Month → year: the remaining monthly time is carried into the yearly plan.
        carriedDays = Math.round((remaining / DAY_MS) * 100) / 100;
        expiryAfter = now + remaining + g.days * DAY_MS;
        levelAfter = 'yearly';
      } else if (g.level === 'monthly' && levelBefore === 'yearly') {
        // A yearly member was refused the monthly plan when ordering; if they became yearly since, the month is
        // added to the yearly plan rather than lost.
        expiryAfter = now + remaining + g.days * DAY_MS;
        levelAfter = 'yearly';
      } else {
        expiryAfter = now + remaining + g.days * DAY_MS;
        levelAfter = g.level;
      }
      await repos.users.update(
        user.id,
        { level: levelAfter as 'monthly' | 'yearly', vexpiredAt: expiryAfter, purchased: true },
        now,
      );
    } else if (!user.purchased && user.type !== ACCOUNT_COMPANY) {
      await repos.users.update(user.id, { purchased: true }, now);
    }
    const ledgerRef = `order:${order.orderNo}`;
    const total = g.coins + g.bonus;
    let balanceAfter = g.currency === 'V' ? user.surplus : user.cvCoin;
    if (total > 0) {
      const r = await this.coins.changeIn(repos, user.id, total, Reasons.PURCHASE, ledgerRef, {
        currency: g.currency,
        note: `${goodsById(order.goodsId)?.en ?? order.title} (${order.orderNo})`,
      });
      balanceAfter = r.balance;
    }
    return {
      levelBefore,
      levelAfter,
      expiryBefore,
      expiryAfter,
      ...(carriedDays !== undefined ? { carriedDays } : {}),
      coins: total,
      balanceAfter,
      ledgerRef,
    };
  }

  /** The inviter of a paying individual earns a commission at the administrator's rate (integer fen, floor). */
  private async commission(repos: PayRepos, order: OrderRecord, now: number): Promise<void> {
    if (order.goodsKind === 'company') return;
    const buyer = await repos.users.findById(order.userId);
    if (!buyer?.referredBy) return;
    const rateBp = await this.cashbackRateIn(repos);
    const amount = Math.floor((order.amount * rateBp) / 10_000);
    if (amount <= 0) return;
    await repos.cashback.add({
      inviterId: buyer.referredBy,
      inviteeId: buyer.id,
      orderNo: order.orderNo,
      orderAmount: order.amount,
      rateBp,
      amount,
      createdAt: now,
    });
  }

  private async cashbackRateIn(repos: PayRepos): Promise<number> {
    const v = await repos.sysConfig.get(CASHBACK_RATE_KEY);
    const n = v === undefined ? DEFAULT_CASHBACK_BP : Number(v);
    return Number.isInteger(n) && n >= 0 && n <= 10_000 ? n : DEFAULT_CASHBACK_BP;
  }

  cashbackRate(): Promise<number> {
    return this.cashbackRateIn(this.store.repos);
  }

  async setCashbackRate(bp: number): Promise<void> {
    if (!Number.isInteger(bp) || bp < 0 || bp > 10_000)
      throw new AppError(Codes.PARAMETER_ERROR, 'rate must be 0–10000 basis points');
    await this.store.repos.sysConfig.set(CASHBACK_RATE_KEY, String(bp), this.clock.now());
  }

  /** Marks a pending order closed (expired or abandoned); false when it was not pending. */
  close(orderNo: string): Promise<boolean> {
    return this.store.repos.orders.markClosed(orderNo, this.clock.now());
  }

  expired(limit = 100): Promise<OrderRecord[]> {
    return this.store.repos.orders.expired(this.clock.now(), limit);
  }

  get repos(): PayRepos {
    return this.store.repos;
  }

  page<T>(p: Page<T>): Page<T> {
    return p;
  }
}
