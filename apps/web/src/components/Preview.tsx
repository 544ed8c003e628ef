/**
 * Preview: the source video beside the 3D character playing the captured clip, synchronised (the video is
 * the clock when it exists), with play/pause, scrub, speed, orbit camera, skeleton toggle and character choice.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { tj } from '../i18n/judge.ts';
import { motionClip, previewModel, videoWarnings, videoZips } from '../lib/endpoints.ts';
import { ApiError } from '../lib/envelope.ts';
import { t } from '../lib/i18n.ts';
import { toast } from '../lib/messages.ts';
import { formOf } from '../lib/solveOptions.ts';
import type { Video } from '../lib/types.ts';
import { localiseWarning } from '../lib/warnings.ts';
import { parseClip, type ViewerClip } from '../three/clip.ts';
import { loadModelFromZip } from '../three/model.ts';
import { CHARACTER_KINDS, type CharacterKind, type MotionViewer, openViewer } from '../three/Viewer.ts';
import { Icon } from './Icon.tsx';
import { ConfidenceStrip, JudgementNotice } from './Judgement.tsx';
import { Modal } from './Modal.tsx';
import { solveOptionsSummary } from './SolveOptions.tsx';

export const SPEEDS = [0.25, 0.5, 1, 1.5, 2] as const;

export function formatTime(s: number): string {
  const v = Math.max(0, s);
  const m = Math.floor(v / 60);
  const sec = v - m * 60;
  return `${m}:${sec.toFixed(1).padStart(4, '0')}`;
}

export function PreviewPlayer({
  video,
  onDownload,
  onRemake,
}: {
  video: Video;
  onDownload?: () => void;
  /** Opens the remake dialog (the judgement's warning offers it). */
  onRemake?: () => void;
}) {
  const holder = useRef<HTMLDivElement>(null);
  const videoEl = useRef<HTMLVideoElement>(null);
  const viewer = useRef<MotionViewer | null>(null);
  const clipRef = useRef<ViewerClip | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [speed, setSpeed] = useState(1);
  const [skeleton, setSkeleton] = useState(false);
  const [kind, setKind] = useState<CharacterKind>('model');
  const [modelName, setModelName] = useState('');
  const [rigs, setRigs] = useState<string[]>([]);
  const [rigBusy, setRigBusy] = useState(false);
  const clock = useRef({ playing: false, time: 0, last: 0, speed: 1 });
  const durationRef = useRef(0);
  durationRef.current = duration;

  useEffect(() => {
    const v = openViewer(holder.current, 'model', () => setState('error'));
    if (!v) return;
    viewer.current = v;
    let live = true;
    // Two sources, whichever arrives: the solved clip (procedural figures) and our character's FBX.
    const clipP = motionClip(video.id).then((doc) => {
      if (!live) return false;
      const clip = parseClip(doc);
      clipRef.current = clip;
      v?.setClip(clip);
      setDuration((d) => d || clip.duration);
      return true;
    });
    const modelP = previewModel(video.id).then(async ({ url, boneType }) => {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const model = loadModelFromZip(new Uint8Array(await res.arrayBuffer()));
      if (!live) {
        model.dispose();
        return false;
      }
      v?.setModel(model);
      setModelName(boneType);
      setDuration((d) => d || model.clip?.duration || 0);
      return true;
    });
    void Promise.allSettled([clipP, modelP]).then(([c, m]) => {
      if (!live) return;
      const hasModel = m.status === 'fulfilled' && m.value;
      const hasClip = c.status === 'fulfilled' && c.value;
      if (!hasModel && hasClip) setKind('boy');
      setState(hasModel || hasClip ? 'ready' : 'error');
    });
    return () => {
      live = false;
      v?.dispose();
      viewer.current = null;
    };
  }, [video.id]);

  useEffect(() => viewer.current?.setCharacter(kind), [kind]);

  // The capture's own warnings about this result (own videos; issue 15.3).
  const [warnings, setWarnings] = useState<string[]>([]);
  useEffect(() => {
    if (!video.isOwner) return;
    let live = true;
    videoWarnings(video.id)
      .then((w) => live && setWarnings(w))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [video.id, video.isOwner]);

  // Rig choice (own videos): every FBX bone type the capture offers, loaded on demand.
  useEffect(() => {
    if (!video.isOwner) return;
    let live = true;
    videoZips(video.id)
      .then((z) => live && setRigs(z.filter((b) => b.free && b.format === 'FBX').map((b) => b.name)))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [video.id, video.isOwner]);

  const chooseRig = async (boneType: string) => {
    if (boneType === modelName || rigBusy) return;
    setRigBusy(true);
    try {
      // A preview, not a download: nothing is recorded or charged.
      const d = await previewModel(video.id, boneType);
      const res = await fetch(d.url);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const model = loadModelFromZip(new Uint8Array(await res.arrayBuffer()));
      viewer.current?.setModel(model);
      setModelName(boneType);
      setKind('model');
    } catch (e) {
      toast.error(e instanceof ApiError ? e.message : t('preview.rigError'));
    } finally {
      setRigBusy(false);
    }
  };
  useEffect(() => viewer.current?.setSkeletonVisible(skeleton), [skeleton]);
  useEffect(() => {
    clock.current.speed = speed;
    if (videoEl.current) videoEl.current.playbackRate = speed;
  }, [speed]);

  // One clock: the source video when it plays, our own otherwise. The viewer reads it once per drawn frame;
  // this loop only advances our clock and updates the time label.
  const now = useCallback((): number => {
    const ve = videoEl.current;
    if (ve && video.videoUrl && ve.readyState >= 1) return ve.currentTime;
    return clock.current.time;
  }, [video.videoUrl]);
  useEffect(() => {
    viewer.current?.setTimeSource(now);
    let raf = 0;
    const tick = (ms: number) => {
      raf = requestAnimationFrame(tick);
      const c = clock.current;
      const ve = videoEl.current;
      if (!(ve && video.videoUrl && ve.readyState >= 1)) {
        const length = clipRef.current?.duration || durationRef.current;
        if (c.playing && length > 0) {
          c.time += ((ms - (c.last || ms)) / 1000) * c.speed;
          if (c.time > length) c.time = 0;
        }
      }
      c.last = ms;
      const tm = now();
      setTime((old) => (Math.abs(old - tm) > 0.03 ? tm : old));
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, [video.videoUrl, now]);

  const play = useCallback(
    (on: boolean) => {
      clock.current.playing = on;
      setPlaying(on);
      const ve = videoEl.current;
      if (ve && video.videoUrl) {
        if (on) void ve.play().catch(() => setPlaying(false));
        else ve.pause();
      }
    },
    [video.videoUrl],
  );

  const seek = (s: number) => {
    clock.current.time = s;
    if (videoEl.current && video.videoUrl) videoEl.current.currentTime = s;
    setTime(s);
  };

  return (
    <div className="preview">
      <div className="preview-panes">
        <div className="pane pane-video">
          <div className="pane-label">{t('preview.source')}</div>
          {video.videoUrl ? (
            <video
              ref={videoEl}
              src={video.videoUrl}
              playsInline
              muted
              loop
              preload="auto"
              crossOrigin="anonymous"
              data-testid="source-video"
              onLoadedMetadata={(e) =>
                setDuration(e.currentTarget.duration || clipRef.current?.duration || 0)
              }
              onPause={() => setPlaying(false)}
              onPlay={() => setPlaying(true)}
            />
          ) : (
            <div className="pane-empty">{t('preview.noVideo')}</div>
          )}
        </div>
        <div className="pane pane-3d">
          <div className="pane-label">{t('preview.motion')}</div>
          <div className="viewer" ref={holder} data-testid="viewer" data-state={state} />
          {state === 'loading' && <div className="pane-overlay">{t('preview.loading')}</div>}
          {state === 'error' && <div className="pane-overlay">{t('preview.error')}</div>}
          <div className="viewer-hint">
            {t(
              typeof window !== 'undefined' && window.matchMedia?.('(pointer: coarse)').matches
                ? 'preview.orbitHintTouch'
                : 'preview.orbitHint',
            )}
          </div>
        </div>
      </div>
      <div className="player-controls">
        <button
          type="button"
          className="btn btn-icon"
          data-testid="play"
          aria-label={playing ? t('preview.pause') : t('preview.play')}
          onClick={() => play(!playing)}
          disabled={state !== 'ready'}
        >
          <Icon name={playing ? 'pause' : 'play'} />
        </button>
        <span className="time">{formatTime(time)}</span>
        <div className="scrub-wrap">
          <input
            type="range"
            className="scrub"
            aria-label={t('preview.scrub')}
            min={0}
            max={duration || 0}
            step={0.01}
            value={Math.min(time, duration || 0)}
            onChange={(e) => seek(Number(e.target.value))}
            disabled={state !== 'ready'}
          />
          {video.judgement && (
            <ConfidenceStrip judgement={video.judgement} duration={duration} onSeek={seek} />
          )}
        </div>
        <span className="time">{formatTime(duration)}</span>
        <label className="select-inline">
          {t('preview.speed')}
          <select value={speed} onChange={(e) => setSpeed(Number(e.target.value))}>
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
        <label className="select-inline">
          {t('preview.character')}
          <select value={kind} onChange={(e) => setKind(e.target.value as CharacterKind)}>
            {CHARACTER_KINDS.filter((k) => (k === 'model' ? !!modelName : !!clipRef.current)).map((k) => (
              <option key={k} value={k}>
                {k === 'model' ? t('preview.char.model') : t(`preview.char.${k}`)}
              </option>
            ))}
          </select>
        </label>
        {kind === 'model' && modelName && rigs.length > 1 && (
          <label className="select-inline">
            {t('preview.rig')}
            <select
              value={modelName}
              disabled={rigBusy}
              data-testid="rig-select"
              onChange={(e) => void chooseRig(e.target.value)}
            >
              {(rigs.includes(modelName) ? rigs : [modelName, ...rigs]).map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="checkbox">
          <input type="checkbox" checked={skeleton} onChange={(e) => setSkeleton(e.target.checked)} />
          {t('preview.skeleton')}
        </label>
        {onDownload && (
          <button type="button" className="btn btn-primary" onClick={onDownload}>
            <Icon name="download" /> {t('download.button')}
          </button>
        )}
      </div>
      <JudgementNotice video={video} onSeek={seek} onRemake={onRemake} />
      {warnings.length > 0 && (
        <div className="preview-warnings preview-notes" role="status" data-testid="preview-warnings">
          <strong>{tj('judge.notesTitle')}</strong>
          <ul>
            {warnings.map((w) => (
              <li key={w}>{localiseWarning(w)}</li>
            ))}
          </ul>
        </div>
      )}
      {video.solveOptions && (
        <div className="preview-solved muted small" data-testid="preview-solve-options">
          {t('solve.solvedWith', { s: solveOptionsSummary(formOf(video.solveOptions)) })}
        </div>
      )}
    </div>
  );
}

export function PreviewDialog({
  video,
  onClose,
  onDownload,
  onRemake,
}: {
  video: Video | null;
  onClose: () => void;
  onDownload?: (v: Video) => void;
  onRemake?: (v: Video) => void;
}) {
  return (
    <Modal
      open={!!video}
      title={video?.name}
      onClose={onClose}
      width="min(1400px, 94vw)"
      className="modal-preview"
    >
      {video && (
        <PreviewPlayer
          video={video}
          onDownload={onDownload ? () => onDownload(video) : undefined}
          onRemake={onRemake ? () => onRemake(video) : undefined}
        />
      )}
    </Modal>
  );
}
