/** User centre tabs 2 pay plan, 3 invite plan, 4 cash-back (spec §2, §7 Referral and cash-back, §9 rewards). */

import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Modal, ModalButtons } from '../components/Modal.tsx';
import { fmtTime, OrderDetail } from '../components/OrderDetail.tsx';
import { Pager } from '../components/Pager.tsx';
import { PlanBadge } from '../components/TopBar.tsx';
import { useBusy } from '../lib/busy.ts';
import { t } from '../lib/i18n.ts';
import { toast } from '../lib/messages.ts';
import {
  type Cashback,
  cashbackCode,
  cashbackRecords,
  cashbackSummary,
  type Invitee,
  type Order,
  orderGoodsName,
  orderRecords,
  type Page,
  referralEmail,
  referralRecords,
  requestInvoice,
  setCashbackCode,
  yuan,
} from '../lib/pay.ts';
import { useSession } from '../lib/session.tsx';
import { formatDate } from './MyPro.tsx';
import '../styles/pay.css';
import { TableHead } from '../components/Tabs.tsx';

export function PayPlanTab() {
  const { user } = useSession();
  const navigate = useNavigate();
  const [orders, setOrders] = useState<Page<Order> | null>(null);
  const [page, setPage] = useState(1);
  const [detail, setDetail] = useState<string | null>(null);
  const [invoiceFor, setInvoiceFor] = useState<Order | null>(null);
  const load = useCallback(() => {
    orderRecords(page, 10)
      .then(setOrders)
      .catch(() => undefined);
  }, [page]);
  useEffect(load, [load]);
  if (!user) return null;
  return (
    <div className="center-grid tab-pay">
      <section className="panel account-card" data-testid="plan-card">
        <h2 className="panel-title">{t('plan.current')}</h2>
        <div className="account-plan">
          {user.company ? (
            <span className="plan-badge plan-company">{t('plan.company')}</span>
          ) : (
            <PlanBadge plan={user.plan} />
          )}
        </div>
        {user.plan !== 'free' && user.vexpiredAt && (
          <p data-testid="plan-expiry">{t('plan.expiry', { d: formatDate(user.vexpiredAt) })}</p>
        )}
        <p>
          {t('coins.balance')}: <strong data-testid="plan-coins">{user.surplus}</strong> V
        </p>
        <button type="button" className="btn btn-primary btn-block" onClick={() => navigate('/asPay/index')}>
          {user.plan === 'monthly'
            ? t('pay.upgrade')
            : user.plan === 'free'
              ? t('plan.goPricing')
              : t('pay.renew')}
        </button>
      </section>
      <section className="panel orders-panel">
        <h2 className="panel-title">{t('plan.orders')}</h2>
        {orders && orders.list.length === 0 && <p className="muted">{t('order.none')}</p>}
        {orders && orders.list.length > 0 && (
          <table className="price-table orders" data-testid="orders">
            <TableHead
              heads={[
                t('order.no'),
                t('order.goods'),
                t('order.amount'),
                t('order.status'),
                t('order.created'),
                '',
              ]}
            />
            <tbody>
              {orders.list.map((o) => (
                <tr key={o.orderNo}>
                  <td>
                    <code>{o.orderNo}</code>
                  </td>
                  <td>{orderGoodsName(o)}</td>
                  <td className="num">¥{yuan(o.amount)}</td>
                  <td>
                    <span className={`status-chip ${o.status}`}>{t(`order.status.${o.status}`)}</span>
                  </td>
                  <td>{fmtTime(o.createAt)}</td>
                  <td className="actions">
                    <button type="button" className="btn btn-small" onClick={() => setDetail(o.orderNo)}>
                      {t('payModal.orderDetail')}
                    </button>
                    {o.status === 'paid' &&
                      (o.invoice ? (
                        <span className="muted small">{t(`order.invoice.${o.invoice}`)}</span>
                      ) : (
                        <button type="button" className="btn btn-small" onClick={() => setInvoiceFor(o)}>
                          {t('order.invoiceAsk')}
                        </button>
                      ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {orders && (
          <Pager
            className="pager-mini"
            small
            page={page}
            pages={Math.ceil(orders.total / orders.size)}
            go={setPage}
          />
        )}
      </section>
      <OrderDetail orderNo={detail} onClose={() => setDetail(null)} />
      <InvoiceDialog
        order={invoiceFor}
        email={user.email}
        onClose={() => setInvoiceFor(null)}
        onDone={load}
      />
    </div>
  );
}

function InvoiceDialog({
  order,
  email,
  onClose,
  onDone,
}: {
  order: Order | null;
  email: string;
  onClose: () => void;
  onDone: () => void;
}) {
  const [f, setF] = useState({ title: '', taxNo: '', email });
  const [busy, run] = useBusy();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh form for each order the dialog opens on
  useEffect(() => setF({ title: '', taxNo: '', email }), [order, email]);
  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!order) return;
    await run(async () => {
      await requestInvoice({
        orderNo: order.orderNo,
        title: f.title.trim(),
        email: f.email.trim(),
        ...(f.taxNo.trim() ? { taxNo: f.taxNo.trim().toUpperCase() } : {}),
      });
      toast.success(t('invoice.sent'));
      onDone();
      onClose();
    });
  };
  return (
    <Modal
      open={!!order}
      title={t('order.invoiceAsk')}
      onClose={onClose}
      footer={<ModalButtons onCancel={onClose} onOk={() => void submit()} busy={busy} />}
    >
      <form onSubmit={submit}>
        <label className="field">
          <span className="field-label">{t('invoice.title')}</span>
          <input value={f.title} onChange={(e) => setF({ ...f, title: e.target.value })} />
        </label>
        <label className="field">
          <span className="field-label">{t('invoice.taxNo')}</span>
          <input value={f.taxNo} onChange={(e) => setF({ ...f, taxNo: e.target.value })} />
        </label>
        <label className="field">
          <span className="field-label">{t('invoice.email')}</span>
          <input type="email" value={f.email} onChange={(e) => setF({ ...f, email: e.target.value })} />
        </label>
      </form>
    </Modal>
  );
}

export function InviteTab() {
  const { user } = useSession();
  const [list, setList] = useState<Invitee[] | null>(null);
  const [email, setEmail] = useState('');
  const [busy, run] = useBusy();
  useEffect(() => {
    referralRecords()
      .then((r) => setList(r?.list ?? []))
      .catch(() => setList([]));
  }, []);
  if (!user) return null;
  const link = `${location.origin}/capture/register?invite=${encodeURIComponent(user.inviteCode)}`;
  const send = async (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim()) return;
    await run(async () => {
      await referralEmail(email.trim());
      toast.success(t('invite.sent'));
      setEmail('');
    });
  };
  return (
    <div className="center-grid tab-invite">
      <section className="panel">
        <h2 className="panel-title">{t('invite.link')}</h2>
        <div className="copy-row">
          <input readOnly value={link} data-testid="invite-link" />
          <button
            type="button"
            className="btn"
            onClick={() =>
              void navigator.clipboard?.writeText(link).then(
                () => toast.success(t('invite.copied')),
                () => undefined,
              )
            }
          >
            {t('invite.copy')}
          </button>
        </div>
        <p className="muted small">{t('invite.rewards')}</p>
        <form className="copy-row" onSubmit={send}>
          <input
            type="email"
            placeholder={t('invite.email')}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t('invite.send')}
          </button>
        </form>
      </section>
      <section className="panel">
        <h2 className="panel-title">{t('invite.list')}</h2>
        {list && list.length === 0 && <p className="muted">{t('invite.none')}</p>}
        {list && list.length > 0 && (
          <table className="price-table">
            <tbody>
              {list.map((i) => (
                <tr key={i.id}>
                  <td>{i.rank}</td>
                  <td>{i.email}</td>
                  <td>{fmtTime(i.createdAt)}</td>
                  <td className="num">{t('invite.reward', { n: i.reward })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}

export function CashbackTab() {
  const [sum, setSum] = useState<{
    code: string | null;
    rateBp: number;
    pending: number;
    paid: number;
  } | null>(null);
  const [rows, setRows] = useState<Cashback[] | null>(null);
  const [code, setCode] = useState('');
  const [editing, setEditing] = useState(false);
  const load = useCallback(async () => {
    try {
      const c = await cashbackCode();
      setCode(c);
      setSum(await cashbackSummary());
      setRows((await cashbackRecords(1, 20)).list);
    } catch {
      /* shown */
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    try {
      setCode(await setCashbackCode(code.trim()));
      setEditing(false);
      toast.success(t('cash.saved'));
    } catch {
      /* shown */
    }
  };
  return (
    <div className="center-grid tab-cash">
      <section className="panel">
        <h2 className="panel-title">{t('cash.code')}</h2>
        <form className="copy-row" onSubmit={save}>
          <input
            value={code}
            readOnly={!editing}
            maxLength={16}
            data-testid="cash-code"
            onChange={(e) => setCode(e.target.value.replace(/[^A-Za-z0-9]/g, ''))}
          />
          {editing ? (
            <button type="submit" className="btn btn-primary">
              {t('common.save')}
            </button>
          ) : (
            <button type="button" className="btn" onClick={() => setEditing(true)}>
              {t('cash.change')}
            </button>
          )}
        </form>
        {sum && (
          <>
            <p className="muted">{t('cash.rate', { r: sum.rateBp / 100 })}</p>
            <dl className="account-stats">
              <div>
                <dt>{t('cash.pending')}</dt>
                <dd>¥{yuan(sum.pending)}</dd>
              </div>
              <div>
                <dt>{t('cash.paidOut')}</dt>
                <dd>¥{yuan(sum.paid)}</dd>
              </div>
            </dl>
          </>
        )}
      </section>
      <section className="panel">
        <h2 className="panel-title">{t('cash.records')}</h2>
        {rows && rows.length === 0 && <p className="muted">{t('cash.none')}</p>}
        {rows && rows.length > 0 && (
          <table className="price-table">
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>{r.invitee}</td>
                  <td>
                    <code>{r.orderNo}</code>
                  </td>
                  <td className="num">¥{yuan(r.orderAmount)}</td>
                  <td className="num">¥{yuan(r.amount)}</td>
                  <td>{t(`cash.status.${r.status}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
