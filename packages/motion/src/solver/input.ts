/**
 * Tracks → uniformly sampled landmark arrays in the solver's working space.
 *
 * Working space ("body space"): the camera's axes turned Y-up: x = image right, y = image up, z = towards the
 * camera (a 180° rotation about X of BlazePose's x-right / y-down / z-away world axes). Right-handed, metres.
 * A person facing the camera faces +Z with their left on +X, like the canonical skeleton's rest pose.
 *
 * Frames are resampled to a constant rate (the video's average fps) by their real timestamps, so variable
 * frame rate input becomes a regular clip; landmark weights come from visibility × presence.
 */

import type { Tracks } from '@mocap/contracts';

export const NUM_LANDMARKS = 33;

/** MediaPipe pose landmark indices (same order as `POSE_LANDMARKS` in the tracks format). */
export const LM = {
  nose: 0,
  leftEyeInner: 1,
  leftEye: 2,
  leftEyeOuter: 3,
  rightEyeInner: 4,
  rightEye: 5,
  rightEyeOuter: 6,
  leftEar: 7,
  rightEar: 8,
  mouthLeft: 9,
  mouthRight: 10,
  leftShoulder: 11,
  rightShoulder: 12,
  leftElbow: 13,
  rightElbow: 14,
  leftWrist: 15,
  rightWrist: 16,
  leftPinky: 17,
  rightPinky: 18,
  leftIndex: 19,
  rightIndex: 20,
  leftThumb: 21,
  rightThumb: 22,
  leftHip: 23,
  rightHip: 24,
  leftKnee: 25,
  rightKnee: 26,
  leftAnkle: 27,
  rightAnkle: 28,
  leftHeel: 29,
  rightHeel: 30,
  leftFootIndex: 31,
  rightFootIndex: 32,
} as const;

export const FACE_LANDMARKS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

/** Left/right landmark pairs, left first: eyes 1↔4, 2↔5, 3↔6, ears 7↔8, mouth 9↔10, then 11↔12 … 31↔32. */
export const MIRROR_PAIRS: readonly [number, number][] = [
  [1, 4],
  [2, 5],
  [3, 6],
  [7, 8],
  [9, 10],
  ...Array.from({ length: 11 }, (_, k): [number, number] => [11 + 2 * k, 12 + 2 * k]),
];

/** Left ↔ right landmark permutation (mirrored training samples, symmetric measurements). */
export const MIRROR: number[] = (() => {
  const m = Array.from({ length: 33 }, (_, i) => i);
  for (const [a, b] of MIRROR_PAIRS) {
    m[a] = b;
    m[b] = a;
  }
  return m;
})();

/** Landmark samples on a uniform time grid. */
export interface LandmarkSeries {
  N: number;
  fps: number;
  /** Source timestamp of each output frame, seconds. */
  times: Float64Array;
  /** Body-space world landmarks `[N × 33 × 3]` (metres, origin near the hip midpoint). */
  world: Float64Array;
  /** Image landmarks `[N × 33 × 2]`, pixels. */
  image: Float64Array;
  /** Weights `[N × 33]`, 0..1 (0 = not seen: lost frame, or invisible landmark). */
  weight: Float64Array;
  /** Per frame: 1 if the body was tracked (not lost). */
  tracked: Uint8Array;
  /** Source frame index nearest to each output frame (for hand/face tracks). */
  nearest: Int32Array;
  width: number;
  height: number;
}

/** Landmark weight from visibility and presence: a smooth ramp, 0 below 0.2, 1 above 0.8. */
export function visibilityWeight(visibility: number, presence: number): number {
  const v = Math.min(visibility, presence);
  const t = Math.max(0, Math.min(1, (v - 0.2) / 0.6));
  return t * t * (3 - 2 * t);
}

/** Output frame rate and count for a track set: the video's average rate over the tracked span. */
function timeGrid(tracks: Tracks): { fps: number; times: Float64Array } {
  const frames = tracks.frames;
  const fps = tracks.video.fps > 0 ? tracks.video.fps : 30;
  if (frames.length === 0) return { fps, times: new Float64Array(0) };
  const t0 = frames[0].time;
  const t1 = frames[frames.length - 1].time;
  const N = tracks.video.vfr ? Math.max(1, Math.round((t1 - t0) * fps) + 1) : frames.length;
  const times = new Float64Array(N);
  for (let i = 0; i < N; i++) times[i] = tracks.video.vfr ? t0 + i / fps : frames[i].time;
  return { fps, times };
}

/** Reads the body landmarks of a track set into uniformly sampled arrays (see the file header). */
export function readLandmarks(tracks: Tracks): LandmarkSeries {
  const { fps, times } = timeGrid(tracks);
  const N = times.length;
  const world = new Float64Array(N * NUM_LANDMARKS * 3);
  const image = new Float64Array(N * NUM_LANDMARKS * 2);
  const weight = new Float64Array(N * NUM_LANDMARKS);
  const tracked = new Uint8Array(N);
  const nearest = new Int32Array(N);
  const frames = tracks.frames;
  let k = 0;
  for (let i = 0; i < N; i++) {
    const t = times[i];
    while (k + 1 < frames.length && frames[k + 1].time <= t) k++;
    // Interpolate between frames k and k+1 when both are tracked (VFR); otherwise take the nearest.
    const a = frames[k];
    const b = frames[Math.min(k + 1, frames.length - 1)];
    const span = b.time - a.time;
    const u = span > 1e-9 ? Math.max(0, Math.min(1, (t - a.time) / span)) : 0;
    nearest[i] = u < 0.5 ? k : Math.min(k + 1, frames.length - 1);
    const okA = !!(a.world && a.image);
    const okB = !!(b.world && b.image);
    let A = a;
    let B = b;
    let uu = u;
    if (!(okA && okB)) {
      const near = frames[nearest[i]];
      if (!(near.world && near.image)) continue;
      A = near;
      B = near;
      uu = 0;
    }
    if (!A.world || !A.image || !B.world || !B.image) continue;
    tracked[i] = 1;
    for (let j = 0; j < NUM_LANDMARKS; j++) {
      const wa = A.world[j];
      const wb = B.world[j];
      const ia = A.image[j];
      const ib = B.image[j];
      const o3 = (i * NUM_LANDMARKS + j) * 3;
      // BlazePose world: x right, y down, z away → body space: x right, y up, z towards the camera.
      world[o3] = wa[0] + (wb[0] - wa[0]) * uu;
      world[o3 + 1] = -(wa[1] + (wb[1] - wa[1]) * uu);
      world[o3 + 2] = -(wa[2] + (wb[2] - wa[2]) * uu);
      const o2 = (i * NUM_LANDMARKS + j) * 2;
      image[o2] = ia[0] + (ib[0] - ia[0]) * uu;
      image[o2 + 1] = ia[1] + (ib[1] - ia[1]) * uu;
      // On a source frame's own time only that frame counts; between two frames, the less visible one.
      const va = visibilityWeight(ia[3], ia[4]);
      weight[i * NUM_LANDMARKS + j] = uu === 0 ? va : Math.min(va, visibilityWeight(ib[3], ib[4]));
    }
  }
  return {
    N,
    fps,
    times,
    world,
    image,
    weight,
    tracked,
    nearest,
    width: tracks.video.width,
    height: tracks.video.height,
  };
}

/** Left/right leg landmark pairs (knee, ankle, heel, foot index) that BlazePose sometimes swaps. */
const LEG_PAIRS: [number, number][] = [
  [LM.leftKnee, LM.rightKnee],
  [LM.leftAnkle, LM.rightAnkle],
  [LM.leftHeel, LM.rightHeel],
  [LM.leftFootIndex, LM.rightFootIndex],
];

/** Per-frame cost of a swapped labelling, in mean landmark displacement per torso length (see below). */
export const LEG_SWAP_PRIOR = 0.03;
/**
 * Weight of the world landmarks' leg motion (per torso length of the world pose) beside the image motion in
 * the swap decision. Measured on the 14 rendered clips against 0 (image motion only): PA-MPJPE 96.4 → 96.0 mm,
 * angles 17.31 → 17.23°, jitter 510 → 497 m/s³, sliding 12.99 → 13.06 mm; a frontal walk's legs swapped from
 * one crossing in the picture to the next (frames 44–63 of the repair editor's test clip) are undone whole,
 * where the image alone relabelled 16 frames, 6 of them wrongly.
 */
export const LEG_SWAP_WORLD_WEIGHT = 1;

/** Shoulder midpoint → hip midpoint distance of frame f's landmarks (`dims` 2: image pixels, 3: world). */
function torsoSpan(p: ArrayLike<number>, f: number, dims: 2 | 3): number {
  const o = f * NUM_LANDMARKS * dims;
  let ss = 0;
  for (let c = 0; c < dims; c++) {
    const sh = (p[o + LM.leftShoulder * dims + c] + p[o + LM.rightShoulder * dims + c]) / 2;
    const hip = (p[o + LM.leftHip * dims + c] + p[o + LM.rightHip * dims + c]) / 2;
    ss += (sh - hip) ** 2;
  }
  return Math.sqrt(ss);
}

/**
 * Undoes BlazePose's left/right leg swaps (common in side views, where the near and far leg look alike):
 * over each run of tracked frames, a two-state Viterbi pass chooses per frame "as labelled" or "legs
 * swapped" minimising the image motion of the leg landmarks between consecutive frames (weighted mean
 * distance in torso lengths), plus the world landmarks' leg motion likewise (`LEG_SWAP_WORLD_WEIGHT`: where
 * the legs cross in the picture they are apart in depth), plus `LEG_SWAP_PRIOR` per swapped frame, so a short
 * run of frames whose legs jump to the other side and back is relabelled, while a consistently labelled track
 * is left alone. Swaps
 * image and world landmarks and their weights in place; returns the frames swapped.
 */
export function fixLegSwaps(
  series: LandmarkSeries,
  prior = LEG_SWAP_PRIOR,
  worldSwapWeight = LEG_SWAP_WORLD_WEIGHT,
): number {
  const { N, image, world, weight, tracked } = series;
  const px = (f: number, i: number, swapped: boolean, a: number): number => {
    const j = swapped ? mirrorLeg(i) : i;
    return image[(f * NUM_LANDMARKS + j) * 2 + a];
  };
  // The world landmarks' motion (hip-centred metres), in torso lengths of the world pose: where the legs
  // cross in the picture (a walker facing the camera) they are apart in depth, so this tells the labellings
  // apart at the frames where the image cannot.
  const wp = (f: number, i: number, swapped: boolean, a: number): number => {
    const j = swapped ? mirrorLeg(i) : i;
    return world[(f * NUM_LANDMARKS + j) * 3 + a];
  };
  // Each frame's torso lengths once (the Viterbi pass asks for four transitions per frame).
  const torsoPx = Float64Array.from({ length: N }, (_, f) => Math.max(1, torsoSpan(image, f, 2)));
  const torsoWorld = Float64Array.from({ length: N }, (_, f) => Math.max(0.05, torsoSpan(world, f, 3)));
  const trans = (f: number, a: boolean, b: boolean): number => {
    let s = 0;
    let sw = 0;
    let ws = 0;
    for (const pair of LEG_PAIRS) {
      for (const i of pair) {
        const w = Math.min(weight[f * NUM_LANDMARKS + i], weight[(f - 1) * NUM_LANDMARKS + i]);
        if (!(w > 0)) continue;
        s += w * Math.hypot(px(f, i, b, 0) - px(f - 1, i, a, 0), px(f, i, b, 1) - px(f - 1, i, a, 1));
        sw +=
          w *
          Math.hypot(
            wp(f, i, b, 0) - wp(f - 1, i, a, 0),
            wp(f, i, b, 1) - wp(f - 1, i, a, 1),
            wp(f, i, b, 2) - wp(f - 1, i, a, 2),
          );
        ws += w;
      }
    }
    if (!(ws > 0)) return 0;
    const image = s / ws / torsoPx[f];
    const depth = sw / ws / torsoWorld[f];
    return Number.isFinite(depth) ? image + worldSwapWeight * depth : image;
  };
  let swappedFrames = 0;
  let f = 0;
  while (f < N) {
    if (!tracked[f]) {
      f++;
      continue;
    }
    let e = f;
    while (e + 1 < N && tracked[e + 1]) e++;
    // Viterbi over [f, e]: state 0 = as labelled, 1 = swapped.
    const len = e - f + 1;
    const back = new Uint8Array(len * 2);
    let c0 = 0;
    let c1 = prior;
    for (let k = 1; k < len; k++) {
      const g = f + k;
      const n0a = c0 + trans(g, false, false);
      const n0b = c1 + trans(g, true, false);
      const n1a = c0 + trans(g, false, true);
      const n1b = c1 + trans(g, true, true);
      back[k * 2] = n0a <= n0b ? 0 : 1;
      back[k * 2 + 1] = n1a <= n1b ? 0 : 1;
      c0 = Math.min(n0a, n0b);
      c1 = Math.min(n1a, n1b) + prior;
    }
    let state = c0 <= c1 ? 0 : 1;
    for (let k = len - 1; k >= 0; k--) {
      if (state) {
        swapLegs(f + k, image, world, weight);
        swappedFrames++;
      }
      state = back[k * 2 + state];
    }
    f = e + 1;
  }
  return swappedFrames;
}

function mirrorLeg(i: number): number {
  for (const [l, r] of LEG_PAIRS) {
    if (i === l) return r;
    if (i === r) return l;
  }
  return i;
}

function swapLegs(f: number, image: Float64Array, world: Float64Array, weight: Float64Array): void {
  const swap = (arr: Float64Array, dim: number, a: number, b: number) => {
    for (let c = 0; c < dim; c++) {
      const ia = (f * NUM_LANDMARKS + a) * dim + c;
      const ib = (f * NUM_LANDMARKS + b) * dim + c;
      const t = arr[ia];
      arr[ia] = arr[ib];
      arr[ib] = t;
    }
  };
  for (const [l, r] of LEG_PAIRS) {
    swap(image, 2, l, r);
    swap(world, 3, l, r);
    swap(weight, 1, l, r);
  }
}
