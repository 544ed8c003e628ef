/**
 * The pose prior: what bodies do, learned from motion capture (`npm run train -- prior`,
 * `scripts/train/prior.ts`, CMU mocap only). A Gaussian mixture (`gmm.ts`) over the canonical skeleton's
 * local joint rotations of the torso, head and limbs (`PRIOR_JOINTS`, each as a rotation vector, the hips
 * left out: where the body faces is not a pose), fitted on the rotations our own 3D fit gives on exact
 * landmarks synthesised from the mocap, mirrored as well.
 *
 * The image fit (`reproject.ts`) adds `|Lᵀ(x − μ_k)|²` of the frame's best component k (SMPLify's
 * approximation of the mixture's negative log density) to its cost: poses the image cannot tell apart (a
 * limb's depth, a knee bent towards the camera) go to what people do, not to whatever the world landmarks'
 * depth says. Pure: the weights are a JSON file in the source tree.
 */

import { type Quat, qLog } from '../math.ts';
import type { Gmm } from './gmm.ts';
import weightsJson from './prior-weights.json' with { type: 'json' };

/** Joints whose local rotations the prior models, in feature order (3 dims each). */
export const PRIOR_JOINTS = [
  'spine1',
  'spine2',
  'neck',
  'head',
  'leftUpperArm',
  'leftForearm',
  'rightUpperArm',
  'rightForearm',
  'leftThigh',
  'leftShin',
  'leftFoot',
  'rightThigh',
  'rightShin',
  'rightFoot',
] as const;

export const PRIOR_DIMS = PRIOR_JOINTS.length * 3;

/** The mirror image of a feature vector (left ↔ right; rest pose symmetric about the YZ plane). */
export function mirrorFeatures(x: ArrayLike<number>, out: Float64Array): void {
  PRIOR_JOINTS.forEach((name, i) => {
    const other = name.startsWith('left')
      ? `right${name.slice(4)}`
      : name.startsWith('right')
        ? `left${name.slice(5)}`
        : name;
    const j = PRIOR_JOINTS.indexOf(other as (typeof PRIOR_JOINTS)[number]);
    // A reflection x → −x turns a rotation vector (a, b, c) into (a, −b, −c).
    out[j * 3] = x[i * 3];
    out[j * 3 + 1] = -x[i * 3 + 1];
    out[j * 3 + 2] = -x[i * 3 + 2];
  });
}

/** Feature vector of one frame: the rotation vectors of `PRIOR_JOINTS` (indices `joints`) from `local`. */
export function poseFeatures(
  local: ArrayLike<number>,
  base: number,
  joints: number[],
  out: Float64Array,
): void {
  for (let i = 0; i < joints.length; i++) {
    const o = (base + joints[i]) * 4;
    const q: Quat = [local[o], local[o + 1], local[o + 2], local[o + 3]];
    const r = qLog(q);
    out[i * 3] = r[0];
    out[i * 3 + 1] = r[1];
    out[i * 3 + 2] = r[2];
  }
}

/**
 * `J_l⁻¹(φ)` of SO(3), row-major 3×3 into `out`: `log(exp(δ)·exp(φ)) ≈ φ + J_l⁻¹(φ) δ` for a small rotation δ
 * applied on the left (in the parent's frame), which is how the image fit moves a joint.
 */
export function inverseLeftJacobian(phi: ArrayLike<number>, out: Float64Array): void {
  const x = phi[0];
  const y = phi[1];
  const z = phi[2];
  const t2 = x * x + y * y + z * z;
  const t = Math.sqrt(t2);
  // c = 1/θ² − (1 + cos θ)/(2 θ sin θ); → 1/12 as θ → 0.
  const c = t < 1e-4 ? 1 / 12 + t2 / 720 : 1 / t2 - (1 + Math.cos(t)) / (2 * t * Math.sin(t));
  // [φ]× and [φ]×² = φφᵀ − θ² I
  const K = [0, -z, y, z, 0, -x, -y, x, 0];
  const P = [x * x - t2, x * y, x * z, x * y, y * y - t2, y * z, x * z, y * z, z * z - t2];
  for (let i = 0; i < 9; i++) out[i] = (i % 4 === 0 ? 1 : 0) - 0.5 * K[i] + c * P[i];
}

export interface PosePriorJson {
  format: 'mocap-pose-prior';
  version: 1;
  joints: string[];
  components: number;
  dims: number;
  /** Base64 of little-endian float64: weights [K], means [K×D], precChol [K×D×D], logDetCov [K]. */
  data: string;
  meta?: Record<string, unknown>;
}

export function encodePrior(g: Gmm, meta: Record<string, unknown>): PosePriorJson {
  const K = g.weights.length;
  const D = g.dims;
  const all = new Float64Array(K + K * D + K * D * D + K);
  all.set(g.weights, 0);
  all.set(g.means, K);
  all.set(g.precChol, K + K * D);
  all.set(g.logDetCov, K + K * D + K * D * D);
  return {
    format: 'mocap-pose-prior',
    version: 1,
    joints: [...PRIOR_JOINTS],
    components: K,
    dims: D,
    data: encodeFloat64(all),
    meta,
  };
}

function encodeFloat64(data: Float64Array): string {
  const bytes = new Uint8Array(data.length * 8);
  const dv = new DataView(bytes.buffer);
  for (let i = 0; i < data.length; i++) dv.setFloat64(i * 8, data[i], true);
  return Buffer.from(bytes).toString('base64');
}

export function decodePrior(json: PosePriorJson): Gmm {
  const K = json.components;
  const D = json.dims;
  if (json.format !== 'mocap-pose-prior' || D !== PRIOR_DIMS) throw new Error('pose prior: unknown format');
  const bin =
    typeof Buffer !== 'undefined'
      ? Uint8Array.from(Buffer.from(json.data, 'base64'))
      : Uint8Array.from(atob(json.data), (c) => c.charCodeAt(0));
  const dv = new DataView(bin.buffer, bin.byteOffset, bin.byteLength);
  const all = new Float64Array(bin.length / 8);
  for (let i = 0; i < all.length; i++) all[i] = dv.getFloat64(i * 8, true);
  if (all.length !== K + K * D + K * D * D + K) throw new Error('pose prior: wrong data length');
  return {
    dims: D,
    weights: all.slice(0, K),
    means: all.slice(K, K + K * D),
    precChol: all.slice(K + K * D, K + K * D + K * D * D),
    logDetCov: all.slice(K + K * D + K * D * D),
  };
}

let cached: Gmm | null = null;

/** The shipped pose prior (decoded once). */
export function posePrior(): Gmm {
  cached ??= decodePrior(weightsJson as unknown as PosePriorJson);
  return cached;
}

/** Training metadata of the shipped prior (data, commit, held-out likelihood). */
export function posePriorMeta(): Record<string, unknown> {
  return (weightsJson as unknown as PosePriorJson).meta ?? {};
}
