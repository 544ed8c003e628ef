import { useEffect, useState } from 'react';
import { t } from '../lib/i18n.ts';
import { dismissMessage, type Message, subscribeMessages } from '../lib/messages.ts';
import { Icon } from './Icon.tsx';

const ICON = { success: 'check', error: 'warning', warning: 'warning', info: 'info' } as const;

/** Toasts (top centre) and notifications (top right card with a title). */
export function Messages() {
  const [list, setList] = useState<readonly Message[]>([]);
  useEffect(() => subscribeMessages(setList), []);
  const toasts = list.filter((m) => m.style === 'toast');
  const notes = list.filter((m) => m.style === 'notification');
  return (
    <>
      <div className="toasts" aria-live="polite">
        {toasts.map((m) => (
          <div key={m.id} className={`toast toast-${m.type}`} role="alert">
            <Icon name={ICON[m.type]} size={16} />
            <span>{m.text}</span>
          </div>
        ))}
      </div>
      <div className="notifications" aria-live="polite">
        {notes.map((m) => (
          <div key={m.id} className={`notification notification-${m.type}`} role="alert">
            <Icon name={ICON[m.type]} size={20} />
            <div>
              <div className="notification-title">{t(`message.${m.type}`)}</div>
              <div className="notification-text">{m.text}</div>
            </div>
            <button
              type="button"
              className="icon-btn"
              aria-label={t('common.close')}
              onClick={() => dismissMessage(m.id)}
            >
              <Icon name="close" size={14} />
            </button>
          </div>
        ))}
      </div>
    </>
  );
}
