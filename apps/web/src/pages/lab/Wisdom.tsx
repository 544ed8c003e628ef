/**
 * Lab page `wisdom` (issue 22; a menu path of the spec): a filming check before uploading. The user picks a video;
 * the browser (nothing is uploaded) reads its format, size and length against the plan's limits and samples frame
 * pairs 0.2 s apart on a canvas: resolution, mean brightness, sharpness (variance of the Laplacian of the luma) and
 * camera steadiness (mean change of the picture's outer band between the two frames of a pair, where a still camera
 * shows only the person). Each check says good / could be better / will not work, with what to do.
 */
import { useState } from 'react';
import { tlab } from '../../i18n/lab.ts';
import { PLAN_LIMITS } from '../../lib/plans.ts';
import { useSession } from '../../lib/session.tsx';
import { isMp4 } from '../../lib/uploadValidation.ts';
import '../../styles/lab.css';
import { FilePick, LabHead } from './LabParts.tsx';

type Level = 'ok' | 'warn' | 'bad';
interface Check {
  id: string;
  title: string;
  level: Level;
  text: string;
}

/** Figures of a video's frames (exported for tests). */
export interface FrameFigures {
  width: number;
  height: number;
  duration: number;
  /** Mean luma, 0..100. */
  brightness: number;
  /** Variance of the Laplacian of the luma at 320 px width. */
  sharpness: number;
  /** Mean absolute change of the outer band between frames 0.2 s apart, 0..100. */
  edgeMotion: number;
}

const W = 320;

function luma(ctx: CanvasRenderingContext2D, w: number, h: number): Float32Array {
  const d = ctx.getImageData(0, 0, w, h).data;
  const out = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) out[i] = 0.299 * d[i * 4]! + 0.587 * d[i * 4 + 1]! + 0.114 * d[i * 4 + 2]!;
  return out;
}

function seek(v: HTMLVideoElement, t: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      v.removeEventListener('seeked', done);
      resolve();
    };
    v.addEventListener('seeked', done);
    v.addEventListener('error', () => reject(new Error('the video cannot be read')), { once: true });
    v.currentTime = t;
  });
}

export async function measureVideo(file: Blob): Promise<FrameFigures> {
  const url = URL.createObjectURL(file);
  const v = document.createElement('video');
  v.muted = true;
  v.preload = 'auto';
  v.src = url;
  try {
    await new Promise<void>((resolve, reject) => {
      v.onloadeddata = () => resolve();
      v.onerror = () => reject(new Error('the video cannot be read'));
    });
    const h = Math.max(1, Math.round((W * v.videoHeight) / Math.max(1, v.videoWidth)));
    const canvas = document.createElement('canvas');
    canvas.width = W;
    canvas.height = h;
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
    const pairs = 6;
    let bright = 0;
    let sharp = 0;
    let edge = 0;
    const band = Math.round(Math.min(W, h) * 0.12);
    for (let k = 0; k < pairs; k++) {
      const t = ((k + 0.5) / pairs) * Math.max(0, v.duration - 0.25);
      await seek(v, t);
      ctx.drawImage(v, 0, 0, W, h);
      const a = luma(ctx, W, h);
      await seek(v, t + 0.2);
      ctx.drawImage(v, 0, 0, W, h);
      const b = luma(ctx, W, h);
      let sum = 0;
      for (const x of a) sum += x;
      bright += sum / a.length / 2.55;
      let m = 0;
      let m2 = 0;
      let n = 0;
      for (let y = 1; y < h - 1; y++)
        for (let x = 1; x < W - 1; x++) {
          const i = y * W + x;
          const lap = a[i - 1]! + a[i + 1]! + a[i - W]! + a[i + W]! - 4 * a[i]!;
          m += lap;
          m2 += lap * lap;
          n++;
        }
      sharp += m2 / n - (m / n) ** 2;
      let diff = 0;
      let cnt = 0;
      for (let y = 0; y < h; y++)
        for (let x = 0; x < W; x++) {
          if (x >= band && x < W - band && y >= band && y < h - band) continue;
          diff += Math.abs(a[y * W + x]! - b[y * W + x]!);
          cnt++;
        }
      edge += diff / cnt / 2.55;
    }
    return {
      width: v.videoWidth,
      height: v.videoHeight,
      duration: v.duration,
      brightness: bright / pairs,
      sharpness: sharp / pairs,
      edgeMotion: edge / pairs,
    };
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** The checks a person reads, from the file and its figures against the plan's limits. */
export function checksOf(
  file: { name: string; type: string; size: number },
  f: FrameFigures | null,
  limits: { fileSizeMb: number; durationSec: number },
): Check[] {
  const out: Check[] = [];
  const mp4 = isMp4(file);
  out.push({
    id: 'format',
    title: tlab('wis.format'),
    level: mp4 ? 'ok' : 'bad',
    text: tlab(mp4 ? 'wis.format.ok' : 'wis.format.bad'),
  });
  const mb = file.size / 1024 / 1024;
  const sizeOk = mb <= limits.fileSizeMb;
  out.push({
    id: 'size',
    title: tlab('wis.size'),
    level: sizeOk ? 'ok' : 'bad',
    text: tlab(sizeOk ? 'wis.size.ok' : 'wis.size.bad', {
      mb: mb < 0.1 ? '< 0.1' : mb.toFixed(1),
      max: limits.fileSizeMb,
    }),
  });
  if (!f) return out;
  const durOk = f.duration <= limits.durationSec;
  out.push({
    id: 'duration',
    title: tlab('wis.duration'),
    level: durOk ? 'ok' : 'bad',
    text: tlab(durOk ? 'wis.duration.ok' : 'wis.duration.bad', {
      sec: f.duration.toFixed(1),
      max: limits.durationSec,
    }),
  });
  const resOk = Math.min(f.width, f.height) >= 720;
  out.push({
    id: 'resolution',
    title: tlab('wis.resolution'),
    level: resOk ? 'ok' : 'warn',
    text: tlab(resOk ? 'wis.resolution.ok' : 'wis.resolution.warn', { w: f.width, h: f.height }),
  });
  const lightOk = f.brightness >= 25 && f.brightness <= 85;
  out.push({
    id: 'brightness',
    title: tlab('wis.brightness'),
    level: lightOk ? 'ok' : 'warn',
    text: tlab(lightOk ? 'wis.brightness.ok' : 'wis.brightness.warn', { v: Math.round(f.brightness) }),
  });
  const sharpOk = f.sharpness >= 40;
  out.push({
    id: 'sharpness',
    title: tlab('wis.sharpness'),
    level: sharpOk ? 'ok' : 'warn',
    text: tlab(sharpOk ? 'wis.sharpness.ok' : 'wis.sharpness.warn', { v: Math.round(f.sharpness) }),
  });
  const steady = f.edgeMotion <= 4;
  out.push({
    id: 'steady',
    title: tlab('wis.steady'),
    level: steady ? 'ok' : 'warn',
    text: tlab(steady ? 'wis.steady.ok' : 'wis.steady.warn', { v: f.edgeMotion.toFixed(1) }),
  });
  return out;
}

export function WisdomPage() {
  const { user } = useSession();
  const limits = PLAN_LIMITS[user?.plan ?? 'free'];
  const [checks, setChecks] = useState<Check[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [name, setName] = useState('');

  const check = async (file: File | undefined) => {
    if (!file) return;
    setName(file.name);
    setBusy(true);
    setChecks(null);
    let figures: FrameFigures | null = null;
    try {
      figures = await measureVideo(file);
    } catch {
      figures = null;
    }
    // The size the upload page checks before sending (spec §9: 50M for free uploads).
    setChecks(checksOf(file, figures, { fileSizeMb: limits.uploadCheckMb, durationSec: limits.durationSec }));
    setBusy(false);
  };

  const good = checks?.filter((c) => c.level === 'ok').length ?? 0;
  return (
    <div className="lab-page wis-page">
      <LabHead title={tlab('lab.wisdom')} lead={tlab('wis.lead')} />
      <FilePick
        className="btn btn-primary wis-pick"
        accept="video/*"
        testId="wis-file"
        onFiles={(files) => void check(files?.[0])}
      >
        {tlab('wis.pick')}
      </FilePick>
      {busy && <p className="lab-hint">{tlab('wis.checking')}</p>}
      {checks && (
        <section className="wis-result" data-testid="wis-result">
          <h3>
            {name} — {tlab('wis.summary', { ok: good, n: checks.length })}
          </h3>
          <ul className="wis-checks list-stack">
            {checks.map((c) => (
              <li key={c.id} className={`wis-check wis-${c.level}`} data-check={c.id} data-level={c.level}>
                <span className="wis-badge">{tlab(`wis.${c.level}`)}</span>
                <strong>{c.title}</strong>
                <span>{c.text}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <p className="lab-hint wis-tips">{tlab('wis.tips')}</p>
    </div>
  );
}
