/** The order detail modal with its A4 PDF download (rendered by the server in a CJK font). */
import { useEffect, useState } from 'react';
import { t } from '../lib/i18n.ts';
import { toast } from '../lib/messages.ts';
import { downloadOrderPdf, type Order, orderDetail, orderGoodsName, yuan } from '../lib/pay.ts';
import { Modal, ModalButtons } from './Modal.tsx';

export const fmtTime = (ms: number | null): string => {
  if (!ms) return '—';
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
};

export function OrderDetail({ orderNo, onClose }: { orderNo: string | null; onClose: () => void }) {
  const [o, setO] = useState<Order | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setO(null);
    if (!orderNo) return;
    orderDetail(orderNo)
      .then(setO)
      .catch(() => onClose());
  }, [orderNo, onClose]);

  const pdf = async () => {
    if (!o) return;
    setBusy(true);
    try {
      const blob = await downloadOrderPdf(o.orderNo);
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = `order-${o.orderNo}.pdf`;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    } catch {
      toast.error(t('net.500'));
    } finally {
      setBusy(false);
    }
  };

  const row = (k: string, v: string | number, testid?: string) => (
    <div className="order-row">
      <dt>{t(k)}</dt>
      <dd data-testid={testid}>{v}</dd>
    </div>
  );
  return (
    <Modal
      open={!!orderNo}
      title={t('order.title')}
      onClose={onClose}
      width={560}
      footer={
        <ModalButtons
          onCancel={onClose}
          cancelText={t('common.close')}
          onOk={() => void pdf()}
          okText={t('order.pdf')}
          busy={!o || busy}
        />
      }
    >
      {!o ? (
        <div className="spinner" />
      ) : (
        <dl className="order-detail" data-testid="order-detail">
          {row('order.no', o.orderNo, 'order-no')}
          {row('order.account', o.account)}
          {row('order.goods', orderGoodsName(o))}
          {row('order.amount', `¥${yuan(o.amount)}`, 'order-amount')}
          {row('order.method', t(`order.method.${o.method}`))}
          {row('order.status', t(`order.status.${o.status}`), 'order-status')}
          {row('order.created', fmtTime(o.createAt))}
          {row('order.paid', fmtTime(o.paidAt))}
          {o.coins > 0 && row('order.credited', `${o.coins} ${o.currency === 'CV' ? 'CV' : 'V'}`)}
          {o.expiryAfter && row('order.expiry', fmtTime(o.expiryAfter))}
          {o.carriedDays ? row('order.carried', o.carriedDays) : null}
        </dl>
      )}
    </Modal>
  );
}
