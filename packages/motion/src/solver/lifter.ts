/**
 * 2D → 3D lifter: BlazePose's 33 image landmarks of one frame (normalised: relative to the image hip
 * midpoint, divided by the body's image size) and their weights → the 33 landmarks in 3D, body space (camera
 * axes, Y up, Z towards the camera; see `input.ts`), relative to the hip midpoint, for a body 1.75 m tall.
 *
 * Why: BlazePose's own world landmarks are weak in depth (not metric, left/right leg lengths differ, mirror
 * joints wrong by > 10 cm); the image landmarks are accurate. A network trained on motion capture projected
 * through random cameras (Martinez et al. 2017) knows which depths go with a 2D pose; it replaces the world
 * landmarks as the solver's depth evidence.
 *
 * Weights: `lifter-weights.json`, trained by `npm run train -- lifter` (scripts/train/lifter.ts) on CMU
 * motion capture only (licence allows shipping the weights), with the trials used by the quality bench's
 * rendered clips held out; the file's `meta` records the data, the commit and the validation error.
 */

import { LM, NUM_LANDMARKS } from './input.ts';

export { MIRROR } from './input.ts';

import type { Mlp } from './mlp.ts';

export const LIFTER_INPUTS = NUM_LANDMARKS * 3;
export const LIFTER_OUTPUTS = NUM_LANDMARKS * 3;
/** Height the lifter's output is normalised to, metres. */
export const LIFTER_HEIGHT = 1.75;

/** Landmarks defining the image size of the body (shoulders, elbows, wrists, hips, knees, ankles). */
const SIZE_LANDMARKS = [11, 12, 13, 14, 15, 16, 23, 24, 25, 26, 27, 28];

/**
 * Writes the lifter's input features for one frame: `uv` are 33 image points (pixels, y down), `w` their
 * weights 0..1. Returns the image size used (pixels), 0 when the frame has no usable body.
 */
export function lifterFeatures(
  uv: ArrayLike<number>,
  w: ArrayLike<number>,
  out: Float64Array | Float32Array,
): number {
  const cx = (uv[LM.leftHip * 2] + uv[LM.rightHip * 2]) / 2;
  const cy = (uv[LM.leftHip * 2 + 1] + uv[LM.rightHip * 2 + 1]) / 2;
  let ss = 0;
  for (const i of SIZE_LANDMARKS) ss += (uv[i * 2] - cx) ** 2 + (uv[i * 2 + 1] - cy) ** 2;
  const s = Math.sqrt(ss / SIZE_LANDMARKS.length);
  if (!(s > 1e-6)) return 0;
  for (let i = 0; i < NUM_LANDMARKS; i++) {
    out[i * 2] = (uv[i * 2] - cx) / s;
    out[i * 2 + 1] = -(uv[i * 2 + 1] - cy) / s;
    out[NUM_LANDMARKS * 2 + i] = w[i];
  }
  return s;
}

/**
 * Lifts every tracked frame: `image` `[N × 33 × 2]` pixels, `weight` `[N × 33]`; writes body-space landmarks
 * `[N × 33 × 3]` (hip-relative, for a 1.75 m body) to `out`; untracked frames are left as they are.
 */
export function liftFrames(
  net: Mlp,
  N: number,
  image: Float64Array,
  weight: Float64Array,
  tracked: Uint8Array,
  out: Float64Array,
): void {
  const x = new Float64Array(LIFTER_INPUTS);
  const y = new Float64Array(LIFTER_OUTPUTS);
  for (let f = 0; f < N; f++) {
    if (!tracked[f]) continue;
    const s = lifterFeatures(
      image.subarray(f * NUM_LANDMARKS * 2, (f + 1) * NUM_LANDMARKS * 2),
      weight.subarray(f * NUM_LANDMARKS, (f + 1) * NUM_LANDMARKS),
      x,
    );
    if (!s) continue;
    net.run(x, y);
    out.set(y, f * LIFTER_OUTPUTS);
  }
}
