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

import type { Tracks } from '@mocap/vision';

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
      weight[i * NUM_LANDMARKS + j] = Math.min(
        visibilityWeight(ia[3], ia[4]),
        visibilityWeight(ib[3], ib[4]),
      );
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
