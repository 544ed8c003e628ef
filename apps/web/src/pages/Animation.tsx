/**
 * The animation library (issue 22): published ready-made animations by category, tag and keyword; a free 3D
 * preview on the character (looping, play/pause, girl/boy/robot); collect; buy once (price shown, confirmed)
 * and download any bone type the plan allows. The CMU acknowledgement is shown with the library.
 */

import type { Animation, AnimationBundle, AnimationDetail, AnimationDownload } from '@mocap/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Icon, IconTextButton } from '../components/Icon.tsx';
import { ConfirmItem, Modal } from '../components/Modal.tsx';
import { Pager } from '../components/Pager.tsx';
import { animationEn, animationZh } from '../i18n/animation.ts';
import { api } from '../lib/api.ts';
import { DEFAULT_BONE_TYPES } from '../lib/bonetypes.ts';
import { t, translate } from '../lib/i18n.ts';
import { toast } from '../lib/messages.ts';
import { useSession } from '../lib/session.tsx';
import { parseClip } from '../three/clip.ts';
import { type CharacterKind, type MotionViewer, openViewer } from '../three/Viewer.ts';
import { type LabMotion, labMotions } from './lab/sources.ts';
import '../styles/studio.css';
import '../styles/music.css';
import '../styles/animation.css';
import { saveUrl } from '../components/DownloadDialog.tsx';
import { useBusy } from '../lib/busy.ts';

/** The library's strings in the user's language. */
export function tl(key: keyof typeof animationEn, vars?: Record<string, string | number>): string {
  return translate(animationEn, animationZh, key, vars);
}

/** An animation card as `/animation/*` answers it (the contract's). */
export type LibraryAnimation = Animation;

const SIZE = 12;
const CHARACTERS: CharacterKind[] = ['girl', 'boy', 'robot'];

export const categoryLabel = (c: string): string =>
  c === 'dance'
    ? tl('anim.cat.dance')
    : c === 'capture'
      ? tl('anim.cat.capture')
      : c.charAt(0).toUpperCase() + c.slice(1);

function AnimationPreview({ anim, onClose }: { anim: LibraryAnimation; onClose: () => void }) {
  const holder = useRef<HTMLDivElement>(null);
  const viewer = useRef<MotionViewer | null>(null);
  const clock = useRef({ playing: true, offset: 0, start: performance.now() });
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [playing, setPlaying] = useState(true);
  const [character, setCharacter] = useState<CharacterKind>('girl');
  useEffect(() => {
    const v = openViewer(holder.current, 'girl', () => setState('error'));
    if (!v) return;
    viewer.current = v;
    let live = true;
    api
      .get<AnimationDetail>(`/animation/${anim.id}`)
      .then(async (d) => {
        const res = await fetch(d.clip);
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const clip = parseClip(await res.json());
        if (!live) return;
        const length = clip.frameCount / clip.fps;
        v.setClip(clip);
        clock.current = { playing: true, offset: 0, start: performance.now() };
        v.setTimeSource(() => {
          const c = clock.current;
          const t = c.playing ? c.offset + (performance.now() - c.start) / 1000 : c.offset;
          return length > 0 ? t % length : 0;
        });
        setState('ready');
      })
      .catch(() => live && setState('error'));
    return () => {
      live = false;
      viewer.current = null;
      v.dispose();
    };
  }, [anim.id]);
  const toggle = () => {
    const c = clock.current;
    if (c.playing) c.offset += (performance.now() - c.start) / 1000;
    else c.start = performance.now();
    c.playing = !c.playing;
    setPlaying(c.playing);
  };
  return (
    <Modal open title={anim.name} onClose={onClose} width={900} className="music-preview">
      <div className="music-stage" ref={holder} data-testid="anim-stage" data-state={state}>
        {state === 'loading' && <div className="spinner" />}
        {state === 'error' && <div className="card-fail">{t('preview.error')}</div>}
      </div>
      <div className="anim-preview-bar">
        <button type="button" className="btn btn-sm" onClick={toggle} disabled={state !== 'ready'}>
          {tl(playing ? 'anim.pause' : 'anim.play')}
        </button>
        <label className="anim-inline">
          {tl('anim.character')}
          <select
            value={character}
            onChange={(e) => {
              const k = e.target.value as CharacterKind;
              setCharacter(k);
              viewer.current?.setCharacter(k);
            }}
          >
            {CHARACTERS.map((k) => (
              <option key={k} value={k}>
                {tl(`anim.char.${k}` as keyof typeof animationEn)}
              </option>
            ))}
          </select>
        </label>
        <span className="anim-muted">
          {tl('anim.frames', { n: anim.frameCount, fps: anim.fps })} ·{' '}
          {tl('anim.seconds', { s: anim.duration.toFixed(1) })}
        </span>
      </div>
      <p className="music-credits">{anim.credit ? tl('anim.credits') : ''}</p>
    </Modal>
  );
}

/** A select of the bone types a library take is downloaded as (every one but the face-only type). */
function BoneSelect({ value, set, testId }: { value: string; set: (v: string) => void; testId?: string }) {
  return (
    <select
      aria-label={tl('anim.boneType')}
      value={value}
      onChange={(e) => set(e.target.value)}
      data-testid={testId}
    >
      {DEFAULT_BONE_TYPES.filter((b) => b.name !== 'OnlyFace').map((b) => (
        <option key={b.name} value={b.name}>
          {b.name}
        </option>
      ))}
    </select>
  );
}

export function AnimationPage() {
  const { user, refresh } = useSession();
  const [keyword, setKeyword] = useState('');
  const [applied, setApplied] = useState('');
  const [category, setCategory] = useState('');
  const [collectedOnly, setCollectedOnly] = useState(false);
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{
    list: LibraryAnimation[];
    total: number;
    categories: { category: string; count: number }[];
  } | null>(null);
  const [preview, setPreview] = useState<LibraryAnimation | null>(null);
  const [buying, setBuying] = useState<{ anim: LibraryAnimation; bone: string } | null>(null);
  const [bones, setBones] = useState<Record<number, string>>({});
  const [bundleBone, setBundleBone] = useState('Mixamo');
  const [bundling, setBundling] = useState<LibraryAnimation[] | null>(null);
  const [bundleBusy, setBundleBusy] = useState(false);
  const [redoing, setRedoing] = useState<LibraryAnimation | null>(null);

  const load = useCallback(async () => {
    try {
      setData(
        await api.post('/animation/search', {
          page,
          size: SIZE,
          ...(applied ? { keyword: applied } : {}),
          ...(category ? { category } : {}),
          ...(collectedOnly ? { collected: true } : {}),
        }),
      );
    } catch {
      /* shown */
    }
  }, [page, applied, category, collectedOnly]);
  useEffect(() => {
    void load();
  }, [load]);

  const collect = async (a: LibraryAnimation) => {
    try {
      await api.put(`/animation/collect/${a.id}`, { collected: !a.collected });
      await load();
    } catch {
      /* shown */
    }
  };
  const download = async (a: LibraryAnimation, bone: string) => {
    try {
      const d = await api.get<AnimationDownload>(`/animation/download/0/${a.id}/${encodeURIComponent(bone)}`);
      saveUrl(d.paths[0]!);
      await Promise.all([load(), refresh()]);
    } catch {
      /* shown by the client */
    }
  };
  /** The `zip` endpoint: the animations shown (my collected ones) in one zip; the unbought ones are bought. */
  const bundle = async (list: LibraryAnimation[]) => {
    setBundleBusy(true);
    try {
      const d = await api.post<AnimationBundle>('/animation/zip', {
        ids: list.map((a) => a.id),
        boneType: bundleBone,
      });
      saveUrl(d.paths[0]!);
      await Promise.all([load(), refresh()]);
    } catch {
      /* shown by the client */
    } finally {
      setBundleBusy(false);
    }
  };
  /** `redone`: my shared capture made again from the video's current motion (after a remake or a 2D repair). */
  const redo = async (a: LibraryAnimation) => {
    try {
      await api.post(`/animation/redone/${a.id}`);
      toast.success(tl('anim.redone'));
      await load();
    } catch {
      /* shown by the client */
    }
  };
  const cur = user?.company ? 'CV' : 'V';
  const unboughtOf = (list: LibraryAnimation[]) =>
    list.filter((a) => !a.purchased).reduce((s, a) => s + a.price, 0);

  return (
    <div className="music-page anim-page">
      <section className="anim-hero">
        <h1>{tl('anim.title')}</h1>
        <p className="music-lead">{tl('anim.lead')}</p>
        <p className="music-price">{tl('anim.price', { cur })}</p>
        {!user?.company && <ShareCapture />}
      </section>
      <form
        className="anim-filters"
        onSubmit={(e) => {
          e.preventDefault();
          setPage(1);
          setApplied(keyword.trim());
        }}
      >
        <input
          className="music-name"
          placeholder={tl('anim.search')}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          data-testid="anim-keyword"
        />
        <button type="submit" className="btn btn-primary btn-sm">
          {tl('anim.searchBtn')}
        </button>
        <div className="anim-cats">
          <button
            type="button"
            className={`chip ${category === '' ? 'chip-on' : ''}`}
            onClick={() => {
              setPage(1);
              setCategory('');
            }}
          >
            {tl('anim.allCategories')}
          </button>
          {(data?.categories ?? []).map((c) => (
            <button
              type="button"
              key={c.category}
              className={`chip ${category === c.category ? 'chip-on' : ''}`}
              onClick={() => {
                setPage(1);
                setCategory(c.category);
              }}
            >
              {categoryLabel(c.category)} · {c.count}
            </button>
          ))}
        </div>
        <label className="anim-inline">
          <input
            type="checkbox"
            checked={collectedOnly}
            onChange={(e) => {
              setPage(1);
              setCollectedOnly(e.target.checked);
            }}
          />
          {tl('anim.collectedOnly')}
        </label>
        <span className="anim-muted">
          {data?.total === 1 ? tl('anim.countOne') : tl('anim.count', { n: data?.total ?? 0 })}
        </span>
      </form>
      {collectedOnly && data && data.list.length > 1 && (
        <div className="anim-bundle" data-testid="anim-bundle">
          <span>{tl('anim.bundleLead', { n: data.list.length })}</span>
          <BoneSelect value={bundleBone} set={setBundleBone} />
          <IconTextButton
            icon="download"
            className="btn btn-primary btn-sm"
            disabled={bundleBusy}
            action="bundle"
            onClick={() => (unboughtOf(data.list) > 0 ? setBundling(data.list) : void bundle(data.list))}
          >
            {tl('anim.bundle')}
          </IconTextButton>
        </div>
      )}
      {!data ? (
        <div className="page-loading">
          <div className="spinner" />
        </div>
      ) : data.list.length === 0 ? (
        <div className="empty">{tl('anim.empty')}</div>
      ) : (
        <div className="anim-grid">
          {data.list.map((a) => {
            const bone = bones[a.id] ?? 'Mixamo';
            return (
              <div className="anim-card" key={a.id} data-testid="anim-card" data-id={a.id}>
                <img
                  className="anim-thumb"
                  src={a.picture}
                  alt={a.name}
                  loading="lazy"
                  data-testid="anim-picture"
                />
                <div className="anim-card-head">
                  <strong>{a.name}</strong>
                  <button
                    type="button"
                    className={`anim-star ${a.collected ? 'on' : ''}`}
                    title={tl(a.collected ? 'anim.collected' : 'anim.collect')}
                    aria-label={tl(a.collected ? 'anim.collected' : 'anim.collect')}
                    aria-pressed={a.collected}
                    onClick={() => void collect(a)}
                    data-action="collect"
                  >
                    {a.collected ? '★' : '☆'}
                  </button>
                </div>
                <div className="card-meta">
                  <span className="chip">{categoryLabel(a.category)}</span>
                  <span className="chip">{tl('anim.seconds', { s: a.duration.toFixed(1) })}</span>
                  {a.purchased ? (
                    <span className="chip chip-on">{tl('anim.bought')}</span>
                  ) : (
                    <span className="chip">
                      {a.price} {a.currency}
                    </span>
                  )}
                </div>
                <div className="anim-tags">
                  {a.tags.map((x) => `#${x}`).join('  ')}
                  {a.mine && (
                    <button
                      type="button"
                      className="anim-redo"
                      onClick={() => setRedoing(a)}
                      data-action="redone"
                    >
                      {tl('anim.redo')}
                    </button>
                  )}
                </div>
                <div className="anim-actions">
                  <IconTextButton icon="play" action="preview" onClick={() => setPreview(a)}>
                    {tl('anim.preview')}
                  </IconTextButton>
                  <BoneSelect
                    value={bone}
                    set={(v) => setBones((b) => ({ ...b, [a.id]: v }))}
                    testId="anim-bonetype"
                  />
                  <button
                    type="button"
                    className="btn btn-primary btn-sm"
                    data-action={a.purchased ? 'download' : 'buy'}
                    onClick={() => (a.purchased ? void download(a, bone) : setBuying({ anim: a, bone }))}
                  >
                    <Icon name="download" size={14} />{' '}
                    {a.purchased ? tl('anim.download') : tl('anim.buy', { price: a.price, cur: a.currency })}
                  </button>
                </div>
              </div>
            );
          })}
        </div>
      )}
      <Pager page={page} pages={Math.ceil((data?.total ?? 0) / SIZE)} go={setPage} />
      <p className="music-credits">{tl('anim.credits')}</p>
      {preview && <AnimationPreview anim={preview} onClose={() => setPreview(null)} />}
      <ConfirmItem
        item={redoing}
        clear={() => setRedoing(null)}
        title={tl('anim.redoTitle')}
        text={(a) => tl('anim.redoConfirm', { name: a.name })}
        run={(a) => void redo(a)}
      />
      <ConfirmItem
        item={bundling}
        clear={() => setBundling(null)}
        title={tl('anim.bundleTitle')}
        text={(list) =>
          tl('anim.bundleConfirm', {
            n: list.filter((a) => !a.purchased).length,
            price: unboughtOf(list),
            cur,
          })
        }
        run={(list) => void bundle(list)}
      />
      <ConfirmItem
        item={buying}
        clear={() => setBuying(null)}
        title={tl('anim.buyTitle')}
        text={(b) => tl('anim.buyConfirm', { name: b.anim.name, price: b.anim.price, cur: b.anim.currency })}
        run={(b) => void download(b.anim, b.bone)}
      />
    </div>
  );
}

/** An owner shares one of their made captures (on the square) to the library; an administrator publishes it. */
function ShareCapture() {
  const [captures, setCaptures] = useState<LabMotion[]>([]);
  const [pick, setPick] = useState(0);
  const [busy, whileBusy] = useBusy();
  useEffect(() => {
    labMotions()
      .then((list) => {
        const mine = list.filter((m) => m.kind === 'video');
        setCaptures(mine);
        if (mine[0]) setPick(mine[0].id);
      })
      .catch(() => setCaptures([]));
  }, []);
  if (captures.length === 0) return null;
  const share = async () => {
    await whileBusy(async () => {
      await api.post('/animation/upload', { videoId: pick });
      toast.success(tl('anim.shared'));
    });
  };
  return (
    <div className="anim-share" data-testid="anim-share">
      <span>{tl('anim.shareLead')}</span>
      <select
        className="anim-share-pick"
        aria-label={tl('anim.shareLead')}
        value={pick}
        onChange={(e) => setPick(Number(e.target.value))}
      >
        {captures.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      <button type="button" className="btn btn-sm" disabled={busy} onClick={() => void share()}>
        {tl('anim.share')}
      </button>
    </div>
  );
}
