/**
 * Lab page `experiment` (issue 22; also the phones' third menu entry): two of my motions side by side on the same
 * character and one clock — a capture and its remake with other solve options, two dances of one song, a capture
 * against a library take. Play/pause and a shared time slider; each side shows its length, frame rate and how far
 * the hips travel. Everything runs on the clips (mocap-motion JSON) the previews already use: nothing is charged.
 */
import { useEffect, useRef, useState } from 'react';
import { tlab } from '../../i18n/lab.ts';
import { t } from '../../lib/i18n.ts';
import { toast } from '../../lib/messages.ts';
import { parseClip, type ViewerClip } from '../../three/clip.ts';
import { CHARACTER_KINDS, type CharacterKind, MotionViewer } from '../../three/Viewer.ts';
import { LabHead } from './LabParts.tsx';
import { clipUrlOf, type LabMotion, labMotions, motionKey } from './sources.ts';
import '../../styles/lab.css';
import { useViewerIn } from '../../three/useViewer.ts';

/** Seconds, frames per second and metres the hips travel on the floor. */
export function clipStats(c: ViewerClip): { sec: number; fps: number; travel: number } {
  let travel = 0;
  for (let f = 1; f < c.frameCount; f++) {
    const dx = c.rootPositions[f * 3]! - c.rootPositions[(f - 1) * 3]!;
    const dz = c.rootPositions[f * 3 + 2]! - c.rootPositions[(f - 1) * 3 + 2]!;
    travel += Math.hypot(dx, dz);
  }
  return { sec: c.frameCount / c.fps, fps: c.fps, travel };
}

function Side({
  label,
  motions,
  pick,
  onPick,
  character,
  clock,
  onClip,
  testId,
}: {
  label: string;
  motions: LabMotion[];
  pick: string;
  onPick: (k: string) => void;
  character: CharacterKind;
  clock: () => number;
  onClip: (c: ViewerClip | null) => void;
  testId: string;
}) {
  const holder = useRef<HTMLDivElement>(null);
  const viewer = useRef<MotionViewer | null>(null);
  const [stats, setStats] = useState<ReturnType<typeof clipStats> | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  useViewerIn(
    holder,
    viewer,
    (el) => {
      const v = new MotionViewer(el);
      v.setTimeSource(clock);
      return v;
    },
    () => setState('error'),
    clock,
  );
  useEffect(() => {
    viewer.current?.setCharacter(character);
  }, [character]);
  useEffect(() => {
    const m = motions.find((x) => motionKey(x) === pick);
    if (!m) return;
    let live = true;
    setState('loading');
    clipUrlOf(m)
      .then(async (url) => {
        const res = await fetch(url);
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const clip = parseClip(await res.json());
        if (!live) return;
        viewer.current?.setClip(clip);
        setStats(clipStats(clip));
        onClip(clip);
        setState('ready');
      })
      .catch((e: Error) => {
        if (!live) return;
        setState('error');
        toast.error(e.message);
      });
    return () => {
      live = false;
    };
  }, [pick, motions, onClip]);
  return (
    <div className="exp-side">
      <div className="lab-row">
        <strong>{label}</strong>
        <select
          className="lab-select"
          aria-label={label}
          data-testid={`${testId}-pick`}
          value={pick}
          onChange={(e) => onPick(e.target.value)}
        >
          {motions.map((m) => (
            <option key={motionKey(m)} value={motionKey(m)}>
              {`${m.name} · ${tlab(`mmd.kind.${m.kind}`)}`}
            </option>
          ))}
        </select>
      </div>
      <div className="lab-stage exp-stage" ref={holder} data-testid={testId} data-state={state} />
      {stats && (
        <p className="lab-info" data-testid={`${testId}-stats`}>
          {tlab('exp.stats', {
            sec: stats.sec.toFixed(1),
            fps: Math.round(stats.fps),
            m: stats.travel.toFixed(2),
          })}
        </p>
      )}
    </div>
  );
}

export function ExperimentPage() {
  const [motions, setMotions] = useState<LabMotion[] | null>(null);
  const [left, setLeft] = useState('');
  const [right, setRight] = useState('');
  const [character, setCharacter] = useState<CharacterKind>('girl');
  const [playing, setPlaying] = useState(true);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  // One clock for both sides: seconds, advanced while playing, looped over the longer clip.
  const clockRef = useRef({ t: 0, last: performance.now(), playing: true, duration: 0 });
  const [clock] = useState(() => () => {
    const c = clockRef.current;
    const now = performance.now();
    if (c.playing && c.duration > 0) c.t = (c.t + Math.min(0.1, (now - c.last) / 1000)) % c.duration;
    c.last = now;
    return c.t;
  });
  const durations = useRef<[number, number]>([0, 0]);
  const [onLeft] = useState(() => (c: ViewerClip | null) => {
    durations.current[0] = c ? c.frameCount / c.fps : 0;
    setDuration(Math.max(...durations.current));
  });
  const [onRight] = useState(() => (c: ViewerClip | null) => {
    durations.current[1] = c ? c.frameCount / c.fps : 0;
    setDuration(Math.max(...durations.current));
  });
  useEffect(() => {
    clockRef.current.duration = duration;
  }, [duration]);
  useEffect(() => {
    const id = setInterval(() => setTime(clockRef.current.t), 200);
    return () => clearInterval(id);
  }, []);
  useEffect(() => {
    labMotions()
      .then((list) => {
        setMotions(list);
        if (list[0]) setLeft(motionKey(list[0]));
        if (list[0]) setRight(motionKey(list[1] ?? list[0]));
      })
      .catch(() => setMotions([]));
  }, []);

  return (
    <div className="lab-page exp-page">
      <LabHead title={tlab('lab.experiment')} lead={tlab('exp.lead')} />
      {motions && motions.length === 0 && <p className="lab-note">{tlab('exp.none')}</p>}
      {motions && motions.length > 0 && (
        <>
          <div className="lab-row exp-controls">
            <button
              type="button"
              className="btn btn-primary"
              data-testid="exp-play"
              onClick={() => {
                clockRef.current.playing = !playing;
                clockRef.current.last = performance.now();
                setPlaying(!playing);
              }}
            >
              {playing ? tlab('exp.pause') : tlab('exp.play')}
            </button>
            <input
              type="range"
              className="exp-time"
              aria-label="time"
              data-testid="exp-time"
              min={0}
              max={Math.max(0.1, duration)}
              step={0.01}
              value={Math.min(time, duration)}
              onChange={(e) => {
                clockRef.current.t = Number(e.target.value);
                setTime(clockRef.current.t);
              }}
            />
            <span className="exp-clock" data-testid="exp-clock">
              {tlab('exp.time', { t: time.toFixed(1) })}
            </span>
            <label className="lab-row">
              {tlab('exp.character')}
              <select
                className="lab-select"
                value={character}
                onChange={(e) => setCharacter(e.target.value as CharacterKind)}
              >
                {CHARACTER_KINDS.filter((k) => k !== 'model').map((k) => (
                  <option key={k} value={k}>
                    {t(`preview.char.${k}`)}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <div className="exp-sides">
            {(
              [
                ['left', left, setLeft, onLeft],
                ['right', right, setRight, onRight],
              ] as const
            ).map(([side, pick, onPick, onClip]) => (
              <Side
                key={side}
                label={tlab(`exp.${side}`)}
                {...{ motions, pick, onPick, character, clock, onClip }}
                testId={`exp-${side}`}
              />
            ))}
          </div>
        </>
      )}
    </div>
  );
}
