/**
 * The sidebar's community panel (spec §1/§2; issue 25): QR codes of the official account and the two chat
 * groups — an uploaded picture (signed webp) or a code drawn from the group's link —, the tutorial link and the
 * Chromium-type browser recommendation, as administrators set them (GET /sysConfig/community). Hovering or
 * focusing a code shows it large enough to scan.
 */
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { tsh } from '../i18n/shell.ts';
import { COMMUNITY, TUTORIAL_URL } from '../lib/config.ts';
import { t } from '../lib/i18n.ts';
import { type Community, type CommunityGroup, getCommunity } from '../lib/shell.ts';
import { Icon } from './Icon.tsx';
import '../styles/shell.css';

/** Deployment defaults (VITE_* links) until administrators set the panel. */
const FALLBACK: Community = {
  groups: COMMUNITY.map((c) => ({
    key: c.key.replace('community.', '') as CommunityGroup['key'],
    url: c.url,
    imageUrl: null,
    note: '',
  })),
  tutorialUrl: TUTORIAL_URL,
  browserTip: true,
};

function useQr(group: CommunityGroup): string | null {
  const [src, setSrc] = useState<string | null>(group.imageUrl);
  useEffect(() => {
    if (group.imageUrl) {
      setSrc(group.imageUrl);
      return;
    }
    let live = true;
    QRCode.toDataURL(group.url, { margin: 1, width: 360, errorCorrectionLevel: 'M' })
      .then((d) => live && setSrc(d))
      .catch(() => live && setSrc(null));
    return () => {
      live = false;
    };
  }, [group.imageUrl, group.url]);
  return src;
}

function QrTile({ group }: { group: CommunityGroup }) {
  const src = useQr(group);
  const [open, setOpen] = useState(false);
  const label = t(`community.${group.key}`);
  return (
    <div className="qr-tile" data-testid={`community-${group.key}`}>
      <button
        type="button"
        className="qr-thumb"
        aria-label={label}
        aria-expanded={open}
        onMouseEnter={() => setOpen(true)}
        onMouseLeave={() => setOpen(false)}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onClick={() => setOpen((o) => !o)}
      >
        {src ? <img src={src} alt="" /> : <span className="qr-missing" />}
      </button>
      <span className="qr-label">{label}</span>
      {open && src && (
        <div className="qr-pop" role="dialog" aria-label={label} data-testid="community-qr-pop">
          <img src={src} alt={label} />
          <div className="qr-pop-title">{label}</div>
          {group.note && <div className="qr-pop-note">{group.note}</div>}
          <div className="qr-pop-hint">{tsh('community.qrHint')}</div>
          {group.url && (
            <a href={group.url} target="_blank" rel="noreferrer">
              {tsh('community.open')}
            </a>
          )}
        </div>
      )}
    </div>
  );
}

export function CommunityPanel() {
  const [c, setC] = useState<Community | null>(null);
  useEffect(() => {
    let live = true;
    void getCommunity().then((v) => {
      if (!live) return;
      setC(
        v && (v.groups.length > 0 || v.tutorialUrl) ? v : { ...FALLBACK, browserTip: v?.browserTip ?? true },
      );
    });
    return () => {
      live = false;
    };
  }, []);
  const data = c ?? FALLBACK;
  return (
    <div className="community" data-testid="community">
      <div className="community-title">{t('community.title')}</div>
      {data.groups.length > 0 && (
        <div className="community-qrs">
          {data.groups.map((g) => (
            <QrTile key={g.key} group={g} />
          ))}
        </div>
      )}
      {data.tutorialUrl && (
        <a
          className="community-link"
          data-testid="community-tutorial"
          href={data.tutorialUrl}
          target="_blank"
          rel="noreferrer"
        >
          <Icon name="film" size={14} />
          {t('community.tutorial')}
        </a>
      )}
      {data.browserTip && (
        <div className="community-browser" data-testid="community-browser">
          <Icon name="globe" size={14} />
          {t('community.browser')}
        </div>
      )}
    </div>
  );
}
