/**
 * The capture judging its own result (issue 15.3). From the tracks alone, per frame: tracking lost (a long gap
 * when it lasts LONG_GAP_S or more), a weak pose, a jump of the tracked body (another person taking over, or the
 * tracker swapping), an impossible pose (a limb of the 3D pose far longer or shorter than the same limb in the
 * rest of the clip, for a few frames in a row), and a 3D flip (the world pose's torso upside down while the
 * picture's torso is upright). Gives a confidence per clip and the time ranges that fall below 0.5 with their
 * reasons, and whether the result is unusable (more than UNUSABLE_BAD_SHARE of the time bad, or confidence under
 * UNUSABLE_CONFIDENCE): the server refunds an unusable result and grants free remakes to a flagged one.
 */
import type { Tracks } from '@mocap/vision';

export type JudgeReason = 'lost' | 'gap' | 'weak' | 'jump' | 'pose' | 'flip';

export interface JudgedRange {
  /** Seconds from the start of the video. */
  from: number;
  to: number;
  /** Mean frame confidence inside the range, 0..1. */
  confidence: number;
  reasons: JudgeReason[];
}

export interface Judgement {
  /** Mean frame confidence of the clip, 0..1 (2 decimals). */
  confidence: number;
  ranges: JudgedRange[];
  unusable: boolean;
  /** One sentence per range, for the result's warnings. */
  warnings: string[];
}

/** Bad stretches closer than this are one range. */
const MERGE_GAP_S = 0.5;
/** Tracking lost for this long or longer is a long gap. */
export const LONG_GAP_S = 1;
/** The result is unusable when more than this share of the clip is bad… */
export const UNUSABLE_BAD_SHARE = 0.4;
/** …or the clip's confidence is under this. */
export const UNUSABLE_CONFIDENCE = 0.4;
/**
 * A limb of the 3D pose this many times longer/shorter than its median over the clip is impossible… Measured on
 * the testdata clips with the lite model (share of frames over the ratio, and inside runs of 3+ frames): studio
 * dance 1 %/0 %, taiji 1 %/0 %, outdoor basketball 0 %/0 %, side walk 3 %/2 % (the walker entering and leaving),
 * two-person gym 31 %/8 %. At 1.6 every clip fired; the left/right comparison was as noisy and is not used.
 */
const LIMB_RATIO = 2.5;
/** …in a run of at least this many frames (single-frame spikes are the tracker's noise). */
const POSE_MIN_RUN = 3;
/** Limbs checked for impossible poses: [from, to] landmark pairs, left then right. */
const LIMBS: [number, number][][] = [
  [
    [11, 13],
    [12, 14],
  ], // upper arms
  [
    [13, 15],
    [14, 16],
  ], // forearms
  [
    [23, 25],
    [24, 26],
  ], // thighs
  [
    [25, 27],
    [26, 28],
  ], // shins
];

const NOSE = 0;
const L_SHOULDER = 11;
const R_SHOULDER = 12;
const L_HIP = 23;
const R_HIP = 24;

const REASON_TEXT: Record<JudgeReason, string> = {
  lost: 'nobody tracked',
  gap: 'tracking lost for a long stretch',
  weak: 'the pose is uncertain',
  jump: 'the tracked body jumps (another person or a tracking swap)',
  pose: 'an impossible pose (limbs stretched or shrunk)',
  flip: 'the 3D pose flips upside down',
};

export function judgeTracks(tracks: Pick<Tracks, 'frames' | 'video'>): Judgement {
  const frames = tracks.frames;
  const n = frames.length;
  if (n === 0) return { confidence: 0, ranges: [], unusable: true, warnings: ['no frames were tracked'] };
  const size = Math.max(tracks.video.width, tracks.video.height, 1);
  const conf = new Float64Array(n);
  const why: JudgeReason[][] = Array.from({ length: n }, () => []);
  const limbMedian = LIMBS.flat().map(([a, b]) => {
    const lens: number[] = [];
    for (const f of frames) {
      const w = f.state !== 'lost' ? f.world : undefined;
      if (w && w.length >= 29) lens.push(limbLength(w, a, b));
    }
    lens.sort((x, y) => x - y);
    return lens.length ? lens[lens.length >> 1]! : 0;
  });
  const poseBad = frames.map((f) => {
    const w = f.state !== 'lost' ? f.world : undefined;
    return !!w && w.length >= 29 && impossiblePose(w, limbMedian);
  });
  for (let i = 0; i < n; ) {
    let j = i;
    while (j < n && poseBad[j]) j++;
    if (j - i < POSE_MIN_RUN) for (let k = i; k < j; k++) poseBad[k] = false;
    i = j === i ? i + 1 : j;
  }
  let prevHip: [number, number] | null = null;
  let prevTorso = 0;
  for (let i = 0; i < n; i++) {
    const f = frames[i]!;
    const img = f.image;
    if (f.state === 'lost' || !img || img.length < 25) {
      conf[i] = 0;
      why[i]!.push('lost');
      prevHip = null;
      continue;
    }
    let c = Math.max(0, Math.min(1, f.score));
    if (c < 0.5) why[i]!.push('weak');
    const hip: [number, number] = [
      (img[L_HIP]![0] + img[R_HIP]![0]) / 2,
      (img[L_HIP]![1] + img[R_HIP]![1]) / 2,
    ];
    const sh = [
      (img[L_SHOULDER]![0] + img[R_SHOULDER]![0]) / 2,
      (img[L_SHOULDER]![1] + img[R_SHOULDER]![1]) / 2,
    ];
    const torso = Math.hypot(sh[0]! - hip[0], sh[1]! - hip[1]);
    if (prevHip) {
      const moved = Math.hypot(hip[0] - prevHip[0], hip[1] - prevHip[1]);
      const ratio = prevTorso > 0 && torso > 0 ? Math.max(torso / prevTorso, prevTorso / torso) : 1;
      if (moved > 0.25 * size || ratio > 1.8) {
        why[i]!.push('jump');
        c *= 0.2;
      }
    }
    prevHip = hip;
    prevTorso = torso;
    const w = f.world;
    if (poseBad[i]) {
      why[i]!.push('pose');
      c *= 0.3;
    }
    if (w && w.length >= 25) {
      // Image y grows downwards, world y too (BlazePose): an upright torso has shoulders above hips in both.
      const imgUp = sh[1]! - hip[1];
      const worldUp = (w[L_SHOULDER]![1] + w[R_SHOULDER]![1]) / 2 - (w[L_HIP]![1] + w[R_HIP]![1]) / 2;
      const worldHead = w[NOSE]![1] - (w[L_HIP]![1] + w[R_HIP]![1]) / 2;
      if (imgUp < -0.05 * size && worldUp > 0.1 && worldHead > 0.1) {
        why[i]!.push('flip');
        c *= 0.2;
      }
    }
    conf[i] = c;
  }

  const time = (i: number) => frames[i]!.time;
  // Long gaps: a lost run lasting LONG_GAP_S or more reads 'gap' instead of 'lost'.
  for (let i = 0; i < n; ) {
    if (!why[i]!.includes('lost')) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < n && why[j + 1]!.includes('lost')) j++;
    const next = j + 1 < n ? time(j + 1) : time(j) + (n > 1 ? (time(n - 1) - time(0)) / (n - 1) : 0);
    if (next - time(i) >= LONG_GAP_S - 1e-9) for (let k = i; k <= j; k++) why[k] = ['gap'];
    i = j + 1;
  }
  const step = n > 1 ? (time(n - 1) - time(0)) / (n - 1) : 1 / Math.max(1, tracks.video.fps);
  const ranges: JudgedRange[] = [];
  let start = -1;
  const close = (end: number) => {
    let sum = 0;
    const reasons = new Set<JudgeReason>();
    for (let k = start; k <= end; k++) {
      sum += conf[k]!;
      for (const r of why[k]!) reasons.add(r);
    }
    const last = ranges.at(-1);
    const from = time(start);
    const to = time(end) + step;
    if (last && from - last.to <= MERGE_GAP_S + 1e-9) {
      // Merge with the previous range across a short good gap (a flickering fault reads as one stretch).
      const lenA = last.to - last.from;
      const lenB = to - from;
      last.confidence = (last.confidence * lenA + (sum / (end - start + 1)) * lenB) / (lenA + lenB);
      last.to = to;
      last.reasons = [...new Set([...last.reasons, ...reasons])];
    } else ranges.push({ from, to, confidence: sum / (end - start + 1), reasons: [...reasons] });
  };
  for (let i = 0; i < n; i++) {
    if (conf[i]! < 0.5) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      close(i - 1);
      start = -1;
    }
  }
  if (start >= 0) close(n - 1);

  const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
  for (const r of ranges) {
    r.from = round(r.from);
    r.to = round(r.to);
    r.confidence = round(r.confidence);
  }
  const total = Math.max(step * n, 1e-9);
  const bad = ranges.reduce((s, r) => s + (r.to - r.from), 0);
  const confidence = round(conf.reduce((a, b) => a + b, 0) / n);
  const unusable = bad / total > UNUSABLE_BAD_SHARE || confidence < UNUSABLE_CONFIDENCE;
  const warnings = ranges.map(
    (r) =>
      `${(Math.floor(r.from * 10) / 10).toFixed(1)}–${(Math.ceil(r.to * 10) / 10).toFixed(1)} s: ${r.reasons
        .map((x) => REASON_TEXT[x])
        .join('; ')}`,
  );
  return { confidence, ranges, unusable, warnings };
}

/** A limb much longer/shorter than its median over the clip. */
function impossiblePose(w: readonly (readonly number[])[], median: number[]): boolean {
  return LIMBS.flat().some(([a, b], m) => {
    const x = limbLength(w, a, b);
    const med = median[m]!;
    return med > 1e-3 && (x > med * LIMB_RATIO || x * LIMB_RATIO < med);
  });
}

function limbLength(w: readonly (readonly number[])[], a: number, b: number): number {
  return Math.hypot(w[a]![0]! - w[b]![0]!, w[a]![1]! - w[b]![1]!, (w[a]![2] ?? 0) - (w[b]![2] ?? 0));
}
