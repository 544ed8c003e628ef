/**
 * Payment screens (spec §2): `/asPay/index` pricing (free / monthly / yearly with buy buttons, V-coin packs,
 * the company CV card), `/asPay/view` (the result after returning from Alipay: payStatus + orderNo), and the
 * `marked` price list.
 */
import { useCallback, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Icon } from '../components/Icon.tsx';
import { OrderDetail } from '../components/OrderDetail.tsx';
import { PayModal } from '../components/PayModal.tsx';
import { BackHead } from '../components/TopBar.tsx';
import { t } from '../lib/i18n.ts';
import {
  companyProducts,
  type Goods,
  type GoodsList,
  getGoods,
  goodsName,
  orderDetail,
  payMethods,
  yuan,
  yuanShort,
} from '../lib/pay.ts';
import { PLAN_LIMITS } from '../lib/plans.ts';
import { useSession } from '../lib/session.tsx';
import '../styles/pay.css';
import { TableHead } from '../components/Tabs.tsx';

function useGoods() {
  const [goods, setGoods] = useState<GoodsList | null>(null);
  const [sandbox, setSandbox] = useState(false);
  useEffect(() => {
    getGoods()
      .then(setGoods)
      .catch(() => undefined);
    payMethods()
      .then((m) => setSandbox(m.mode === 'sandbox'))
      .catch(() => undefined);
  }, []);
  return { goods, sandbox };
}

const feature = (text: string, on = true) => (
  <li className={on ? '' : 'off'}>
    <Icon name={on ? 'check' : 'close'} size={14} /> {text}
  </li>
);

/** A plan's features: its coins, its queue priority, its limits (queue, duration, file size), its formats. */
const planFeatures = (
  coins: string,
  priority: 'low' | 'normal' | 'high',
  limits: { queue: number; durationSec: number; fileSizeMb: number },
  formats: string,
) => (
  <ul className="plan-features list-stack">
    {feature(coins)}
    {feature(t(`pay.priority.${priority}`))}
    {feature(t('pay.queue', { n: limits.queue }))}
    {feature(t('pay.duration', { n: limits.durationSec }))}
    {feature(t('pay.size', { n: limits.fileSizeMb }))}
    {feature(formats)}
  </ul>
);

export function PricingPage() {
  const { user } = useSession();
  const navigate = useNavigate();
  const { goods, sandbox } = useGoods();
  const [selected, setSelected] = useState<Goods | null>(null);
  const [open, setOpen] = useState(false);
  const plan = user?.plan ?? 'free';
  // A company account holds no individual plan: no card is marked current.
  const current = user?.company ? null : plan;
  const monthly = goods?.list.find((g) => g.level === 'monthly');
  const yearly = goods?.list.find((g) => g.level === 'yearly');
  const packs = goods?.list.filter((g) => g.kind === 'coins') ?? [];
  const bonus = goods?.packBonusPercent ?? { free: 0, monthly: 20, yearly: 30 };

  const buy = (g: Goods | undefined) => {
    if (!g) return;
    if (!user) {
      navigate('/login');
      return;
    }
    setSelected(g);
    setOpen(true);
  };
  const onClose = useCallback(() => setOpen(false), []);
  const onExpired = useCallback(() => setSelected(null), []);

  const L = PLAN_LIMITS;
  return (
    <div className="center pricing">
      <BackHead title={t('title.asPay')} />
      <div className="pricing-intro">
        <h2>{t('pay.heading')}</h2>
        <p className="muted">{t('pay.sub')}</p>
        {sandbox && <p className="pay-sandbox-note">{t('pay.sandbox')}</p>}
      </div>
      <div className="plan-cards">
        <section className={`plan-card${current === 'free' ? ' current' : ''}`} data-testid="plan-free">
          <h3>{t('plan.free')}</h3>
          <div className="plan-price">
            ¥0<span>{t('pay.perMonth')}</span>
          </div>
          {planFeatures(t('pay.freeCoins'), 'low', L.free, t('pay.formatsFree'))}
          <button type="button" className="btn btn-block" disabled>
            {current === 'free' ? t('pay.current') : t('plan.free')}
          </button>
        </section>
        <section
          className={`plan-card featured${current === 'monthly' ? ' current' : ''}`}
          data-testid="plan-monthly"
        >
          <h3>{t('plan.monthly')}</h3>
          <div className="plan-price">
            ¥{monthly ? yuanShort(monthly.price) : '99'}
            <span>{t('pay.perMonth')}</span>
          </div>
          {planFeatures(
            t('pay.coinsGrant', { n: monthly?.coins ?? 1000 }),
            'normal',
            L.monthly,
            t('pay.formatsMonthly'),
          )}
          <p className="muted small">{t('pay.coinsMonthlyNote')}</p>
          <button
            type="button"
            className="btn btn-primary btn-block"
            data-testid="buy-monthly"
            disabled={!monthly || plan === 'yearly'}
            onClick={() => buy(monthly)}
          >
            {plan === 'monthly' ? t('pay.renew') : t('pay.buy')} · ¥{monthly ? yuan(monthly.price) : ''}
          </button>
        </section>
        <section
          className={`plan-card best${current === 'yearly' ? ' current' : ''}`}
          data-testid="plan-yearly"
        >
          {yearly?.offPercent && (
            <span className="plan-ribbon">{t('pay.off', { n: yearly.offPercent })}</span>
          )}
          <h3>{t('plan.yearly')}</h3>
          <div className="plan-price">
            ¥{yearly ? yuanShort(yearly.price) : '779'}
            <span>{t('pay.perYear')}</span>
          </div>
          {yearly?.listPrice && (
            <div className="plan-was">{t('pay.was', { p: yuanShort(yearly.listPrice) })}</div>
          )}
          {planFeatures(
            t('pay.coinsGrant', { n: yearly?.coins ?? 15000 }),
            'high',
            L.yearly,
            t('pay.formatsYearly'),
          )}
          {plan === 'monthly' && <p className="muted small">{t('pay.upgradeNote')}</p>}
          <button
            type="button"
            className="btn btn-primary btn-block"
            data-testid="buy-yearly"
            disabled={!yearly}
            onClick={() => buy(yearly)}
          >
            {plan === 'monthly' ? t('pay.upgrade') : plan === 'yearly' ? t('pay.renew') : t('pay.buy')} · ¥
            {yearly ? yuan(yearly.price) : ''}
          </button>
        </section>
      </div>
      {user?.company ? (
        <section className="panel cv-card" data-testid="cv-card">
          <div>
            <h3>
              <Icon name="coin" /> {t('pay.companyCard')}
            </h3>
            <p className="muted">{t('pay.companyText')}</p>
          </div>
          <button type="button" className="btn btn-primary" onClick={() => navigate('/index/marked')}>
            {t('pay.consult')}
          </button>
        </section>
      ) : (
        <section className="panel packs">
          <h3>{t('pay.packs')}</h3>
          <p className="muted">{t('pay.packBonus', { m: bonus.monthly, y: bonus.yearly })}</p>
          <div className="pack-row">
            {packs.map((g) => {
              const extra = Math.floor((g.coins * bonus[plan]) / 100);
              return (
                <button
                  key={g.id}
                  type="button"
                  className="pack"
                  data-testid={`pack-${g.id}`}
                  onClick={() => buy(g)}
                >
                  <span className="pack-coins">
                    <Icon name="coin" size={16} /> {g.coins} V
                  </span>
                  {extra > 0 && <span className="pack-bonus">{t('pay.packYourBonus', { n: extra })}</span>}
                  <span className="pack-price">¥{yuan(g.price)}</span>
                </button>
              );
            })}
          </div>
        </section>
      )}
      <PayModal goods={selected} open={open} onClose={onClose} onExpired={onExpired} />
    </div>
  );
}

/** `/asPay/view?payStatus=1&orderNo=…`: the result of a payment the browser returned from. */
export function PayViewPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { refresh } = useSession();
  const orderNo = params.get('orderNo') ?? '';
  const claimed = params.get('payStatus') === '1';
  const [paid, setPaid] = useState<boolean | null>(null);
  const [detail, setDetail] = useState<string | null>(null);
  useEffect(() => {
    if (!orderNo) {
      setPaid(false);
      return;
    }
    orderDetail(orderNo)
      .then((o) => setPaid(o.status === 'paid'))
      .catch(() => setPaid(false));
    void refresh();
  }, [orderNo, refresh]);
  const ok = paid ?? claimed;
  return (
    <div className="center pricing">
      <BackHead title={t('title.asPayView')} />
      <section
        className={`panel pay-view pay-result ${ok ? 'ok' : 'fail'}`}
        data-testid={ok ? 'view-ok' : 'view-fail'}
      >
        {paid === null && orderNo ? (
          <div className="spinner" />
        ) : (
          <>
            <div className="pay-result-icon">
              <Icon name={ok ? 'check' : 'warning'} size={44} />
            </div>
            <h3>{orderNo ? t(ok ? 'view.ok' : 'view.fail') : t('view.none')}</h3>
            {orderNo && (
              <p className="muted">
                {t('order.no')}: <code data-testid="view-order-no">{orderNo}</code>
              </p>
            )}
            {!ok && orderNo && <p className="muted">{t('view.failText')}</p>}
            <div className="pay-view-actions">
              {orderNo && (
                <button type="button" className="btn btn-primary" onClick={() => setDetail(orderNo)}>
                  {t('payModal.orderDetail')}
                </button>
              )}
              <button type="button" className="btn" onClick={() => navigate('/asPay/index')}>
                {t('view.back')}
              </button>
            </div>
          </>
        )}
      </section>
      <OrderDetail orderNo={detail} onClose={() => setDetail(null)} />
    </div>
  );
}

/** `/index/marked`: the price list (individual goods; CV packs for company accounts). */
export function MarkedPage() {
  const { user } = useSession();
  const navigate = useNavigate();
  const [rows, setRows] = useState<Goods[]>([]);
  useEffect(() => {
    (user?.company ? companyProducts() : getGoods().then((g) => g.list)).then(setRows).catch(() => undefined);
  }, [user?.company]);
  return (
    <div className="marked panel">
      <table className="price-table" data-testid="price-table">
        <TableHead heads={[t('order.goods'), t('pay.included'), t('order.amount')]} />
        <tbody>
          {rows.map((g) => (
            <tr key={g.id}>
              <td>{goodsName(g)}</td>
              <td>
                {g.days ? `${t('pay.days', { n: g.days })} · ` : ''}
                {g.coins} {g.kind === 'company' ? 'CV' : 'V'}
              </td>
              <td className="num">
                ¥{yuan(g.price)}
                {g.offPercent ? (
                  <span className="plan-ribbon inline">{t('pay.off', { n: g.offPercent })}</span>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {!user?.company && (
        <button type="button" className="btn btn-primary" onClick={() => navigate('/asPay/index')}>
          {t('plan.goPricing')}
        </button>
      )}
      {user?.company && <p className="muted">{t('pay.companyText')}</p>}
    </div>
  );
}
