/**
 * The payment modal (spec §4): WeChat QR with a 300 s countdown and a 2 s poll of the order, or the Alipay
 * redirect form; then ok (with the order detail) or fail.
 *
 * - Opening with a new price makes a fresh order; reopening with the same price while its QR is valid keeps it.
 * - The countdown reaching zero shows fail, then closes the modal and resets the price selection (`onExpired`).
 * - Reset returns to wait with 300 s and WeChat selected.
 * - Opening when not logged in (no goods) goes to Login.
 * - Closing refreshes the user info; failures of the payment calls close the modal and stop the timers.
 */
import QRCode from 'qrcode';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { getToken } from '../lib/cookies.ts';
import { t } from '../lib/i18n.ts';
import {
  alipayForm,
  type Goods,
  goodsName,
  mmss,
  PAY_COUNTDOWN_S,
  PAY_POLL_MS,
  type Prepay,
  secondsLeft,
  submitPayForm,
  wxOrderPaid,
  wxPrepay,
  yuan,
} from '../lib/pay.ts';
import { useSession } from '../lib/session.tsx';
import { Icon } from './Icon.tsx';
import { Modal } from './Modal.tsx';
import { OrderDetail } from './OrderDetail.tsx';
import '../styles/pay.css';

export type PayStatus = 'wait' | 'ok' | 'fail';
type Method = 'wechat' | 'alipay';

interface Qr extends Prepay {
  goodsId: number;
  price: number;
  dataUrl: string;
  deadline: number;
}

/** How long the fail view stays before the modal closes (spec §9 message duration). */
export const FAIL_CLOSE_MS = 3000;

export function PayModal({
  goods,
  open,
  onClose,
  onExpired,
  company = false,
}: {
  goods: Goods | null;
  open: boolean;
  onClose: () => void;
  /** The countdown ran out: the page resets its price selection. */
  onExpired?: () => void;
  company?: boolean;
}) {
  const navigate = useNavigate();
  const { refresh } = useSession();
  const [status, setStatus] = useState<PayStatus>('wait');
  const [method, setMethod] = useState<Method>('wechat');
  const [qr, setQr] = useState<Qr | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [busy, setBusy] = useState(false);
  const [detail, setDetail] = useState<string | null>(null);
  const qrRef = useRef<Qr | null>(null);
  qrRef.current = qr;
  /** The countdown ran out: the next order of any price is a fresh one (the price selection was reset). */
  const renewNext = useRef(false);

  const close = useCallback(() => {
    onClose();
    void refresh();
  }, [onClose, refresh]);

  const reset = useCallback(() => {
    setStatus('wait');
    setMethod('wechat');
    setQr(null);
    setNow(Date.now());
  }, []);

  // Open: not logged in → Login; a new price → a new order; the same price with a valid QR → keep it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the modal opens or the goods/price change, not on every status change
  useEffect(() => {
    if (!open) return;
    if (!goods || !getToken()) {
      onClose();
      navigate('/login');
      return;
    }
    const cur = qrRef.current;
    if (cur && cur.goodsId === goods.id && cur.price === goods.price && cur.deadline > Date.now()) {
      if (status !== 'ok') setStatus('wait');
      return;
    }
    reset();
    let cancelled = false;
    setBusy(true);
    const renew = renewNext.current;
    renewNext.current = false;
    wxPrepay(goods.id, company, renew)
      .then(async (p) => {
        if (cancelled) return;
        const dataUrl = await QRCode.toDataURL(p.url, { margin: 1, width: 220, errorCorrectionLevel: 'M' });
        if (cancelled) return;
        setQr({
          ...p,
          goodsId: goods.id,
          price: goods.price,
          dataUrl,
          // 300 s for a new order; a reused one keeps the time it has left (by the server's clock, skew-free).
          deadline:
            Date.now() +
            (p.remainingMs && p.remainingMs > 0
              ? Math.min(PAY_COUNTDOWN_S * 1000, p.remainingMs)
              : PAY_COUNTDOWN_S * 1000),
        });
        setNow(Date.now());
      })
      .catch(() => {
        // The message was shown by the client; the modal closes and nothing keeps running.
        if (!cancelled) close();
      })
      .finally(() => !cancelled && setBusy(false));
    return () => {
      cancelled = true;
    };
  }, [open, goods?.id, goods?.price]);

  const left = qr ? secondsLeft(qr.deadline, now) : PAY_COUNTDOWN_S;

  // The countdown (1 s) and the WeChat order poll (2 s), only while waiting with a QR.
  useEffect(() => {
    if (!open || status !== 'wait' || !qr) return;
    const tick = setInterval(() => setNow(Date.now()), 1000);
    const poll = setInterval(() => {
      if (method !== 'wechat') return;
      wxOrderPaid(qr.orderNo)
        .then((paid) => {
          if (paid) setStatus((s) => (s === 'wait' ? 'ok' : s));
        })
        .catch(() => undefined);
    }, PAY_POLL_MS);
    return () => {
      clearInterval(tick);
      clearInterval(poll);
    };
  }, [open, status, qr, method]);

  // Zero: fail, then the modal closes and the price selection resets.
  useEffect(() => {
    if (!open || status !== 'wait' || !qr || left > 0) return;
    setStatus('fail');
  }, [open, status, qr, left]);
  useEffect(() => {
    if (!open || status !== 'fail') return;
    const h = setTimeout(() => {
      renewNext.current = true;
      setQr(null);
      onExpired?.();
      close();
      setStatus('wait');
      setMethod('wechat');
    }, FAIL_CLOSE_MS);
    return () => clearTimeout(h);
  }, [open, status, close, onExpired]);

  const payAlipay = async () => {
    if (!goods) return;
    setBusy(true);
    try {
      submitPayForm(await alipayForm(goods.id, company));
    } catch {
      setBusy(false);
      close();
    }
  };

  const price = goods ? yuan(goods.price) : '';
  return (
    <>
      <Modal
        open={open}
        title={t('payModal.title', { p: price })}
        onClose={close}
        width={560}
        className="pay-modal"
      >
        {status === 'wait' && (
          <div className="pay-wait" data-testid="pay-wait">
            <div className="pay-summary">
              <span className="muted">{t('payModal.goods')}</span>
              <strong>{goods ? goodsName(goods) : ''}</strong>
              <span className="pay-amount" data-testid="pay-amount">
                ¥{price}
              </span>
            </div>
            <div className="pay-methods" role="radiogroup">
              {(['wechat', 'alipay'] as const).map((m) => (
                // biome-ignore lint/a11y/useSemanticElements: method cards with logos; aria-checked carries the choice
                <button
                  key={m}
                  type="button"
                  role="radio"
                  aria-checked={method === m}
                  className={`pay-method pay-${m}${method === m ? ' on' : ''}`}
                  onClick={() => setMethod(m)}
                >
                  <span className="pay-logo">{m === 'wechat' ? '微' : '支'}</span>
                  {t(m === 'wechat' ? 'payModal.wechat' : 'payModal.alipay')}
                </button>
              ))}
            </div>
            {method === 'wechat' ? (
              <div className="pay-qr-box">
                {qr ? (
                  <>
                    <img
                      className="pay-qr"
                      src={qr.dataUrl}
                      alt="QR"
                      data-testid="pay-qr"
                      data-url={qr.url}
                    />
                    <div>{t('payModal.scan')}</div>
                    <div className="pay-countdown" data-testid="pay-countdown">
                      {t('payModal.countdown', { t: mmss(left) })}
                    </div>
                    <a className="muted small" href={qr.url} target="_blank" rel="noreferrer">
                      {t('payModal.openPhone')}
                    </a>
                  </>
                ) : (
                  <div className="pay-qr-loading">
                    <div className="spinner" />
                    {busy && t('payModal.loadingQr')}
                  </div>
                )}
              </div>
            ) : (
              <div className="pay-alipay-box">
                <p>{t('payModal.alipayText')}</p>
                <button
                  type="button"
                  className="btn btn-primary btn-alipay"
                  disabled={busy}
                  onClick={() => void payAlipay()}
                >
                  {t('payModal.toAlipay')}
                </button>
              </div>
            )}
          </div>
        )}
        {status === 'ok' && (
          <PayResult kind="ok" icon="check">
            <button type="button" className="btn btn-primary" onClick={() => qr && setDetail(qr.orderNo)}>
              {t('payModal.orderDetail')}
            </button>
          </PayResult>
        )}
        {status === 'fail' && <PayResult kind="fail" icon="warning" />}
      </Modal>
      <OrderDetail orderNo={detail} onClose={() => setDetail(null)} />
    </>
  );
}

/** How a payment ended: its icon, heading and words (`payModal.ok`/`okText`, or `fail`), then `children`. */
function PayResult({ kind, icon, children }: { kind: 'ok' | 'fail'; icon: string; children?: ReactNode }) {
  return (
    <div className={`pay-result ${kind}`} data-testid={`pay-${kind}`}>
      <div className="pay-result-icon">
        <Icon name={icon} size={40} />
      </div>
      <h3>{t(`payModal.${kind}`)}</h3>
      <p className="muted">{t(`payModal.${kind}Text`)}</p>
      {children}
    </div>
  );
}
