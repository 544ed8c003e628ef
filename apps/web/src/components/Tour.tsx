/**
 * The first-use tour (issue 25; spec §7 POST /user/teaching/getConfirmationTeaching and setConfirmationTeaching):
 * upload → preview → download, as a card in the sidebar that outlines the thing each step talks about (the upload
 * menu entry, a video card's picture, its download button) without covering the page. "Don't show again" and
 * finishing the last step confirm it for good on the server; "Later" hides it until the next visit.
 */
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { tsh } from '../i18n/shell.ts';
import { useSession } from '../lib/session.tsx';
import { addBehavior, getTeachingConfirmed, setTeachingConfirmed } from '../lib/shell.ts';
import { Icon } from './Icon.tsx';
import '../styles/shell.css';

const LATER = 'mocap_tour_later';

const MY_PROJECTS = '.sidebar [data-menu-value="1"]';
/** Each step outlines the first of its targets on the page (a video card's parts, else the My projects entry). */
export const TOUR_STEPS = [
  { key: 'upload', icon: 'upload', targets: ['.sidebar [data-menu-value="2"]'] },
  { key: 'preview', icon: 'eye', targets: ['[data-testid="video-card"] .card-media', MY_PROJECTS] },
  {
    key: 'download',
    icon: 'download',
    targets: ['[data-testid="video-card"] [data-action="download"]', MY_PROJECTS],
  },
] as const;

/** Outlines the first element matching one of `selectors` while mounted (and follows the page as it changes). */
function useOutline(selectors: readonly string[] | null): void {
  const key = selectors?.join('|') ?? '';
  useEffect(() => {
    if (!key) return;
    const list = key.split('|');
    let marked: Element | null = null;
    const apply = () => {
      let el: Element | null = null;
      for (const s of list) {
        el = document.querySelector(s);
        if (el) break;
      }
      if (el === marked) return;
      marked?.classList.remove('tour-target');
      marked = el;
      el?.classList.add('tour-target');
    };
    apply();
    const obs = new MutationObserver(apply);
    obs.observe(document.body, { childList: true, subtree: true });
    return () => {
      obs.disconnect();
      marked?.classList.remove('tour-target');
    };
  }, [key]);
}

export function Tour() {
  const { user } = useSession();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [show, setShow] = useState(false);
  const [step, setStep] = useState(0);
  // Individual users only: company accounts have their own menu and tutorial; administrators run the console.
  const eligible = !!user && !user.company && !user.admin && !sessionStorage.getItem(LATER);

  useEffect(() => {
    if (!eligible) return;
    let live = true;
    getTeachingConfirmed()
      .then((confirmed) => live && setShow(!confirmed))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [eligible]);

  const current = TOUR_STEPS[step]!;
  useOutline(show ? current.targets : null);
  if (!show) return null;

  const close = (how: 'done' | 'never' | 'later') => {
    setShow(false);
    addBehavior(pathname, `tour.${how}`);
    if (how === 'later') sessionStorage.setItem(LATER, '1');
    else void setTeachingConfirmed(true).catch(() => undefined);
  };
  const last = step === TOUR_STEPS.length - 1;
  return (
    <section className="tour" data-testid="tour" aria-label={tsh('tour.label')} data-step={current.key}>
      <div className="tour-head">
        <span className="tour-label">{tsh('tour.label')}</span>
        <button
          type="button"
          className="tour-x"
          aria-label={tsh('tour.later')}
          title={tsh('tour.later')}
          data-testid="tour-later"
          onClick={() => close('later')}
        >
          <Icon name="close" size={14} />
        </button>
      </div>
      <ol className="tour-dots" aria-label={tsh('tour.step', { n: step + 1, total: TOUR_STEPS.length })}>
        {TOUR_STEPS.map((s, i) => (
          <li key={s.key} className={i === step ? 'on' : i < step ? 'done' : ''} />
        ))}
      </ol>
      <div className="tour-title">
        <Icon name={current.icon} size={16} />
        {tsh(`tour.${current.key}.title`)}
      </div>
      <p className="tour-body">{tsh(`tour.${current.key}.body`)}</p>
      {current.key === 'upload' && !pathname.startsWith('/index/upload') && (
        <button
          type="button"
          className="tour-go"
          data-testid="tour-go"
          onClick={() => navigate('/index/upload')}
        >
          {tsh('tour.upload.go')} →
        </button>
      )}
      <div className="tour-actions">
        {step > 0 && (
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setStep(step - 1)}>
            {tsh('tour.back')}
          </button>
        )}
        <button
          type="button"
          className="btn btn-primary btn-sm"
          data-testid="tour-next"
          onClick={() => (last ? close('done') : setStep(step + 1))}
        >
          {last ? tsh('tour.done') : tsh('tour.next')}
        </button>
      </div>
      <button type="button" className="tour-never" data-testid="tour-never" onClick={() => close('never')}>
        {tsh('tour.never')}
      </button>
    </section>
  );
}
