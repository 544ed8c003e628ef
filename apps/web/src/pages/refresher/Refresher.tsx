/**
 * /refresher (desktop) and /refresherM (phone): the 2D repair editor. The source video with the tracked 2D
 * landmarks drawn over it (frame-accurate stepping and scrubbing), the solved 3D pose beside it, a timeline of
 * weak frames with next/previous problem, edits as keyframes (drag a point, hide it, swap left/right on a
 * frame, a range or the whole run the tracker swapped; frames between keyframes interpolated; hand points as
 * well as the body's), undo/redo, keyboard shortcuts, a draft autosaved on the server (it survives a reload and
 * opens on another device), "re-track from here" (a server job, progress shown), and save → re-solve → the
 * preview and the downloads use the repair. Free users are refused (spec §6); a load failure gives the advice of spec §8.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Icon } from '../../components/Icon.tsx';
import { LangSwitch } from '../../components/TopBar.tsx';
import { HAND_POINT_EN, HAND_POINT_ZH, LANDMARK_ZH } from '../../i18n/refresher.ts';
import { isPhone } from '../../lib/device.ts';
import { ApiError } from '../../lib/envelope.ts';
import { sidebarWidthFor } from '../../lib/guard.ts';
import { getLang, t } from '../../lib/i18n.ts';
import { toast } from '../../lib/messages.ts';
import { useSession } from '../../lib/session.tsx';
import { parseClip } from '../../three/clip.ts';
import { MotionViewer } from '../../three/Viewer.ts';
import '../../styles/refresher.css';
import { Tabs } from '../../components/Tabs.tsx';
import {
  deleteDraft,
  fetchTracks,
  loadDraft,
  loadEditable,
  type RetrackState,
  retrackState,
  saveDraft,
  saveRepair,
  solvedClip,
  startRetrack,
  videoState,
} from './api.ts';
import { drawFrame, pickPoint } from './draw.ts';
import {
  addSwap,
  analyse,
  applyDraft,
  boneLengths,
  type Draft,
  draftBaseOf,
  effectiveKeys,
  emptyDraft,
  frameAt,
  handPointOf,
  isEmptyDraft,
  keyFrames,
  LANDMARK_NAMES,
  nextProblem,
  type PointKey,
  PROBLEM_KINDS,
  type Problem,
  pointAt,
  type SwapPart,
  setKey,
  swapRunAt,
  TOTAL_POINTS,
  type TrackFrame,
  type TracksDoc,
  timeOf,
} from './model.ts';

const LONG_PRESS_MS = 550;

/** A small filled transport glyph (the ⏮/⏭ characters are missing from many fonts). */
function Glyph({ d }: { d: string }) {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true">
      <path d={d} fill="currentColor" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
    </svg>
  );
}

export const pointName = (j: number): string => {
  const hp = handPointOf(j);
  const zh = getLang() === 'zh';
  if (hp) {
    return zh
      ? `${hp.side === 'left' ? '左手' : '右手'}${HAND_POINT_ZH[hp.i]}`
      : `${hp.side} hand ${HAND_POINT_EN[hp.i]}`;
  }
  return zh ? LANDMARK_ZH[j] : LANDMARK_NAMES[j].replace(/_/g, ' ');
};

interface History {
  past: Draft[];
  future: Draft[];
}

const clock = (ms: number) =>
  new Date(ms).toLocaleTimeString(getLang() === 'zh' ? 'zh-CN' : 'en-GB', {
    hour: '2-digit',
    minute: '2-digit',
  });

/** The route element: a phone opening /refresher goes to /refresherM (and back), keeping the query. */
export function RefresherRoute({ mobile = false }: { mobile?: boolean }) {
  const { search } = useLocation();
  if (isPhone() !== mobile)
    return <Navigate to={`${isPhone() ? '/refresherM' : '/refresher'}${search}`} replace />;
  return <RefresherPage mobile={mobile} />;
}

export function RefresherPage({ mobile = false }: { mobile?: boolean }) {
  const { user, loading } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const back = () => (history.length > 1 ? navigate(-1) : navigate('/index/myPro'));
  const sidebar = sidebarWidthFor(mobile ? '/refresherM' : '/refresher') ?? 277;

  if (loading || !user)
    return (
      <div className="page-loading">
        <div className="spinner" />
      </div>
    );
  const header = (
    <header className="rf-head">
      <button type="button" className="btn btn-ghost" data-testid="rf-back" onClick={back}>
        <Icon name="back" /> {t('common.back')}
      </button>
      <h1>{t('title.refresher')}</h1>
      <LangSwitch />
    </header>
  );
  if (user.plan === 'free' && !user.company) {
    return (
      <div className={`rf rf-blocked${mobile ? ' rf-m' : ''}`}>
        {header}
        <div className="rf-refused panel" data-testid="rf-refused" role="alert">
          <Icon name="warning" size={28} />
          <strong>{t('rf.freeClosed')}</strong>
          <p className="muted">{t('rf.freeHint')}</p>
          <button type="button" className="btn btn-primary" onClick={() => navigate('/asPay/index')}>
            {t('rf.seePlans')}
          </button>
        </div>
      </div>
    );
  }
  if (!id) {
    return (
      <div className={`rf rf-blocked${mobile ? ' rf-m' : ''}`}>
        {header}
        <div className="rf-refused panel">{t('rf.noId')}</div>
      </div>
    );
  }
  return <Editor key={id} id={id} mobile={mobile} sidebar={sidebar} onBack={back} />;
}

function Editor({
  id,
  mobile,
  sidebar,
  onBack,
}: {
  id: string;
  mobile: boolean;
  sidebar: number;
  onBack: () => void;
}) {
  const [phase, setPhase] = useState<'loading' | 'ready' | 'error'>('loading');
  const [base, setBase] = useState<TracksDoc | null>(null);
  const [videoUrl, setVideoUrl] = useState('');
  const [repairs, setRepairs] = useState(0);
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [hist, setHist] = useState<History>({ past: [], future: [] });
  const [frame, setFrame] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const [range, setRange] = useState<{ from: number; to: number } | null>(null);
  const [part, setPart] = useState<SwapPart>('legs');
  const [drag, setDrag] = useState<{ j: number; x: number; y: number } | null>(null);
  const [draftNote, setDraftNote] = useState<{
    kind: 'restored' | 'saved' | 'tooBig' | 'elsewhere' | 'notSaved';
    at: number;
  } | null>(null);
  /** The draft as last stored on the server (its revision and JSON), so autosave sends only changes. */
  const stored = useRef<{ rev: number; json: string }>({ rev: 0, json: JSON.stringify(emptyDraft()) });
  const [solve, setSolve] = useState<{
    state: 'idle' | 'running' | 'failed';
    progress: number;
    error?: string;
  }>({
    state: 'idle',
    progress: 0,
  });
  const [retrack, setRetrack] = useState<RetrackState | null>(null);
  const [view, setView] = useState<'2d' | '3d'>('2d');
  /** Magnification of the picture (1×, 2×, 4×) around the selected point or the body. */
  const [zoom, setZoom] = useState(1);
  const [zoomFor, setZoomFor] = useState<{ x: number; y: number } | null>(null);
  const [clipReady, setClipReady] = useState(false);
  /** A label; on phones without its keyboard shortcut "(H)" / "（H）". */
  const lbl = (key: string) => (mobile ? t(key).replace(/\s*[(（][^()（）]*[)）]\s*$/, '') : t(key));

  const videoEl = useRef<HTMLVideoElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const pane = useRef<HTMLDivElement>(null);
  const holder3d = useRef<HTMLDivElement>(null);
  const viewer = useRef<MotionViewer | null>(null);
  const [stage, setStage] = useState({ w: 0, h: 0 });

  // ---------- load
  const load = useCallback(async () => {
    const e = await loadEditable(id);
    const doc = await fetchTracks(e.poseUrl);
    setRepairs(e.repairCount);
    setVideoUrl(e.videoUrl);
    setBase(doc);
    return doc;
  }, [id]);

  useEffect(() => {
    let live = true;
    load()
      .then(async (doc) => {
        // The draft autosaved on the server (from this or another device), when made on these tracks.
        const saved = await loadDraft(id).catch(() => null);
        if (!live) return;
        if (saved) {
          stored.current = { rev: saved.rev, json: '' };
          if (saved.base === draftBaseOf(doc) && !isEmptyDraft(saved.draft)) {
            stored.current.json = JSON.stringify(saved.draft);
            setDraft(saved.draft);
            setDraftNote({ kind: 'restored', at: saved.at });
          }
        }
        setPhase('ready');
      })
      .catch(() => live && setPhase('error'));
    return () => {
      live = false;
    };
  }, [id, load]);

  // The solved 3D pose beside the video (the existing three.js viewer, the video as its clock).
  // The solved clip, kept so the phone's 3D tab can be rebuilt without fetching it again.
  const clipRef = useRef<ReturnType<typeof parseClip> | null>(null);
  const loadClip = useCallback(async () => {
    const clip = parseClip(await solvedClip(id));
    clipRef.current = clip;
    viewer.current?.setClip(clip);
    setClipReady(true);
  }, [id]);
  // On a phone the 3D view exists only while its tab is shown (no WebGL drawing behind the picture).
  const show3d = !mobile || view === '3d';
  useEffect(() => {
    if (phase !== 'ready' || !holder3d.current || !show3d) return;
    let v: MotionViewer;
    try {
      v = new MotionViewer(holder3d.current);
    } catch {
      setPhase('error');
      return;
    }
    viewer.current = v;
    v.setCharacter('robot');
    v.setSkeletonVisible(true);
    v.setTimeSource(() => videoEl.current?.currentTime ?? 0);
    if (clipRef.current) v.setClip(clipRef.current);
    else void loadClip().catch(() => setClipReady(false));
    return () => {
      v.dispose();
      viewer.current = null;
    };
  }, [phase, loadClip, show3d]);

  // ---------- derived
  const bones = useMemo(() => (base ? boneLengths(base) : new Map<number, number>()), [base]);
  const edited = useMemo(() => (base ? applyDraft(base, draft, bones) : null), [base, draft, bones]);
  const problems = useMemo(() => (edited ? analyse(edited) : []), [edited]);
  const N = edited?.frames.length ?? 0;
  const cur: TrackFrame | undefined = edited?.frames[frame];
  const keyedHere = useMemo(() => new Set(Object.keys(draft.keys[frame] ?? {}).map(Number)), [draft, frame]);
  const effective = useMemo(() => {
    const m = new Map<number, Map<number, PointKey & { interpolated: boolean }>>();
    for (let j = 0; j < TOTAL_POINTS; j++) m.set(j, effectiveKeys(draft, j));
    return m;
  }, [draft]);
  const interpHere = useMemo(() => {
    const s = new Set<number>();
    for (const [j, m] of effective) if (m.get(frame)?.interpolated) s.add(j);
    return s;
  }, [effective, frame]);
  const flaggedHere = useMemo(() => {
    const s = new Set<number>();
    for (const p of problems) if (p.from <= frame && frame <= p.to) for (const j of p.points) s.add(j);
    return s;
  }, [problems, frame]);
  const problemsHere = problems.filter((p) => p.from <= frame && frame <= p.to);
  const keyCount = useMemo(
    () => Object.values(draft.keys).reduce((s, k) => s + Object.keys(k).length, 0),
    [draft],
  );
  const retracked = Object.keys(draft.replaced ?? {}).length;
  /** A flagged stretch's frames ('frame 4' for one, 'frames 0–2' for more). */
  const framesOf = (p: { from: number; to: number }) =>
    p.from === p.to ? t('rf.frameOne', { a: p.from }) : t('rf.frames', { a: p.from, b: p.to });

  // ---------- edits, undo/redo
  const commit = useCallback(
    (next: Draft) => {
      setHist((h) => ({ past: [...h.past.slice(-199), draft], future: [] }));
      setDraft(next);
    },
    [draft],
  );
  const undo = useCallback(() => {
    setHist((h) => {
      if (h.past.length === 0) return h;
      const prev = h.past[h.past.length - 1];
      setDraft(prev);
      return { past: h.past.slice(0, -1), future: [draft, ...h.future] };
    });
  }, [draft]);
  const redo = useCallback(() => {
    setHist((h) => {
      if (h.future.length === 0) return h;
      const next = h.future[0];
      setDraft(next);
      return { past: [...h.past, draft], future: h.future.slice(1) };
    });
  }, [draft]);

  // Autosave of the draft on the server (per video; one save at a time, only when it changed). A save over a
  // newer revision (saved meanwhile in another window or device) is refused: the newer draft is shown instead.
  const saving = useRef<Promise<void>>(Promise.resolve());
  // Set from a repair's save until the editor shows the saved tracks: the edits are saved as the repair then, so
  // an autosave of them still pending (its 600 ms wait not yet over when Save was pressed) must not put them
  // back on the server as a draft after the save discarded it (they reappeared as unsaved on the next open).
  const repairing = useRef(false);
  const autosave = useCallback(
    (next: Draft, doc: TracksDoc, initial: boolean) => {
      saving.current = saving.current.then(async () => {
        const json = JSON.stringify(next);
        if (json === stored.current.json) return;
        if (repairing.current && !isEmptyDraft(next)) return;
        try {
          if (isEmptyDraft(next)) {
            if (stored.current.rev > 0) await deleteDraft(id);
            stored.current = { rev: 0, json };
            return;
          }
          const r = await saveDraft(id, draftBaseOf(doc), stored.current.rev, next);
          stored.current = { rev: r.rev, json };
          setDraftNote((n) => (n?.kind === 'restored' && initial ? n : { kind: 'saved', at: r.at }));
        } catch (e) {
          if (e instanceof ApiError && e.code === 307) {
            const newer = await loadDraft(id).catch(() => null);
            stored.current = { rev: newer?.rev ?? 0, json: newer ? JSON.stringify(newer.draft) : '' };
            if (newer && newer.base === draftBaseOf(doc)) {
              setDraft(newer.draft);
              setDraftNote({ kind: 'elsewhere', at: newer.at });
            }
          } else if (e instanceof ApiError && e.code === 400) {
            setDraftNote({ kind: 'tooBig', at: Date.now() });
          } else {
            setDraftNote({ kind: 'notSaved', at: Date.now() });
          }
        }
      });
      return saving.current;
    },
    [id],
  );
  useEffect(() => {
    if (!base || phase !== 'ready') return;
    const timer = setTimeout(() => void autosave(draft, base, hist.past.length === 0), 600);
    return () => clearTimeout(timer);
  }, [draft, base, phase, hist.past.length, autosave]);

  const discardDraft = () => {
    commit(emptyDraft());
    setDraftNote(null);
  };

  // ---------- time / frames
  const seekFrame = useCallback(
    (f: number) => {
      if (!edited) return;
      const g = Math.max(0, Math.min(edited.frames.length - 1, Math.round(f)));
      setFrame(g);
      const ve = videoEl.current;
      if (ve) {
        if (!ve.paused) ve.pause();
        ve.currentTime = timeOf(edited, g);
      }
    },
    [edited],
  );
  const play = useCallback((on: boolean) => {
    const ve = videoEl.current;
    if (!ve) return;
    if (on) void ve.play().catch(() => setPlaying(false));
    else ve.pause();
  }, []);
  // While playing, follow the video's own frame clock (requestVideoFrameCallback where available).
  useEffect(() => {
    const ve = videoEl.current;
    if (!ve || !edited || !playing) return;
    let stop = false;
    type RVFC = (cb: (now: number, meta: { mediaTime: number }) => void) => number;
    const rvfc = (ve as unknown as { requestVideoFrameCallback?: RVFC }).requestVideoFrameCallback?.bind(ve);
    if (rvfc) {
      const onFrame = (_: number, meta: { mediaTime: number }) => {
        if (stop) return;
        setFrame(frameAt(edited, meta.mediaTime));
        rvfc(onFrame);
      };
      rvfc(onFrame);
    } else {
      const tick = () => {
        if (stop) return;
        setFrame(frameAt(edited, ve.currentTime));
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    }
    return () => {
      stop = true;
    };
  }, [playing, edited]);

  // ---------- stage size (the video fitted into its pane; the overlay canvas on top of it)
  // biome-ignore lint/correctness/useExhaustiveDependencies: phase and view mount or show the pane to measure
  useLayoutEffect(() => {
    const el = pane.current;
    if (!el || !base) return;
    const fit = () => {
      const r = el.getBoundingClientRect();
      const W = base.video.width || 16;
      const H = base.video.height || 9;
      const cw = el.clientWidth || r.width;
      const ch = el.clientHeight || r.height;
      const s = Math.min(cw / W, ch / H);
      setStage({ w: Math.floor(W * s), h: Math.floor(H * s) });
    };
    fit();
    const ro = new ResizeObserver(fit);
    ro.observe(el);
    return () => ro.disconnect();
  }, [base, phase, view]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the origin follows the frame and zoom, not the selection
  useEffect(() => {
    const im = cur?.image;
    if (zoom === 1 || !im || !base) {
      setZoomFor(null);
      return;
    }
    const p: [number, number] = (selected !== null ? pointAt(cur, selected) : null) ?? [
      (im[23][0] + im[24][0]) / 2,
      (im[23][1] + im[24][1]) / 2,
    ];
    setZoomFor({ x: (p[0] / base.video.width) * stage.w, y: (p[1] / base.video.height) * stage.h });
  }, [zoom, frame, base, stage]);

  // ---------- drawing
  useEffect(() => {
    const c = canvas.current;
    if (!c || !base) return;
    const dpr = window.devicePixelRatio || 1;
    // Drawn at the zoomed size, so a magnified picture keeps sharp lines.
    const w = Math.max(1, Math.round(stage.w * dpr * zoom));
    const h = Math.max(1, Math.round(stage.h * dpr * zoom));
    if (c.width !== w) c.width = w;
    if (c.height !== h) c.height = h;
    const ctx = c.getContext('2d');
    if (!ctx) return;
    drawFrame(ctx, cur, base.video.width, base.video.height, {
      selected,
      keyed: keyedHere,
      interpolated: interpHere,
      flagged: flaggedHere,
      drag,
      radius: mobile ? 5 : 4,
      pxPerCss: dpr,
    });
  }, [cur, base, stage, selected, keyedHere, interpHere, flaggedHere, drag, mobile, zoom]);

  // ---------- pointer editing (mouse, pen and touch)
  const gesture = useRef<{
    j: number;
    id: number;
    x0: number;
    y0: number;
    moved: boolean;
    timer: ReturnType<typeof setTimeout> | null;
    done: boolean;
  } | null>(null);
  const toImage = (e: { clientX: number; clientY: number }) => {
    const c = canvas.current!;
    const r = c.getBoundingClientRect();
    return {
      x: ((e.clientX - r.left) / r.width) * base!.video.width,
      y: ((e.clientY - r.top) / r.height) * base!.video.height,
      perPx: base!.video.width / r.width,
    };
  };
  const toggleHidden = useCallback(
    (j: number) => {
      if (!cur?.image) return;
      const at = pointAt(cur, j);
      if (!at) return;
      if (handPointOf(j)) {
        // A hand point is hidden with its hand (on this frame); showing it again is undo or removing the key.
        commit(setKey(draft, frame, j, { x: at[0], y: at[1], hidden: true }));
        toast.info(t('rf.handHide'));
        return;
      }
      const p = cur.image[j];
      const hiddenNow = Math.min(p[3], p[4]) < 0.5;
      commit(setKey(draft, frame, j, hiddenNow ? { x: p[0], y: p[1] } : { x: p[0], y: p[1], hidden: true }));
    },
    [cur, draft, frame, commit],
  );
  const onPointerDown = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (!base || !cur?.image) return;
    if (playing) play(false);
    const { x, y, perPx } = toImage(e);
    const touch = e.pointerType === 'touch';
    const j = pickPoint(cur, x, y, (touch ? 28 : 14) * perPx);
    if (j === null) {
      setSelected(null);
      return;
    }
    e.preventDefault();
    e.currentTarget.setPointerCapture?.(e.pointerId);
    setSelected(j);
    const g = {
      j,
      id: e.pointerId,
      x0: e.clientX,
      y0: e.clientY,
      moved: false,
      timer: null as never,
      done: false,
    };
    if (touch) {
      g.timer = setTimeout(() => {
        if (gesture.current === g && !g.moved) {
          g.done = true;
          toggleHidden(j);
          navigator.vibrate?.(20);
        }
      }, LONG_PRESS_MS) as never;
    }
    gesture.current = g;
  };
  const onPointerMove = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const g = gesture.current;
    if (!g || g.id !== e.pointerId || g.done) return;
    if (!g.moved && Math.hypot(e.clientX - g.x0, e.clientY - g.y0) < 3) return;
    g.moved = true;
    if (g.timer) clearTimeout(g.timer);
    const { x, y } = toImage(e);
    setDrag({ j: g.j, x, y });
  };
  const onPointerUp = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const g = gesture.current;
    if (!g || g.id !== e.pointerId) return;
    if (g.timer) clearTimeout(g.timer);
    gesture.current = null;
    if (g.moved && !g.done) {
      const { x, y } = toImage(e);
      const W = base!.video.width;
      const H = base!.video.height;
      commit(setKey(draft, frame, g.j, { x: Math.max(0, Math.min(W, x)), y: Math.max(0, Math.min(H, y)) }));
    }
    setDrag(null);
  };

  // ---------- tools
  const swapOn = useCallback(
    (from: number, to: number) => commit(addSwap(draft, { from, to, part })),
    [draft, part, commit],
  );
  // The whole run of frames flagged as swapped around this frame (the tracker's own stretch): one fix for all.
  const swapRun = useMemo(() => swapRunAt(problems, frame), [problems, frame]);
  const swapWholeRun = useCallback(() => {
    if (!swapRun) return;
    let d = draft;
    for (const p of swapRun.parts) d = addSwap(d, { from: swapRun.from, to: swapRun.to, part: p });
    commit(d);
  }, [swapRun, draft, commit]);
  const removeKey = useCallback(() => {
    if (selected === null || !draft.keys[frame]?.[selected]) return;
    commit(setKey(draft, frame, selected, null));
  }, [selected, draft, frame, commit]);
  const goProblem = useCallback(
    (dir: 1 | -1) => {
      const p = nextProblem(problems, frame, dir);
      if (p) {
        seekFrame(p.from);
        if (p.points.length > 0) setSelected(p.points[0]);
      }
    },
    [problems, frame, seekFrame],
  );
  const setRangeEnd = (which: 'from' | 'to') =>
    setRange((r) => {
      const a = which === 'from' ? frame : (r?.from ?? frame);
      const b = which === 'to' ? frame : (r?.to ?? frame);
      return { from: Math.min(a, b), to: Math.max(a, b) };
    });

  // ---------- re-track from here (server job)
  const runRetrack = useCallback(async () => {
    if (!cur?.image || retrack?.status === 'waiting' || retrack?.status === 'active') return;
    try {
      const s = await startRetrack(id, frame, cur.image);
      setRetrack(s);
    } catch {
      /* shown by the client */
    }
  }, [cur, id, frame, retrack]);
  useEffect(() => {
    if (!retrack || retrack.status === 'done' || retrack.status === 'failed') return;
    let live = true;
    const timer = setInterval(async () => {
      try {
        const s = await retrackState(retrack.jobId);
        if (!live) return;
        setRetrack(s);
        if (s.status === 'done' && s.frames && edited) {
          // The re-tracked frames replace the edited ones: keyframes after the seed frame within the re-tracked
          // stretch are dropped (the new track stands for them), the seed frame's own edits stay.
          const frames = s.frames;
          const map = new Map(frames.map((f) => [f.index, f]));
          const keys: Draft['keys'] = {};
          for (const [f, k] of Object.entries(draft.keys)) if (!map.has(Number(f))) keys[Number(f)] = k;
          commit({ ...draft, keys, replaced: { ...(draft.replaced ?? {}), ...Object.fromEntries(map) } });
          toast.success(t('rf.retrackDone', { a: s.from, b: s.to }));
        }
        if (s.status === 'failed') toast.error(t('rf.retrackFailed', { e: s.error ?? '' }));
      } catch {
        /* try again on the next tick */
      }
    }, 1000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [retrack, edited, draft, commit]);

  // ---------- save → re-solve → preview and downloads updated
  const save = useCallback(async () => {
    if (!edited || solve.state === 'running') return;
    if (isEmptyDraft(draft)) {
      toast.info(t('rf.nothingToSave'));
      return;
    }
    setSolve({ state: 'running', progress: 0 });
    repairing.current = true;
    try {
      await saveRepair(id, edited);
    } catch (e) {
      repairing.current = false;
      setSolve({ state: 'failed', progress: 0, error: e instanceof ApiError ? e.message : String(e) });
      return;
    }
    // The repair is saved: its draft is done with (a reload during the re-solve must not apply it again).
    await autosave(emptyDraft(), edited, false);
    for (;;) {
      await new Promise((r) => setTimeout(r, 1000));
      let v: Awaited<ReturnType<typeof videoState>>;
      try {
        v = await videoState(id);
      } catch {
        continue;
      }
      if (v.status === 'made') break;
      if (v.status === 'failed') {
        repairing.current = false;
        setSolve({ state: 'failed', progress: 0, error: v.error });
        toast.error(t('rf.saveFailed', { e: v.error }));
        return;
      }
      setSolve({ state: 'running', progress: v.progress });
    }
    await load();
    setDraft(emptyDraft());
    setHist({ past: [], future: [] });
    setDraftNote(null);
    repairing.current = false;
    await loadClip().catch(() => undefined);
    setSolve({ state: 'idle', progress: 100 });
    toast.success(t('rf.saved'));
  }, [edited, solve.state, draft, id, load, loadClip, autosave]);

  // ---------- keyboard
  useEffect(() => {
    const on = (e: KeyboardEvent) => {
      const tag = (e.target as HTMLElement | null)?.tagName;
      if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
      const k = e.key;
      const mod = e.ctrlKey || e.metaKey;
      if (mod && (k === 'z' || k === 'Z')) {
        e.preventDefault();
        if (e.shiftKey) redo();
        else undo();
        return;
      }
      if (mod && (k === 'y' || k === 'Y')) {
        e.preventDefault();
        redo();
        return;
      }
      if (mod) return;
      if (k === 'ArrowRight' || k === 'ArrowLeft') {
        e.preventDefault();
        seekFrame(frame + (k === 'ArrowRight' ? 1 : -1) * (e.shiftKey ? 10 : 1));
      } else if (k === ' ') {
        e.preventDefault();
        play(!playing);
      } else if (k === 'n' || k === 'N') goProblem(1);
      else if (k === 'p' || k === 'P') goProblem(-1);
      else if ((k === 'h' || k === 'H') && selected !== null) toggleHidden(selected);
      else if (k === 's' || k === 'S') swapOn(frame, frame);
      else if (k === '[') setRangeEnd('from');
      else if (k === ']') setRangeEnd('to');
      else if (k === 'r' || k === 'R') void runRetrack();
      else if (k === 'Delete' || k === 'Backspace') removeKey();
      else if (k === 'Escape') setSelected(null);
    };
    window.addEventListener('keydown', on);
    return () => window.removeEventListener('keydown', on);
  });

  if (phase === 'error') {
    return (
      <div className={`rf rf-blocked${mobile ? ' rf-m' : ''}`}>
        <header className="rf-head">
          <button type="button" className="btn btn-ghost" onClick={onBack}>
            <Icon name="back" /> {t('common.back')}
          </button>
          <h1>{t('title.refresher')}</h1>
          <LangSwitch />
        </header>
        <div className="rf-refused panel" role="alert" data-testid="rf-load-failed">
          <Icon name="warning" size={28} />
          <p>{t('rf.loadFailed')}</p>
        </div>
      </div>
    );
  }

  const selKey = selected !== null ? effective.get(selected)?.get(frame) : undefined;
  const selHidden =
    selected !== null && cur?.image && !handPointOf(selected)
      ? Math.min(cur.image[selected][3], cur.image[selected][4]) < 0.5
      : false;
  const retracking = retrack && (retrack.status === 'waiting' || retrack.status === 'active');
  const pct = (f: number) => `${(f / Math.max(1, N)) * 100}%`;

  const timeline = (
    <div className="rf-timeline-wrap">
      <div className="rf-transport">
        <button
          type="button"
          className="btn btn-icon"
          aria-label={t('rf.prevProblem')}
          title={t('rf.prevProblem')}
          data-testid="rf-prev-problem"
          onClick={() => goProblem(-1)}
        >
          <Glyph d="M6 5v14M19 5 9 12l10 7z" />
        </button>
        <button
          type="button"
          className="btn btn-icon"
          aria-label={lbl('rf.prevFrame')}
          title={lbl('rf.prevFrame')}
          data-testid="rf-prev-frame"
          onClick={() => seekFrame(frame - 1)}
        >
          <Glyph d="M16 5 7 12l9 7z" />
        </button>
        <button
          type="button"
          className="btn btn-icon"
          aria-label={playing ? lbl('rf.pause') : lbl('rf.play')}
          title={playing ? lbl('rf.pause') : lbl('rf.play')}
          data-testid="rf-play"
          onClick={() => play(!playing)}
        >
          <Icon name={playing ? 'pause' : 'play'} />
        </button>
        <button
          type="button"
          className="btn btn-icon"
          aria-label={lbl('rf.nextFrame')}
          title={lbl('rf.nextFrame')}
          data-testid="rf-next-frame"
          onClick={() => seekFrame(frame + 1)}
        >
          <Glyph d="M8 5l9 7-9 7z" />
        </button>
        <button
          type="button"
          className="btn btn-icon"
          aria-label={t('rf.nextProblem')}
          title={t('rf.nextProblem')}
          data-testid="rf-next-problem"
          onClick={() => goProblem(1)}
        >
          <Glyph d="M18 5v14M5 5l10 7-10 7z" />
        </button>
        <button
          type="button"
          className={`btn btn-icon rf-zoom${zoom > 1 ? ' on' : ''}`}
          aria-label={t('rf.zoom', { z: zoom === 4 ? 1 : zoom * 2 })}
          title={t('rf.zoom', { z: zoom === 4 ? 1 : zoom * 2 })}
          data-testid="rf-zoom"
          onClick={() => setZoom((z) => (z === 4 ? 1 : z * 2))}
        >
          <Icon name="search" />
          {zoom > 1 && <span className="rf-zoom-n">{zoom}×</span>}
        </button>
        <span className="rf-frame" data-testid="rf-frame" data-frame={frame}>
          {t('rf.frame', { f: frame, n: Math.max(0, N - 1) })}
        </span>
        {problemsHere.length > 0 && (
          <span className="rf-here">
            {problemsHere.map((p) => (
              <span key={`${p.kind}${p.from}`} className={`rf-chip kind-${p.kind}`}>
                {t(`rf.kind.${p.kind}`)}
              </span>
            ))}
          </span>
        )}
      </div>
      <div
        className="rf-timeline"
        data-testid="rf-timeline"
        role="slider"
        aria-valuemin={0}
        aria-valuemax={Math.max(0, N - 1)}
        aria-valuenow={frame}
        aria-label={t('rf.frame', { f: frame, n: Math.max(0, N - 1) })}
        tabIndex={0}
        onPointerDown={(e) => {
          e.currentTarget.setPointerCapture?.(e.pointerId);
          const r = e.currentTarget.getBoundingClientRect();
          seekFrame(((e.clientX - r.left) / r.width) * N - 0.5);
        }}
        onPointerMove={(e) => {
          if (!e.currentTarget.hasPointerCapture?.(e.pointerId)) return;
          const r = e.currentTarget.getBoundingClientRect();
          seekFrame(((e.clientX - r.left) / r.width) * N - 0.5);
        }}
      >
        {PROBLEM_KINDS.map((kind) => (
          <div key={kind} className="rf-lane">
            {problems
              .filter((p) => p.kind === kind)
              .map((p) => (
                <div
                  key={`${p.from}-${p.to}`}
                  className={`rf-run kind-${p.kind}`}
                  data-kind={p.kind}
                  data-from={p.from}
                  data-to={p.to}
                  data-points={p.points.join(',')}
                  style={{ left: pct(p.from), width: pct(p.to - p.from + 1) }}
                  title={`${t(`rf.kind.${p.kind}`)}: ${framesOf(p)}`}
                />
              ))}
          </div>
        ))}
        {range && (
          <div
            className="rf-range"
            data-testid="rf-range"
            style={{ left: pct(range.from), width: pct(range.to - range.from + 1) }}
          />
        )}
        {draft.swaps.map((s) => (
          <div
            key={`${s.from}-${s.to}-${s.part}`}
            className="rf-swapmark"
            style={{ left: pct(s.from), width: pct(s.to - s.from + 1) }}
          />
        ))}
        {keyFrames(draft).map((f) => (
          <div key={f} className="rf-key" data-frame={f} style={{ left: pct(f + 0.5) }} />
        ))}
        <div className="rf-cursor" style={{ left: pct(frame + 0.5) }} />
      </div>
      <div className="rf-legend small muted">
        {PROBLEM_KINDS.map((k) => (
          <span key={k} title={t(`rf.kindHint.${k}`)}>
            <span className={`rf-dot kind-${k}`} /> {t(`rf.kind.${k}`)}
          </span>
        ))}
        <span>
          <span className="rf-diamond" /> {t('rf.legendKey')}
        </span>
      </div>
    </div>
  );

  const pointPanel = (
    <section className="rf-section">
      <h3>{t('rf.point')}</h3>
      {selected === null ? (
        <p className="muted small">{mobile ? t('rf.noPointTouch') : t('rf.noPoint')}</p>
      ) : (
        <>
          <div className="rf-point" data-testid="rf-selected" data-point={selected}>
            <strong className="rf-point-name">{pointName(selected)}</strong>
            <span className="muted small">
              {selHidden
                ? t('rf.hiddenState')
                : selKey
                  ? selKey.interpolated
                    ? t('rf.interpolated')
                    : t('rf.keyframe')
                  : t('rf.tracked')}
            </span>
          </div>
          <div className="rf-row">
            <button
              type="button"
              className="btn"
              data-testid="rf-hide"
              onClick={() => toggleHidden(selected)}
            >
              <Icon name="eye" /> {selHidden ? lbl('rf.show') : lbl('rf.hide')}
            </button>
            <button
              type="button"
              className="btn"
              data-testid="rf-delete-key"
              disabled={!draft.keys[frame]?.[selected]}
              onClick={removeKey}
            >
              <Icon name="trash" /> {lbl('rf.deleteKey')}
            </button>
          </div>
        </>
      )}
    </section>
  );

  const swapPanel = (
    <section className="rf-section">
      <h3>{t('rf.swap')}</h3>
      <div className="rf-seg">
        {(['legs', 'arms', 'all'] as const).map((p) => (
          <button
            key={p}
            type="button"
            aria-pressed={part === p}
            className={`rf-seg-btn${part === p ? ' on' : ''}`}
            data-testid={`rf-part-${p}`}
            onClick={() => setPart(p)}
          >
            {t(`rf.part.${p}`)}
          </button>
        ))}
      </div>
      <div className="rf-row">
        <button
          type="button"
          className="btn"
          data-testid="rf-swap-frame"
          onClick={() => swapOn(frame, frame)}
        >
          {lbl('rf.swapFrame')}
        </button>
        <button
          type="button"
          className="btn"
          data-testid="rf-swap-range"
          disabled={!range}
          onClick={() => range && swapOn(range.from, range.to)}
        >
          {t('rf.swapRange')}
        </button>
      </div>
      {swapRun && (
        <button
          type="button"
          className="btn rf-wide"
          data-testid="rf-swap-run"
          data-from={swapRun.from}
          data-to={swapRun.to}
          title={t('rf.swapRunHint', { a: swapRun.from, b: swapRun.to })}
          onClick={swapWholeRun}
        >
          {t('rf.swapRun', { a: swapRun.from, b: swapRun.to })}
        </button>
      )}
      <h3>{t('rf.range')}</h3>
      <div className="rf-row">
        <button
          type="button"
          className="btn"
          data-testid="rf-range-start"
          onClick={() => setRangeEnd('from')}
        >
          {lbl('rf.rangeStart')}
        </button>
        <button type="button" className="btn" data-testid="rf-range-end" onClick={() => setRangeEnd('to')}>
          {lbl('rf.rangeEnd')}
        </button>
      </div>
      <div className="rf-row small">
        <span className="muted" data-testid="rf-range-label">
          {range ? t('rf.rangeOf', { a: range.from, b: range.to }) : t('rf.rangeNone')}
        </span>
        {range && (
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setRange(null)}>
            {t('rf.rangeClear')}
          </button>
        )}
      </div>
    </section>
  );

  const actionPanel = (
    <section className="rf-section">
      <div className="rf-row">
        <button
          type="button"
          className="btn"
          data-testid="rf-undo"
          disabled={hist.past.length === 0}
          onClick={undo}
        >
          <Icon name="redo" className="flip" /> {lbl('rf.undo')}
        </button>
        <button
          type="button"
          className="btn"
          data-testid="rf-redo"
          disabled={hist.future.length === 0}
          onClick={redo}
        >
          <Icon name="redo" /> {lbl('rf.redo')}
        </button>
      </div>
      <button
        type="button"
        className="btn rf-wide"
        data-testid="rf-retrack"
        title={t('rf.retrackHint')}
        disabled={!!retracking || !cur?.image}
        onClick={() => void runRetrack()}
      >
        <Icon name="film" /> {t('rf.retrack')}
      </button>
      {retracking && (
        <div
          className="rf-progress"
          data-testid="rf-retrack-progress"
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={retrack.progress}
        >
          <div className="rf-bar" style={{ width: `${retrack.progress}%` }} />
          <span>{t('rf.retracking', { p: retrack.progress })}</span>
        </div>
      )}
      <button
        type="button"
        className="btn btn-primary rf-wide"
        data-testid="rf-save"
        disabled={solve.state === 'running'}
        onClick={() => void save()}
      >
        <Icon name="check" /> {t('rf.save')}
      </button>
      {solve.state === 'running' && (
        <div
          className="rf-progress"
          data-testid="rf-solve-progress"
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={solve.progress}
        >
          <div className="rf-bar" style={{ width: `${solve.progress}%` }} />
          <span>{t('rf.saving', { p: solve.progress })}</span>
        </div>
      )}
      {solve.state === 'failed' && (
        <p className="rf-error small" role="alert">
          {t('rf.saveFailed', { e: solve.error ?? '' })}
        </p>
      )}
      <p className="muted small" data-testid="rf-edits" data-retracked={retracked}>
        {keyCount === 1 ? t('rf.editsKeysOne') : t('rf.editsKeys', { k: keyCount })}
        {draft.swaps.length === 1 ? t('rf.editsSwapsOne') : t('rf.editsSwaps', { s: draft.swaps.length })}
        {retracked === 1
          ? t('rf.editsRetrackedOne')
          : retracked > 1 && t('rf.editsRetracked', { r: retracked })}
      </p>
      {draftNote && (
        <p className="muted small" data-testid="rf-draft-note">
          {draftNote.kind === 'restored'
            ? t('rf.draftRestored', { t: clock(draftNote.at) })
            : draftNote.kind === 'saved'
              ? t('rf.draftSaved', { t: clock(draftNote.at) })
              : draftNote.kind === 'elsewhere'
                ? t('rf.draftElsewhere')
                : draftNote.kind === 'notSaved'
                  ? t('rf.draftNotSaved')
                  : t('rf.draftTooBig')}
          {draftNote.kind === 'restored' && (
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              data-testid="rf-draft-discard"
              onClick={discardDraft}
            >
              {t('rf.draftDiscard')}
            </button>
          )}
        </p>
      )}
    </section>
  );

  const problemList = (
    <section className="rf-section rf-problems">
      <h3>{problems.length > 0 ? t('rf.problems', { n: problems.length }) : t('rf.noProblems')}</h3>
      <ul data-testid="rf-problem-list">
        {problems.map((p) => (
          <li key={`${p.kind}-${p.from}-${p.to}`}>
            <button
              type="button"
              className={`rf-problem${p.from <= frame && frame <= p.to ? ' on' : ''}`}
              onClick={() => {
                seekFrame(p.from);
                if (p.points.length > 0) setSelected(p.points[0]);
              }}
            >
              <span className={`rf-dot kind-${p.kind}`} />
              <span>
                <strong>{t(`rf.kind.${p.kind}`)}</strong> · {framesOf(p)}
                {p.points.length > 0 && (
                  <span className="muted small">
                    {' '}
                    · {p.points.slice(0, 3).map(pointName).join(', ')}
                    {p.points.length > 3 ? '…' : ''}
                  </span>
                )}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );

  // Zoom around the selected point (else the hip centre) of the frame shown, in stage pixels; fixed while the
  // frame stays (selecting or dragging a point does not move the picture under the finger).
  const zoomOrigin = zoomFor ? `${zoomFor.x.toFixed(1)}px ${zoomFor.y.toFixed(1)}px` : 'center';

  const stageEl = (
    <div className="rf-pane rf-pane-video" ref={pane}>
      <div className="pane-label">{t('rf.source')}</div>
      {phase === 'loading' && <div className="pane-overlay">{t('rf.loading')}</div>}
      <div
        className="rf-stage"
        data-testid="rf-stage"
        style={{
          width: stage.w,
          height: stage.h,
          transform: zoom > 1 ? `scale(${zoom})` : undefined,
          transformOrigin: zoomOrigin,
        }}
      >
        {videoUrl && (
          <video
            ref={videoEl}
            src={videoUrl}
            playsInline
            muted
            preload="auto"
            crossOrigin="anonymous"
            data-testid="rf-video"
            onPlay={() => setPlaying(true)}
            onPause={() => {
              setPlaying(false);
              if (edited && videoEl.current) setFrame(frameAt(edited, videoEl.current.currentTime));
            }}
            onEnded={() => setPlaying(false)}
            onError={() => setPhase('error')}
          />
        )}
        <canvas
          ref={canvas}
          className="rf-overlay"
          data-testid="rf-overlay"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onContextMenu={(e) => e.preventDefault()}
        />
      </div>
    </div>
  );
  const solvedEl = (
    <div className={`rf-pane rf-pane-3d${mobile && view !== '3d' ? ' rf-offscreen' : ''}`}>
      <div className="pane-label">{t('rf.solved')}</div>
      <div className="viewer" ref={holder3d} data-testid="rf-viewer" data-ready={clipReady ? '1' : '0'} />
    </div>
  );

  const head = (
    <header className="rf-head">
      <button type="button" className="btn btn-ghost" data-testid="rf-back" onClick={onBack}>
        <Icon name="back" /> {t('common.back')}
      </button>
      <h1>{t('title.refresher')}</h1>
      <span className="muted small" data-testid="rf-repairs" data-count={repairs}>
        {t('rf.repairs', { n: repairs })}
      </span>
      <LangSwitch />
    </header>
  );

  if (mobile) {
    return (
      <div className="rf rf-m" data-testid="rf-editor" data-phase={phase}>
        {head}
        <div className="rf-m-view">
          <Tabs
            keys={['2d', '3d'] as const}
            current={view}
            label={(k) => t(k === '2d' ? 'rf.view2d' : 'rf.view3d')}
            pick={setView}
            className="rf-seg rf-m-toggle"
            itemClass="rf-seg-btn"
          />
          <div className={view === '2d' ? '' : 'rf-offscreen'}>{stageEl}</div>
          {solvedEl}
        </div>
        <div className="rf-m-tools">
          {pointPanel}
          {actionPanel}
          {swapPanel}
          {problemList}
        </div>
        <div className="rf-m-bottom">{timeline}</div>
      </div>
    );
  }
  return (
    <div className="rf" data-testid="rf-editor" data-phase={phase}>
      <aside className="rf-side" style={{ width: sidebar }} data-testid="rf-sidebar">
        {pointPanel}
        {swapPanel}
        {actionPanel}
        {problemList}
      </aside>
      <main className="rf-main">
        {head}
        <div className="rf-panes">
          {stageEl}
          {solvedEl}
        </div>
        {timeline}
        <p className="muted small rf-keys">
          <strong>{t('rf.shortcuts')}:</strong> {t('rf.shortcutList')}
        </p>
      </main>
    </div>
  );
}

export type { Problem };
