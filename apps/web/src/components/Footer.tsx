import { useState } from 'react';
import { CHAT_GROUP, FILING_URL } from '../lib/config.ts';
import { t } from '../lib/i18n.ts';
import type { MaintainInfo } from '../lib/types.ts';
import { Modal } from './Modal.tsx';

export function LegalText({ kind }: { kind: 'agreement' | 'privacy' }) {
  const paras = t(`legal.${kind}.body`).split('\n\n');
  return (
    <div className="legal">
      {paras.map((p) => (
        <p key={p.slice(0, 24)}>{p}</p>
      ))}
    </div>
  );
}

export function LegalLinks() {
  const [open, setOpen] = useState<'agreement' | 'privacy' | null>(null);
  return (
    <>
      <button type="button" className="link" onClick={() => setOpen('agreement')}>
        {t('footer.agreement')}
      </button>
      <button type="button" className="link" onClick={() => setOpen('privacy')}>
        {t('footer.privacy')}
      </button>
      <Modal
        open={open !== null}
        title={open ? t(`legal.${open}.title`) : ''}
        onClose={() => setOpen(null)}
        width={720}
      >
        {open && <LegalText kind={open} />}
      </Modal>
    </>
  );
}

export function Footer({ maintain }: { maintain: MaintainInfo | null }) {
  return (
    <footer className="footer">
      <LegalLinks />
      {maintain?.plateNumberBtn && maintain.plateNumber && (
        <a href={FILING_URL} target="_blank" rel="noreferrer">
          {maintain.plateNumber}
        </a>
      )}
      {CHAT_GROUP && <span>{t('footer.chatGroup', { n: CHAT_GROUP })}</span>}
      <span>{t('community.browser')}</span>
      <span className="copyright">
        © {new Date().getFullYear()} {t('app.name')}
      </span>
    </footer>
  );
}
