import { useState } from 'react';
import { COOKIE, getCookie, setCookie } from '../lib/cookies.ts';
import { t } from '../lib/i18n.ts';
import type { MaintainInfo } from '../lib/types.ts';
import { Icon } from './Icon.tsx';

/** A short stable hash so a new announcement text shows again after an older one was closed. */
export function textHash(s: string): string {
  let h = 5381;
  for (let i = 0; i < s.length; i++) h = ((h << 5) + h + s.charCodeAt(i)) | 0;
  return (h >>> 0).toString(36);
}

/** The scrolling version announcement; closing it is remembered by a cookie (spec §2). */
export function Announcement({ info }: { info: MaintainInfo | null }) {
  const text = info?.versionBtn ? info.versionText : '';
  const [closed, setClosed] = useState(
    () => !!text && getCookie(COOKIE.announcementClosed) === textHash(text),
  );
  if (!text || closed || getCookie(COOKIE.announcementClosed) === textHash(text)) return null;
  return (
    <div className="announcement" role="status" data-testid="announcement">
      <Icon name="info" size={16} />
      <div className="marquee">
        <span>{text}</span>
      </div>
      <button
        type="button"
        className="icon-btn"
        aria-label={t('common.close')}
        onClick={() => {
          setCookie(COOKIE.announcementClosed, textHash(text), { days: 30 });
          setClosed(true);
        }}
      >
        <Icon name="close" size={14} />
      </button>
    </div>
  );
}
