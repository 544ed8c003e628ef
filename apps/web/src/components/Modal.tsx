import { type ReactNode, useEffect } from 'react';
import { t } from '../lib/i18n.ts';
import { Icon } from './Icon.tsx';

export function Modal({
  open,
  title,
  onClose,
  children,
  footer,
  width = 520,
  className,
}: {
  open: boolean;
  title?: ReactNode;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  width?: number | string;
  className?: string;
}) {
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, onClose]);
  if (!open) return null;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop closes (Escape does too)
    <div
      className="modal-mask"
      role="presentation"
      onMouseDown={(e) => e.target === e.currentTarget && onClose()}
    >
      <div className={`modal ${className ?? ''}`} role="dialog" aria-modal="true" style={{ width }}>
        {title !== undefined && (
          <div className="modal-head">
            <div className="modal-title">{title}</div>
            <button type="button" className="icon-btn" aria-label={t('common.close')} onClick={onClose}>
              <Icon name="close" />
            </button>
          </div>
        )}
        <div className="modal-body">{children}</div>
        {footer && <div className="modal-foot">{footer}</div>}
      </div>
    </div>
  );
}

/** A yes/no confirmation. */
export function Confirm({
  open,
  title,
  text,
  okText,
  danger,
  busy,
  onOk,
  onCancel,
}: {
  open: boolean;
  title: string;
  text: ReactNode;
  okText?: string;
  danger?: boolean;
  busy?: boolean;
  onOk: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal
      open={open}
      title={title}
      onClose={onCancel}
      width={440}
      footer={<ModalButtons onCancel={onCancel} onOk={onOk} okText={okText} danger={danger} busy={busy} />}
    >
      <div className="confirm-text">{text}</div>
    </Modal>
  );
}

/** A dialog's footer: cancel (or `cancelText`), then the main action (disabled while busy). */
export function ModalButtons({
  onCancel,
  onOk,
  okText,
  cancelText,
  danger,
  busy,
  okTestId,
}: {
  onCancel: () => void;
  onOk: () => void;
  okText?: string;
  cancelText?: string;
  danger?: boolean;
  busy?: boolean;
  okTestId?: string;
}) {
  return (
    <>
      <button type="button" className="btn" onClick={onCancel}>
        {cancelText ?? t('common.cancel')}
      </button>
      <button
        type="button"
        className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`}
        disabled={busy}
        onClick={onOk}
        data-testid={okTestId}
      >
        {okText ?? t('common.ok')}
      </button>
    </>
  );
}

/** An open dialog whose footer is Cancel and the main action (`okText`, run by `onOk`, disabled while busy). */
export function ActionDialog(
  props: { title: ReactNode; onClose: () => void; width?: number; children: ReactNode } & Omit<
    Parameters<typeof ModalButtons>[0],
    'onCancel'
  >,
) {
  const { title, onClose, width, children, ...buttons } = props;
  return (
    <Modal
      open
      title={title}
      onClose={onClose}
      width={width}
      footer={<ModalButtons onCancel={onClose} {...buttons} />}
    >
      {children}
    </Modal>
  );
}

/**
 * A confirmation about `item`, open while there is one: OK clears it and then runs `run` on it, Cancel clears it.
 * `text` words the question for the item.
 */
export function ConfirmItem<T>(props: {
  item: T | null;
  clear: () => void;
  title: string;
  text: (item: T) => ReactNode;
  run: (item: T) => void;
}) {
  const { item, clear, title, text, run } = props;
  return (
    <Confirm
      open={!!item}
      title={title}
      text={item ? text(item) : ''}
      onCancel={clear}
      onOk={() => {
        const it = item!;
        clear();
        run(it);
      }}
    />
  );
}
