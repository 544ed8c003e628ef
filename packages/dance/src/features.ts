/**
 * Kinematic features of motion on the body skeleton: world positions, the kinematic envelope and beats
 * (AIST++ definition), foot heights, contacts and airborne frames. Shared by the library preparation,
 * the synthesis clean-up and the metrics.
 */

import { DEFAULT_PROPORTIONS, math, poseToWorld, type Skeleton } from '@mocap/motion';

const { readVec3 } = math;

export const FOOT_SOLE = 0.025;

export interface Kinematics {
  fps: number;
  frameCount: number;
  /** World positions `[frames × joints × 3]`. */
  positions: Float32Array;
  jointCount: number;
  /** Summed joint speed (m/s) per frame, AIST++'s envelope. */
  envelope: Float32Array;
  /** Per foot (0 left, 1 right): height of the ankle above its standing height and of the ball above the floor. */
  ankleLow: [Float32Array, Float32Array];
  toeLow: [Float32Array, Float32Array];
}

export function kinematics(
  skeleton: Skeleton,
  rotations: ArrayLike<number>,
  rootPositions: ArrayLike<number>,
  frameCount: number,
  fps: number,
  joints?: number[],
): Kinematics {
  const n = skeleton.names.length;
  const use = joints ?? Array.from({ length: n }, (_, j) => j);
  const positions = new Float32Array(frameCount * n * 3);
  const pose = { positions: new Float64Array(3 * n), rotations: new Float64Array(4 * n) };
  for (let f = 0; f < frameCount; f++) {
    poseToWorld(skeleton, rotations, f * n * 4, readVec3(rootPositions, f), pose);
    positions.set(pose.positions, f * n * 3);
  }
  const envelope = new Float32Array(frameCount);
  for (let f = 1; f < frameCount; f++) {
    let s = 0;
    for (const j of use) {
      const a = (f * n + j) * 3;
      const b = ((f - 1) * n + j) * 3;
      s += Math.hypot(
        positions[a] - positions[b],
        positions[a + 1] - positions[b + 1],
        positions[a + 2] - positions[b + 2],
      );
    }
    envelope[f] = s * fps;
  }
  if (frameCount > 1) envelope[0] = envelope[1];
  const idx = (name: string) => skeleton.names.indexOf(name);
  const ankles = [idx('leftFoot'), idx('rightFoot')];
  const toes = [idx('leftToes'), idx('rightToes')];
  const ankleLow: [Float32Array, Float32Array] = [new Float32Array(frameCount), new Float32Array(frameCount)];
  const toeLow: [Float32Array, Float32Array] = [new Float32Array(frameCount), new Float32Array(frameCount)];
  const ankleRest = ankleRestHeight(skeleton);
  for (let f = 0; f < frameCount; f++) {
    for (let s = 0; s < 2; s++) {
      ankleLow[s][f] = positions[(f * n + ankles[s]) * 3 + 1] - ankleRest;
      toeLow[s][f] = positions[(f * n + toes[s]) * 3 + 1] - FOOT_SOLE;
    }
  }
  return { fps, frameCount, positions, jointCount: n, envelope, ankleLow, toeLow };
}

/** Height of the ankle joint above the floor in the rest pose. */
export function ankleRestHeight(skeleton: Skeleton): number {
  const toes = skeleton.names.indexOf('leftToes');
  if (toes < 0) return DEFAULT_PROPORTIONS.ankleHeight;
  // Toes offset y is −ankleHeight + sole height (skeleton.ts).
  return -skeleton.offsets[toes * 3 + 1] + FOOT_SOLE;
}

/** Lowest point of a foot per frame. */
export function footLow(k: Kinematics, side: 0 | 1, f: number): number {
  return Math.min(k.ankleLow[side][f], k.toeLow[side][f]);
}

/** Gaussian smoothing (σ in frames). */
export function gaussianSmooth(x: Float32Array, sigma: number): Float32Array {
  if (sigma <= 0) return Float32Array.from(x);
  const r = Math.ceil(3 * sigma);
  const w = Array.from({ length: 2 * r + 1 }, (_, i) => Math.exp(-0.5 * ((i - r) / sigma) ** 2));
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) {
    let s = 0;
    let ws = 0;
    for (let d = -r; d <= r; d++) {
      const k = i + d;
      if (k < 0 || k >= x.length) continue;
      s += w[d + r] * x[k];
      ws += w[d + r];
    }
    out[i] = s / ws;
  }
  return out;
}

/**
 * Kinematic beats as AIST++ computes them: frames where the envelope is strictly below every other frame
 * within ±`order` (AIST++: `scipy.signal.argrelextrema(envelope, np.less, order=10)` at 60 fps, i.e. ±1/6 s).
 */
export function kinematicBeats(envelope: Float32Array, fps: number): number[] {
  const order = Math.max(1, Math.round(fps / 6));
  const out: number[] = [];
  for (let f = 0; f < envelope.length; f++) {
    let ok = true;
    for (let d = 1; d <= order && ok; d++) {
      // argrelextrema clips at the edges ("clip" mode): neighbours beyond the ends are the end values.
      const a = envelope[Math.max(0, f - d)];
      const b = envelope[Math.min(envelope.length - 1, f + d)];
      if (!(envelope[f] < a) || !(envelope[f] < b)) ok = false;
    }
    if (ok) out.push(f);
  }
  return out;
}

/**
 * Flight runs: frames where both feet are more than 5 cm up. A run is a jump when it lasts at most 0.8 s and
 * the hips rise at least 3 cm above their height just before it or leave upward faster than 0.3 m/s;
 * other runs are floating.
 */
export function flightRuns(k: Kinematics): { start: number; end: number; jump: boolean }[] {
  const n = k.jointCount;
  const hy = (f: number) => k.positions[f * n * 3 + 1];
  const up = (g: number) => footLow(k, 0, g) > 0.05 && footLow(k, 1, g) > 0.05;
  return runsWhere(k.frameCount, up).map(([f, g]) => {
    const t0 = Math.max(0, f - 1);
    let rise = 0;
    for (let i = f; i < g; i++) rise = Math.max(rise, hy(i) - hy(t0));
    const v = f + 1 < k.frameCount ? (hy(f + 1) - hy(t0)) * (k.fps / (f + 1 - t0)) : 0;
    return { start: f, end: g, jump: (g - f) / k.fps <= 0.8 && (rise >= 0.03 || v > 0.3) };
  });
}

/** The runs [start, end) of consecutive frames of 0..count-1 where `on` holds, in order. */
export function runsWhere(count: number, on: (f: number) => boolean): [number, number][] {
  const runs: [number, number][] = [];
  for (let f = 0; f < count; f++) {
    if (!on(f)) continue;
    const start = f;
    while (f + 1 < count && on(f + 1)) f++;
    runs.push([start, f + 1]);
  }
  return runs;
}
