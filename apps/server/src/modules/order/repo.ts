/**
 * Money-side repositories over Kysely (SQLite or PostgreSQL): orders, provider notices, invoices, cash-back.
 * Table types live here (migration `300_payments`); the instance may be a connection or a transaction.
 */
import { type ColumnType, type Generated, type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../infra/db/index.ts';
import { newestFirst } from '../../infra/db/paging.ts';
import { dueRows, insertRow, rowWhere, snakeKeys, updateWhere } from '../../infra/db/rows.ts';
import type { DB } from '../../infra/db/schema.ts';
import type { Page } from '../../ports.ts';
import { createRepos, storeOver } from '../../store.ts';
import type { GoodsKind } from '../goods/catalogue.ts';
import type {
  CashbackRecord,
  CashbackRepo,
  InvoiceRecord,
  InvoiceRepo,
  NewOrder,
  NoticeRepo,
  OrderQuery,
  OrderRecord,
  OrderRepo,
  OrderResult,
  OrderStatus,
  PayMethod,
  PayRepos,
  PayStore,
} from './ports.ts';

interface OrdersTable {
  id: Generated<number>;
  order_no: string;
  user_id: number;
  goods_id: number;
  goods_kind: string;
  title: string;
  amount: number;
  method: string;
  status: string;
  code_url: string | null;
  trade_no: string | null;
  grant_json: string;
  result_json: string | null;
  created_at: number;
  expires_at: number;
  paid_at: number | null;
  closed_at: number | null;
  updated_at: number;
}
interface PaymentNoticesTable {
  notice_id: string;
  provider: string;
  order_no: string;
  received_at: number;
}
interface InvoicesTable {
  id: Generated<number>;
  user_id: number;
  order_no: string;
  kind: string;
  title: string;
  tax_no: string | null;
  email: string;
  amount: number;
  status: string;
  created_at: number;
  updated_at: number;
}
interface CashbackCodesTable {
  user_id: number;
  code: string;
  created_at: number;
}
interface CashbackRecordsTable {
  id: Generated<number>;
  inviter_id: number;
  invitee_id: number;
  order_no: string;
  order_amount: number;
  rate_bp: number;
  amount: number;
  status: ColumnType<string, string, string>;
  created_at: number;
  paid_at: number | null;
}

export interface PayDB extends DB {
  orders: OrdersTable;
  payment_notices: PaymentNoticesTable;
  invoices: InvoicesTable;
  cashback_codes: CashbackCodesTable;
  cashback_records: CashbackRecordsTable;
}

const toOrder = (r: Selectable<OrdersTable>): OrderRecord => ({
  id: Number(r.id),
  orderNo: r.order_no,
  userId: Number(r.user_id),
  goodsId: Number(r.goods_id),
  goodsKind: r.goods_kind as GoodsKind,
  title: r.title,
  amount: Number(r.amount),
  method: r.method as PayMethod,
  status: r.status as OrderStatus,
  codeUrl: r.code_url,
  tradeNo: r.trade_no,
  grant: JSON.parse(r.grant_json),
  result: r.result_json ? JSON.parse(r.result_json) : null,
  createdAt: Number(r.created_at),
  expiresAt: Number(r.expires_at),
  paidAt: r.paid_at === null ? null : Number(r.paid_at),
  closedAt: r.closed_at === null ? null : Number(r.closed_at),
  updatedAt: Number(r.updated_at),
});

class KyselyOrderRepo implements OrderRepo {
  constructor(
    private readonly db: Kysely<PayDB>,
    private readonly kind: 'sqlite' | 'postgres',
  ) {}

  async create(o: NewOrder) {
    const { grant, ...fields } = o;
    const unset = { trade_no: null, result_json: null, paid_at: null, closed_at: null };
    const values = {
      ...snakeKeys(fields),
      grant_json: JSON.stringify(grant),
      ...unset,
      updated_at: o.createdAt,
    };
    return toOrder(await insertRow(this.db, 'orders', values));
  }

  async byNo(orderNo: string) {
    const r = await rowWhere(this.db, 'orders', { order_no: orderNo });
    return r && toOrder(r);
  }

  async byNoForUpdate(orderNo: string) {
    let q = this.db.selectFrom('orders').selectAll().where('order_no', '=', orderNo);
    if (this.kind === 'postgres') q = q.forUpdate();
    const r = await q.executeTakeFirst();
    return r && toOrder(r);
  }

  async openFor(userId: number, goodsId: number, method: PayMethod, now: number) {
    const r = await this.db
      .selectFrom('orders')
      .selectAll()
      .where('user_id', '=', userId)
      .where('goods_id', '=', goodsId)
      .where('method', '=', method)
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return r && toOrder(r);
  }

  async setCodeUrl(orderNo: string, codeUrl: string, now: number) {
    await updateWhere(this.db, 'orders', { code_url: codeUrl, updated_at: now }, { order_no: orderNo });
  }

  async markPaid(orderNo: string, tradeNo: string | null, result: OrderResult, now: number) {
    const set = {
      status: 'paid',
      trade_no: tradeNo,
      result_json: JSON.stringify(result),
      paid_at: now,
      updated_at: now,
    };
    return (
      (await updateWhere(this.db, 'orders', set, { order_no: orderNo, status: ['pending', 'closed'] })) === 1
    );
  }

  async markClosed(orderNo: string, now: number) {
    const set = { status: 'closed', closed_at: now, updated_at: now };
    return (await updateWhere(this.db, 'orders', set, { order_no: orderNo, status: 'pending' })) === 1;
  }

  async expired(now: number, limit: number) {
    return (await dueRows(this.db, 'orders', { status: 'pending' }, 'expires_at', now, limit)).map(toOrder);
  }

  async list(q: OrderQuery): Promise<Page<OrderRecord>> {
    let base = this.db.selectFrom('orders');
    if (q.userId !== undefined) base = base.where('user_id', '=', q.userId);
    if (q.kind === 'company') base = base.where('goods_kind', '=', 'company');
    if (q.kind === 'individual') base = base.where('goods_kind', '!=', 'company');
    if (q.status) base = base.where('status', '=', q.status);
    return newestFirst(base, q, toOrder);
  }

  async paidTotal(userId: number) {
    const r = await this.db
      .selectFrom('orders')
      .select(sql<number>`coalesce(sum(amount), 0)`.as('s'))
      .where('user_id', '=', userId)
      .where('status', '=', 'paid')
      .executeTakeFirstOrThrow();
    return Number(r.s);
  }
}

class KyselyNoticeRepo implements NoticeRepo {
  constructor(private readonly db: Kysely<PayDB>) {}
  async claim(noticeId: string, provider: PayMethod, orderNo: string, now: number) {
    const r = await this.db
      .insertInto('payment_notices')
      .values({
        notice_id: `${provider}:${noticeId}`.slice(0, 128),
        provider,
        order_no: orderNo,
        received_at: now,
      })
      .onConflict((oc) => oc.column('notice_id').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}

const toInvoice = (r: Selectable<InvoicesTable>): InvoiceRecord => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  orderNo: r.order_no,
  kind: r.kind as InvoiceRecord['kind'],
  title: r.title,
  taxNo: r.tax_no,
  email: r.email,
  amount: Number(r.amount),
  status: r.status as InvoiceRecord['status'],
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

class KyselyInvoiceRepo implements InvoiceRepo {
  constructor(private readonly db: Kysely<PayDB>) {}
  async create(i: Omit<InvoiceRecord, 'id' | 'status' | 'updatedAt'>) {
    const r = await this.db
      .insertInto('invoices')
      .values({ ...snakeKeys(i), status: 'pending', updated_at: i.createdAt })
      .onConflict((oc) => oc.column('order_no').doNothing())
      .returningAll()
      .executeTakeFirst();
    return r && toInvoice(r);
  }
  async byOrder(orderNo: string) {
    const r = await rowWhere(this.db, 'invoices', { order_no: orderNo });
    return r && toInvoice(r);
  }
  async list(q: { userId?: number; status?: InvoiceRecord['status']; page: number; size: number }) {
    let base = this.db.selectFrom('invoices');
    if (q.userId !== undefined) base = base.where('user_id', '=', q.userId);
    if (q.status) base = base.where('status', '=', q.status);
    return newestFirst(base, q, toInvoice);
  }
  async setStatus(id: number, status: InvoiceRecord['status'], now: number) {
    return (await updateWhere(this.db, 'invoices', { status, updated_at: now }, { id })) === 1;
  }
}

const toCashback = (r: Selectable<CashbackRecordsTable>): CashbackRecord => ({
  id: Number(r.id),
  inviterId: Number(r.inviter_id),
  inviteeId: Number(r.invitee_id),
  orderNo: r.order_no,
  orderAmount: Number(r.order_amount),
  rateBp: Number(r.rate_bp),
  amount: Number(r.amount),
  status: r.status as CashbackRecord['status'],
  createdAt: Number(r.created_at),
  paidAt: r.paid_at === null ? null : Number(r.paid_at),
});

class KyselyCashbackRepo implements CashbackRepo {
  constructor(private readonly db: Kysely<PayDB>) {}
  async codeOf(userId: number) {
    return (await rowWhere(this.db, 'cashback_codes', { user_id: userId }))?.code;
  }
  async userByCode(code: string) {
    const r = await rowWhere(this.db, 'cashback_codes', { code });
    return r ? Number(r.user_id) : undefined;
  }
  async setCode(userId: number, code: string, now: number) {
    const holder = await this.userByCode(code);
    if (holder !== undefined && holder !== userId) return false;
    const r = await this.db
      .insertInto('cashback_codes')
      .values({ user_id: userId, code, created_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ code, created_at: now }))
      .executeTakeFirst()
      .catch(() => undefined);
    return r !== undefined;
  }
  async add(r: Omit<CashbackRecord, 'id' | 'paidAt' | 'status'>) {
    await this.db
      .insertInto('cashback_records')
      .values({ ...snakeKeys(r), status: 'pending', paid_at: null })
      .onConflict((oc) => oc.column('order_no').doNothing())
      .execute();
  }
  async list(q: { inviterId?: number; status?: CashbackRecord['status']; page: number; size: number }) {
    let base = this.db.selectFrom('cashback_records');
    if (q.inviterId !== undefined) base = base.where('inviter_id', '=', q.inviterId);
    if (q.status) base = base.where('status', '=', q.status);
    return newestFirst(base, q, toCashback);
  }
  async totals(inviterId: number) {
    const rows = await this.db
      .selectFrom('cashback_records')
      .select(['status', sql<number>`coalesce(sum(amount), 0)`.as('s')])
      .where('inviter_id', '=', inviterId)
      .groupBy('status')
      .execute();
    const get = (s: string) => Number(rows.find((r) => r.status === s)?.s ?? 0);
    return { pending: get('pending'), paid: get('paid') };
  }
  async markPaid(ids: number[], now: number) {
    if (ids.length === 0) return { count: 0, amount: 0 };
    const rows = await this.db
      .updateTable('cashback_records')
      .set({ status: 'paid', paid_at: now })
      .where('id', 'in', ids)
      .where('status', '=', 'pending')
      .returning(['amount'])
      .execute();
    return { count: rows.length, amount: rows.reduce((a, r) => a + Number(r.amount), 0) };
  }
}

function reposOf(db: Kysely<DB>, kind: 'sqlite' | 'postgres'): PayRepos {
  const pdb = db as unknown as Kysely<PayDB>;
  return {
    ...createRepos(db, kind),
    orders: new KyselyOrderRepo(pdb, kind),
    payNotices: new KyselyNoticeRepo(pdb),
    invoices: new KyselyInvoiceRepo(pdb),
    cashback: new KyselyCashbackRepo(pdb),
  };
}

export function createPayStore(database: Pick<Database, 'db' | 'kind'>): PayStore {
  return storeOver(database, reposOf);
}
