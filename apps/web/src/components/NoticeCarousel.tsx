import { useState } from 'react';
import { isPhone } from '../lib/device.ts';
import { noLongerDisplayed } from '../lib/endpoints.ts';
import { t } from '../lib/i18n.ts';
import { useStoredMedia } from '../lib/shell.ts';
import { type Notice, noticeButtonFontSize } from '../lib/types.ts';
import { Icon } from './Icon.tsx';

export const SLIDE_WIDTH = 946;
export const SLIDE_HEIGHT = 466;

/**
 * The notice carousel opened at start when notices exist (spec §2): slides of 946×466, no autoplay, arrows and
 * dots, a do-not-show-again toggle that tells the server when the carousel is closed with it on.
 */
export function NoticeCarousel({
  notices,
  onClose,
  tellServer = noLongerDisplayed,
}: {
  notices: Notice[];
  onClose: () => void;
  tellServer?: () => Promise<unknown>;
}) {
  const phone = isPhone();
  const [index, setIndex] = useState(0);
  const [dontShow, setDontShow] = useState(false);
  if (notices.length === 0) return null;
  const n = notices[index];
  const close = () => {
    if (dontShow) void tellServer().catch(() => undefined);
    onClose();
  };
  const go = (d: number) => setIndex((i) => (i + d + notices.length) % notices.length);
  return (
    <div className="modal-mask" role="presentation">
      <div className="notice" role="dialog" aria-modal="true" aria-label={t('notice.title')}>
        <button
          type="button"
          className="notice-close icon-btn"
          aria-label={t('common.close')}
          onClick={close}
        >
          <Icon name="close" />
        </button>
        <div
          className="notice-slide"
          style={phone ? undefined : { width: SLIDE_WIDTH, height: SLIDE_HEIGHT }}
          data-testid="notice-slide"
        >
          {n.url ? (
            <SlideMedia url={n.url} video={n.isVideo} title={n.title} />
          ) : (
            <div className="notice-text-slide">
              <h2>{n.title}</h2>
              <p>{n.content}</p>
            </div>
          )}
          {notices.length > 1 && (
            <>
              <button
                type="button"
                className="notice-arrow left"
                aria-label={t('notice.prev')}
                onClick={() => go(-1)}
              >
                <Icon name="back" size={26} />
              </button>
              <button
                type="button"
                className="notice-arrow right"
                aria-label={t('notice.next')}
                onClick={() => go(1)}
              >
                <Icon name="back" size={26} className="flip" />
              </button>
            </>
          )}
        </div>
        <div className="notice-bar">
          <div className="notice-caption">
            {n.url && n.title && <strong>{n.title}</strong>}
            {n.url && n.content && <span>{n.content}</span>}
          </div>
          {n.button && n.link && (
            <a
              className="btn btn-primary notice-button"
              style={{ fontSize: noticeButtonFontSize(n.button) }}
              href={n.link}
              target={/^https?:/.test(n.link) ? '_blank' : undefined}
              rel="noreferrer"
            >
              {n.button}
            </a>
          )}
        </div>
        <div className="notice-foot">
          <label className="checkbox">
            <input type="checkbox" checked={dontShow} onChange={(e) => setDontShow(e.target.checked)} />
            {t('notice.dontShow')}
          </label>
          {notices.length > 1 && (
            <div className="dots">
              {notices.map((x, i) => (
                <button
                  type="button"
                  key={x.id || i}
                  className={`dot${i === index ? ' on' : ''}`}
                  aria-label={`${i + 1}`}
                  onClick={() => setIndex(i)}
                />
              ))}
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

/** A slide's image or video; an uploaded image (uploadZM/ key) is shown as a signed webp of the slide's size. */
function SlideMedia({ url, video, title }: { url: string; video: boolean; title: string }) {
  const src = useStoredMedia(url, { video, maxSide: SLIDE_WIDTH * 2 });
  if (!src) return <div className="notice-media-loading" />;
  return video ? (
    // biome-ignore lint/a11y/useMediaCaption: promotional clips carry no speech
    <video src={src} controls width={SLIDE_WIDTH} height={SLIDE_HEIGHT} />
  ) : (
    <img src={src} alt={title} width={SLIDE_WIDTH} height={SLIDE_HEIGHT} />
  );
}
