/**
 * Orders, payments, invoices and cash-back: domain types and the repository interfaces (implemented in
 * `repo.ts`, the only SQL of the money side), plus the payment-provider ports the infrastructure implements
 * (`src/infra/pay/`).
 */
import type { Page, PagedQuery, Repos } from '../../ports.ts';
import type { GoodsKind } from '../goods/catalogue.ts';

export type PayMethod = 'wechat' | 'alipay';
export type OrderStatus = 'pending' | 'paid' | 'closed';

/** What paying the order gives, fixed when the order is made. */
export interface OrderGrant {
  level?: 'monthly' | 'yearly';
  days?: number;
  coins: number;
  bonus: number;
  currency: 'V' | 'CV';
}

/** What fulfilment did (kept on the order, shown in its detail). */
export interface OrderResult {
  levelBefore: string;
  levelAfter: string;
  expiryBefore: number | null;
  expiryAfter: number | null;
  /** Days of the previous plan carried into the new one (month → year upgrade). */
  carriedDays?: number;
  coins: number;
  balanceAfter: number;
  ledgerRef: string;
}

export interface OrderRecord {
  id: number;
  orderNo: string;
  userId: number;
  goodsId: number;
  goodsKind: GoodsKind;
  title: string;
  amount: number;
  method: PayMethod;
  status: OrderStatus;
  codeUrl: string | null;
  tradeNo: string | null;
  grant: OrderGrant;
  result: OrderResult | null;
  createdAt: number;
  expiresAt: number;
  paidAt: number | null;
  closedAt: number | null;
  updatedAt: number;
}

export type NewOrder = Omit<OrderRecord, 'id' | 'result' | 'paidAt' | 'closedAt' | 'updatedAt' | 'tradeNo'>;

export type OrderQuery = PagedQuery<{
  userId?: number;
  kind?: 'individual' | 'company';
  status?: OrderStatus;
}>;

export interface OrderRepo {
  create(o: NewOrder): Promise<OrderRecord>;
  byNo(orderNo: string): Promise<OrderRecord | undefined>;
  /** The order locked for the rest of the transaction (PostgreSQL row lock; SQLite transactions are serial). */
  byNoForUpdate(orderNo: string): Promise<OrderRecord | undefined>;
  /** A pending, unexpired order of this user, goods and method (reused instead of a new one). */
  openFor(userId: number, goodsId: number, method: PayMethod, now: number): Promise<OrderRecord | undefined>;
  setCodeUrl(orderNo: string, codeUrl: string, now: number): Promise<void>;
  /** pending|closed → paid, once: false when the order was already paid (or does not exist). */
  markPaid(orderNo: string, tradeNo: string | null, result: OrderResult, now: number): Promise<boolean>;
  /** pending → closed; false when it was not pending. */
  markClosed(orderNo: string, now: number): Promise<boolean>;
  /** Pending orders whose time ran out (oldest first). */
  expired(now: number, limit: number): Promise<OrderRecord[]>;
  list(q: OrderQuery): Promise<Page<OrderRecord>>;
  /** Sum of paid orders of a user, in fen. */
  paidTotal(userId: number): Promise<number>;
}

export interface NoticeRepo {
  /** Records a provider notice id; false when it was seen before (a replay). */
  claim(noticeId: string, provider: PayMethod, orderNo: string, now: number): Promise<boolean>;
}

export interface InvoiceRecord {
  id: number;
  userId: number;
  orderNo: string;
  kind: 'personal' | 'business';
  title: string;
  taxNo: string | null;
  email: string;
  amount: number;
  status: 'pending' | 'issued' | 'rejected';
  createdAt: number;
  updatedAt: number;
}

export interface InvoiceRepo {
  create(i: Omit<InvoiceRecord, 'id' | 'status' | 'updatedAt'>): Promise<InvoiceRecord | undefined>;
  byOrder(orderNo: string): Promise<InvoiceRecord | undefined>;
  list(q: PagedQuery<{ userId?: number; status?: InvoiceRecord['status'] }>): Promise<Page<InvoiceRecord>>;
  setStatus(id: number, status: InvoiceRecord['status'], now: number): Promise<boolean>;
}

export interface CashbackRecord {
  id: number;
  inviterId: number;
  inviteeId: number;
  orderNo: string;
  orderAmount: number;
  rateBp: number;
  amount: number;
  status: 'pending' | 'paid';
  createdAt: number;
  paidAt: number | null;
}

export interface CashbackRepo {
  codeOf(userId: number): Promise<string | undefined>;
  userByCode(code: string): Promise<number | undefined>;
  /** Sets the user's code; false when another user holds it. */
  setCode(userId: number, code: string, now: number): Promise<boolean>;
  add(r: Omit<CashbackRecord, 'id' | 'paidAt' | 'status'>): Promise<void>;
  list(
    q: PagedQuery<{ inviterId?: number; status?: CashbackRecord['status'] }>,
  ): Promise<Page<CashbackRecord>>;
  totals(inviterId: number): Promise<{ pending: number; paid: number }>;
  /** Marks pending records paid; returns how many and their sum. */
  markPaid(ids: number[], now: number): Promise<{ count: number; amount: number }>;
}

export type PayRepos = Repos & {
  orders: OrderRepo;
  payNotices: NoticeRepo;
  invoices: InvoiceRepo;
  cashback: CashbackRepo;
};

export interface PayStore {
  readonly kind: 'sqlite' | 'postgres';
  readonly repos: PayRepos;
  transaction<T>(fn: (repos: PayRepos) => Promise<T>): Promise<T>;
}

/** A payment the provider confirmed (notice or query), already verified by the adapter. */
export interface ProviderPaid {
  orderNo: string;
  /** Amount the provider says was paid, in fen. */
  amount: number;
  tradeNo: string;
  /** Notice id for replay protection (absent for a query result). */
  noticeId?: string;
}

export interface ProviderOrderState {
  state: 'paid' | 'pending' | 'closed' | 'unknown';
  amount?: number;
  tradeNo?: string;
}

/** WeChat Pay API v3, Native payment. */
export interface WechatNativePort {
  prepay(o: {
    orderNo: string;
    description: string;
    amount: number;
    expiresAt: number;
    notifyUrl: string;
  }): Promise<{ codeUrl: string }>;
  query(orderNo: string): Promise<ProviderOrderState>;
  close(orderNo: string): Promise<void>;
  /** Verifies the notice's signature and time, decrypts its resource; throws PaymentNoticeError when not genuine. */
  parseNotice(headers: Record<string, string | undefined>, rawBody: string, now: number): ProviderPaid | null;
}

/** Alipay computer-website payment (alipay.trade.page.pay). */
export interface AlipayPagePort {
  /** The auto-submitting form HTML that takes the browser to the cashier. */
  pageForm(o: {
    orderNo: string;
    subject: string;
    amount: number;
    expiresAt: number;
    notifyUrl: string;
    returnUrl: string;
  }): string;
  query(orderNo: string): Promise<ProviderOrderState>;
  close(orderNo: string): Promise<void>;
  /** Verifies an async notice (RSA2 with Alipay's public key); null when it is not a payment success. */
  parseNotice(params: Record<string, string>): ProviderPaid | null;
  /** Verifies the signed return-URL parameters; the order number they name. */
  parseReturn(params: Record<string, string>): { orderNo: string; amount: number };
}

export interface PaymentProviders {
  /** 'sandbox' when the built-in sandbox plays both providers, 'live' with merchant credentials. */
  readonly mode: 'sandbox' | 'live';
  wechat?: WechatNativePort;
  alipay?: AlipayPagePort;
}

/** A notice or return that failed verification (forged, replayed, undecryptable, stale). */
export class PaymentNoticeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentNoticeError';
  }
}

/** What the order receipt (A4 PDF) shows. */
export interface OrderPdfInput {
  orderNo: string;
  account: string;
  title: string;
  /** fen */
  amount: number;
  method: 'wechat' | 'alipay';
  status: string;
  createdAt: number;
  paidAt: number | null;
  tradeNo: string | null;
  coins: number;
  currency: 'V' | 'CV';
  expiryAfter: number | null;
}

/** Renders the order receipt (pdfkit in `infra/pdf/order.ts`). */
export type OrderPdfRenderer = (o: OrderPdfInput) => Promise<Buffer>;

/** Fen as a yuan string with two decimals ("99.00"), integer arithmetic only. */
export function fenToYuan(fen: number): string {
  if (!Number.isSafeInteger(fen) || fen < 0) throw new RangeError('fen must be a non-negative integer');
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}

/** "99.00" / "99" / "99.5" → 9900 / 9900 / 9950; undefined for anything else. */
export function yuanToFen(s: string): number | undefined {
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(s.trim());
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}
