/**
 * Fit to the image: the fixed-length skeleton, placed in camera space, is moved so that its landmarks,
 * projected through the camera, land on the tracker's image landmarks — the accurate evidence — while
 * BlazePose's world landmarks only keep the depth ordering (a weak prior on each landmark's depth relative to
 * the hips, taken from the 3D fit that starts this one).
 *
 * Per frame, a damped Gauss–Newton fit (a few iterations) of:
 * - the root translation (camera space) and world-axis rotation increments of the hips, spine, chest, neck,
 *   head, upper arms, thighs, hands and feet (3 each), and the elbow and knee hinge angles (1 each: the limbs
 *   stay hinges, flexion kept within 0..160°);
 * - residuals: the pixel error of every landmark seen (weight = the tracker's visibility, Huber beyond
 *   3 σ), each landmark's depth relative to the hips against the start's (`depthSigma`), the rotation
 *   increments (`rotationSigma`: the start is a good guess of what the image cannot tell, e.g. a bone's
 *   twist) and the root's depth against the start's (`rootDepthSigma`: the image fixes distance × focal only
 *   through the body's size).
 * The Jacobian is analytic: a rotation ω about joint X moves every point P below it by ω × (P − X).
 * A frame whose fit does not lower its cost keeps the start. Pure: no clock, no randomness.
 */

import type { WorldPose } from '../clip.ts';
import {
  type Quat,
  qConj,
  qExp,
  qFromAxisAngle,
  qMul,
  qNormalize,
  qSwingTwist,
  readQuat,
  readVec3,
  solveSPD,
  type Vec3,
  writeQuat,
  writeVec3,
} from '../math.ts';
import { SIDES } from '../skeleton.ts';
import type { CameraModel } from './camera.ts';
import { clampAngle } from './fit.ts';
import { bestComponent, componentCost, type Gmm } from './gmm.ts';
import { NUM_LANDMARKS } from './input.ts';
import type { BodyModel } from './model.ts';
import { inverseLeftJacobian, PRIOR_DIMS, PRIOR_JOINTS, poseFeatures } from './prior.ts';

export interface ImageFitOptions {
  /** Pixel noise of the image landmarks (σ of the image term); default 1 % of the person's image height. */
  pxSigma?: number;
  /** σ (metres) of each landmark's depth relative to the hips against the start's. Default 0.12. */
  depthSigma?: number;
  /** σ (radians) of each rotation increment against the start. Default 0.5. */
  rotationSigma?: number;
  /** σ (metres) of the root's depth against the start's. Default 0.15. */
  rootDepthSigma?: number;
  /** Gauss–Newton iterations per frame. Default 4. */
  iterations?: number;
  /** Joints whose rotation stays, and whether the root stays (e.g. legs and hips after the floor stage). */
  frozen?: number[];
  frozenRoot?: boolean;
  /**
   * The pose prior (`prior.ts`) and its weight on the cost (1 = its negative log density as it is, beside the
   * image term's). Default none.
   */
  prior?: Gmm | null;
  priorWeight?: number;
  /**
   * The floor (plane through `origin` with normal `up`, camera space; σ `sigma` metres): in the frames `frames`
   * flags, the lowest sole point (heel and toe landmarks of both feet) lies on it; in the frames `feet[s]`
   * flags, foot s's lower sole point does. With the bone lengths fixed and every joint on its image ray,
   * this decides what the image cannot: a foot lifted towards the camera, a knee bent by a depth error.
   * `levels[f]` (optional): the height above that plane of the surface carrying the body in frame f (a box or
   * a stage the person stands on; `supportLevels` in ground.ts).
   */
  floor?: {
    up: Vec3;
    origin: Vec3;
    frames: ArrayLike<number>;
    feet?: [ArrayLike<number>, ArrayLike<number>];
    sigma: number;
    levels?: ArrayLike<number>;
  };
}

export interface ImageFitResult {
  /** Mean weighted pixel error of the landmarks over the fitted frames, before and after. */
  beforePx: number;
  afterPx: number;
  frames: number;
}

/** The landmark series the fit reads (image pixels, visibility weights, tracked flags). */
export interface ImageLandmarks {
  N: number;
  image: ArrayLike<number>;
  weight: ArrayLike<number>;
  tracked: ArrayLike<number>;
}

interface Param {
  joint: number;
  /** Largest rotation of a free joint from its rest (hands 80°, feet 75°, as the 3D fit's cones). */
  cone?: number;
  /** World axis index 0..2 for a free joint; -1 for a hinge. */
  axis: number;
  /** Hinge axis in the parent (upper bone) frame, and the sign that makes positive = flexion. */
  hingeLocal?: Vec3;
  hingeSign?: number;
  /** The hinge's twist axis in the lower bone's frame (to read the flexion back). */
  twistLocal?: Vec3;
}

const DEG = Math.PI / 180;
const MAX_FLEX = 160 * DEG;

/** The parameters of the fit (translation is separate: the last 3 unknowns). */
function buildParams(model: BodyModel): Param[] {
  const j = model.joint;
  const params: Param[] = [];
  const free = (name: string, cone?: number) => {
    for (let a = 0; a < 3; a++) params.push({ joint: j[name], axis: a, ...(cone ? { cone } : {}) });
  };
  for (const name of ['hips', 'spine1', 'spine2', 'neck', 'head']) free(name);
  for (const side of SIDES) {
    const s = side === 'left' ? 1 : -1;
    free(`${side}UpperArm`);
    // Elbow: hinge about local ∓Y (see `solveLimb`), twist about the bone axis X.
    params.push({
      joint: j[`${side}Forearm`],
      axis: -1,
      hingeLocal: [0, 1, 0],
      hingeSign: -s,
      twistLocal: [1, 0, 0],
    });
    free(`${side}Hand`, 80 * DEG);
    free(`${side}Thigh`);
    // Knee: hinge about local +X, twist about the bone axis Y.
    params.push({
      joint: j[`${side}Shin`],
      axis: -1,
      hingeLocal: [1, 0, 0],
      hingeSign: 1,
      twistLocal: [0, 1, 0],
    });
    free(`${side}Foot`, 75 * DEG);
  }
  return params;
}

/**
 * Puts every frame back inside the fit's limits (hand and foot cones, elbow and knee flexion 0..160°), e.g.
 * after the corrections were smoothed over time.
 */
export function enforceLimits(model: BodyModel, local: Float64Array, N: number): void {
  const n = model.skeleton.names.length;
  const params = buildParams(model);
  for (let f = 0; f < N; f++) {
    for (let k = 0; k < params.length; k++) {
      const p = params[k];
      const o = f * n + p.joint;
      if (p.axis < 0) {
        const q = readQuat(local, o);
        const flex = flexion(q, p);
        if (flex < 0 || flex > MAX_FLEX) {
          const target = Math.max(0, Math.min(MAX_FLEX, flex));
          const fix = qFromAxisAngle(p.hingeLocal as Vec3, (target - flex) * (p.hingeSign as number));
          writeQuat(local, o, qNormalize(qMul(fix, q)));
        }
      } else if (p.cone && p.axis === 0) {
        writeQuat(local, o, clampAngle(readQuat(local, o), p.cone));
      }
    }
  }
}

/** Hinge flexion of a lower limb's local rotation (hinge · twist). */
function flexion(q: Quat, p: Param): number {
  const { swing } = qSwingTwist(q, p.twistLocal as Vec3);
  const h = p.hingeLocal as Vec3;
  const a = 2 * Math.atan2(swing[0] * h[0] + swing[1] * h[1] + swing[2] * h[2], swing[3]);
  return a * (p.hingeSign as number);
}

/**
 * Refines `local` (`[N × n × 4]`, the hips' rotation relative to the camera axes) and `root` (`[N × 3]`,
 * camera-space hips, Y up, Z towards the viewer) in place so the model's landmarks reproject onto the image.
 */
export function fitToImage(
  model: BodyModel,
  cam: CameraModel,
  series: ImageLandmarks,
  local: Float64Array,
  root: Float64Array,
  personPx: number,
  options: ImageFitOptions = {},
): ImageFitResult {
  const sk = model.skeleton;
  const n = sk.names.length;
  const M = NUM_LANDMARKS;
  const params = buildParams(model);
  const P = params.length;
  const U = P + 3;
  const sigPx = options.pxSigma ?? Math.max(1, 0.01 * personPx);
  const sigZ = options.depthSigma ?? 0.12;
  const sigR = options.rotationSigma ?? 0.5;
  const sigRootZ = options.rootDepthSigma ?? 0.15;
  const iterations = options.iterations ?? 4;
  const frozen = new Set(options.frozen ?? []);
  // The pose prior: its joints, and per parameter of those joints the feature block it moves.
  const prior = options.prior && options.prior.weights.length > 0 ? options.prior : null;
  const priorScale = Math.sqrt(options.priorWeight ?? 1);
  const priorJoints = PRIOR_JOINTS.map((name) => model.joint[name]);
  const priorParams: { k: number; block: number }[] = [];
  if (prior) {
    params.forEach((p, k) => {
      const block = priorJoints.indexOf(p.joint);
      if (block >= 0) priorParams.push({ k, block });
    });
  }
  const D = PRIOR_DIMS;
  const feat = new Float64Array(D);
  const priorR = new Float64Array(D);
  const JR = new Float64Array(priorParams.length * D);
  const Jl = new Float64Array(9);
  const col = new Float64Array(3);
  // dp/dθ_k of a point p moved by parameter k: axis_k × (p − centre_k), written to `dp`.
  const dp = new Float64Array(3);
  const lever = (k: number, px: number, py: number, pz: number): void => {
    const o = k * 3;
    const qx = px - centres[o];
    const qy = py - centres[o + 1];
    const qz = pz - centres[o + 2];
    dp[0] = axes[o + 1] * qz - axes[o + 2] * qy;
    dp[1] = axes[o + 2] * qx - axes[o] * qz;
    dp[2] = axes[o] * qy - axes[o + 1] * qx;
  };
  const floor = options.floor;
  const SOLES = [
    [29, 31],
    [30, 32],
    [29, 30, 31, 32],
  ];
  /** Of the sole landmarks `set`, the lowest along the floor's up direction, and its height above the floor. */
  const lowestSole = (set: number[], f: number): [number, number] => {
    let best = -1;
    let h = Number.POSITIVE_INFINITY;
    if (!floor) return [best, h];
    const { up, origin } = floor;
    const level = floor.levels ? floor.levels[f] : 0;
    for (const i of set) {
      const v =
        (pts[i * 3] - origin[0]) * up[0] +
        (pts[i * 3 + 1] - origin[1]) * up[1] +
        (pts[i * 3 + 2] - origin[2]) * up[2];
      if (v < h) {
        h = v;
        best = i;
      }
    }
    return [best, h - level];
  };
  /** The sole sets held on the floor in frame f: each foot in contact, else the lowest of all when flagged. */
  const floorSets = (f: number): number[][] => {
    if (!floor) return [];
    const out: number[][] = [];
    if (floor.feet?.[0][f]) out.push(SOLES[0]);
    if (floor.feet?.[1][f]) out.push(SOLES[1]);
    if (!out.length && floor.frames[f]) out.push(SOLES[2]);
    return out;
  };
  const floorCost = (f: number): number => {
    let c = 0;
    for (const set of floorSets(f)) c += (lowestSole(set, f)[1] / (floor as { sigma: number }).sigma) ** 2;
    return c;
  };
  const priorCost = (f: number): number => {
    if (!prior) return 0;
    poseFeatures(local, f * n, priorJoints, feat);
    return priorScale * priorScale * bestComponent(prior, feat).cost;
  };
  // Which parameters move which landmark: the joint of the parameter is the landmark's joint or above it.
  const affects: number[][] = [];
  for (let i = 0; i < M; i++) {
    const list: number[] = [];
    const chain = new Set<number>();
    for (let a = model.attach[i].joint; a >= 0; a = sk.parents[a]) chain.add(a);
    params.forEach((p, k) => {
      if (chain.has(p.joint)) list.push(k);
    });
    affects.push(list);
  }
  const allOf = affects.map((list) => [...list, P, P + 1, P + 2]);
  const pose: WorldPose = { positions: new Float64Array(n * 3), rotations: new Float64Array(n * 4) };
  const pts = new Float64Array(M * 3);
  const z0 = new Float64Array(M);
  const JtJ = new Float64Array(U * U);
  const Jtr = new Float64Array(U);
  const acc = new Float64Array(P);
  const rowU = new Float64Array(U);
  const rowV = new Float64Array(U);
  const axes = new Float64Array(P * 3);
  const centres = new Float64Array(P * 3);
  const saved = new Float64Array(n * 4);
  let sumBefore = 0;
  let sumAfter = 0;
  let count = 0;
  let frames = 0;

  // Forward kinematics of the joints that carry landmarks and their ancestors only (no fingers), without
  // allocating: this runs a dozen times per frame.
  const needed: number[] = [];
  {
    const set = new Set<number>();
    for (let i = 0; i < M; i++) for (let a = model.attach[i].joint; a >= 0; a = sk.parents[a]) set.add(a);
    for (let jj = 0; jj < n; jj++) if (set.has(jj)) needed.push(jj);
  }
  const W = pose.rotations;
  const X = pose.positions;
  const offs = sk.offsets;
  const rot = (
    q: ArrayLike<number>,
    o: number,
    vx: number,
    vy: number,
    vz: number,
    out: Float64Array,
    oo: number,
  ) => {
    const qx = q[o];
    const qy = q[o + 1];
    const qz = q[o + 2];
    const qw = q[o + 3];
    // v + 2w (u × v) + 2 u × (u × v)
    const tx = 2 * (qy * vz - qz * vy);
    const ty = 2 * (qz * vx - qx * vz);
    const tz = 2 * (qx * vy - qy * vx);
    out[oo] += vx + qw * tx + (qy * tz - qz * ty);
    out[oo + 1] += vy + qw * ty + (qz * tx - qx * tz);
    out[oo + 2] += vz + qw * tz + (qx * ty - qy * tx);
  };
  const landmarks = (f: number) => {
    const base = f * n * 4;
    for (const jj of needed) {
      const lo = base + jj * 4;
      const p = sk.parents[jj];
      if (p < 0) {
        X[jj * 3] = root[f * 3];
        X[jj * 3 + 1] = root[f * 3 + 1];
        X[jj * 3 + 2] = root[f * 3 + 2];
        W[jj * 4] = local[lo];
        W[jj * 4 + 1] = local[lo + 1];
        W[jj * 4 + 2] = local[lo + 2];
        W[jj * 4 + 3] = local[lo + 3];
        continue;
      }
      X[jj * 3] = X[p * 3];
      X[jj * 3 + 1] = X[p * 3 + 1];
      X[jj * 3 + 2] = X[p * 3 + 2];
      rot(W, p * 4, offs[jj * 3], offs[jj * 3 + 1], offs[jj * 3 + 2], X, jj * 3);
      const ax = W[p * 4];
      const ay = W[p * 4 + 1];
      const az = W[p * 4 + 2];
      const aw = W[p * 4 + 3];
      const bx = local[lo];
      const by = local[lo + 1];
      const bz = local[lo + 2];
      const bw = local[lo + 3];
      W[jj * 4] = aw * bx + ax * bw + ay * bz - az * by;
      W[jj * 4 + 1] = aw * by - ax * bz + ay * bw + az * bx;
      W[jj * 4 + 2] = aw * bz + ax * by - ay * bx + az * bw;
      W[jj * 4 + 3] = aw * bw - ax * bx - ay * by - az * bz;
    }
    for (let i = 0; i < M; i++) {
      const a = model.attach[i];
      pts[i * 3] = X[a.joint * 3];
      pts[i * 3 + 1] = X[a.joint * 3 + 1];
      pts[i * 3 + 2] = X[a.joint * 3 + 2];
      rot(W, a.joint * 4, a.offset[0], a.offset[1], a.offset[2], pts, i * 3);
    }
  };
  /** Weighted pixel error sum and weight sum of the current landmarks. */
  const pixelError = (f: number): [number, number] => {
    let s = 0;
    let w = 0;
    for (let i = 0; i < M; i++) {
      const wi = series.weight[f * M + i];
      if (!(wi > 0.1)) continue;
      const d = -pts[i * 3 + 2];
      if (!(d > 0.05)) continue;
      const u = cam.cx + (cam.f * pts[i * 3]) / d;
      const v = cam.cy - (cam.f * pts[i * 3 + 1]) / d;
      s += wi * Math.hypot(u - series.image[(f * M + i) * 2], v - series.image[(f * M + i) * 2 + 1]);
      w += wi;
    }
    return [s, w];
  };
  /** The fit's cost of the current state (robust image term + priors). */
  const cost = (f: number, rootZ0: number): number => {
    let c = 0;
    const rz = root[f * 3 + 2];
    for (let i = 0; i < M; i++) {
      const wi = series.weight[f * M + i];
      c += ((pts[i * 3 + 2] - rz - z0[i]) / sigZ) ** 2;
      if (!(wi > 0.1)) continue;
      const d = -pts[i * 3 + 2];
      if (!(d > 0.05)) return Number.POSITIVE_INFINITY;
      const u = cam.cx + (cam.f * pts[i * 3]) / d;
      const v = cam.cy - (cam.f * pts[i * 3 + 1]) / d;
      const e = Math.hypot(u - series.image[(f * M + i) * 2], v - series.image[(f * M + i) * 2 + 1]) / sigPx;
      c += wi * (e <= 3 ? e * e : 6 * e - 9);
    }
    for (let k = 0; k < P; k++) c += (acc[k] / sigR) ** 2;
    c += ((rz - rootZ0) / sigRootZ) ** 2;
    return c + priorCost(f) + floorCost(f);
  };

  for (let f = 0; f < series.N; f++) {
    if (!series.tracked[f]) continue;
    saved.set(local.subarray(f * n * 4, (f + 1) * n * 4));
    const root0 = readVec3(root, f);
    landmarks(f);
    for (let i = 0; i < M; i++) z0[i] = pts[i * 3 + 2] - root0[2];
    acc.fill(0);
    const [b0, w0] = pixelError(f);
    if (!(w0 > 0)) continue;
    const cost0 = cost(f, root0[2]);
    for (let it = 0; it < iterations; it++) {
      if (it > 0) landmarks(f);
      // Parameter axes and centres at the current pose.
      for (let k = 0; k < P; k++) {
        const p = params[k];
        centres[k * 3] = X[p.joint * 3];
        centres[k * 3 + 1] = X[p.joint * 3 + 1];
        centres[k * 3 + 2] = X[p.joint * 3 + 2];
        axes[k * 3] = 0;
        axes[k * 3 + 1] = 0;
        axes[k * 3 + 2] = 0;
        if (p.axis >= 0) axes[k * 3 + p.axis] = 1;
        else {
          const h = p.hingeLocal as Vec3;
          const sg = p.hingeSign as number;
          rot(W, sk.parents[p.joint] * 4, h[0] * sg, h[1] * sg, h[2] * sg, axes, k * 3);
        }
      }
      JtJ.fill(0);
      Jtr.fill(0);
      const rz = root[f * 3 + 2];
      for (let i = 0; i < M; i++) {
        const px = pts[i * 3];
        const py = pts[i * 3 + 1];
        const pz = pts[i * 3 + 2];
        const list = affects[i];
        // Depth prior (all landmarks, seen or not): (p.z - root.z) - z0.
        {
          const r = (pz - rz - z0[i]) / sigZ;
          for (const k of list) {
            const o = k * 3;
            // z component of e × (p − X)
            const dz = axes[o] * (py - centres[o + 1]) - axes[o + 1] * (px - centres[o]);
            rowU[k] = dz / sigZ;
          }
          for (const a of list) {
            Jtr[a] += rowU[a] * r;
            for (const b of list) JtJ[a * U + b] += rowU[a] * rowU[b];
          }
        }
        const wi = series.weight[f * M + i];
        if (!(wi > 0.1)) continue;
        const d = -pz;
        if (!(d > 0.05)) continue;
        const u = cam.cx + (cam.f * px) / d;
        const v = cam.cy - (cam.f * py) / d;
        const ru = u - series.image[(f * M + i) * 2];
        const rv = v - series.image[(f * M + i) * 2 + 1];
        const e = Math.hypot(ru, rv) / sigPx;
        const hub = e <= 3 ? 1 : 3 / e;
        const s = Math.sqrt(wi * hub) / sigPx;
        // d(u,v)/dp
        const uX = cam.f / d;
        const uZ = (cam.f * px) / (d * d);
        const vY = -cam.f / d;
        const vZ = (-cam.f * py) / (d * d);
        for (const k of list) {
          lever(k, px, py, pz);
          rowU[k] = s * (uX * dp[0] + uZ * dp[2]);
          rowV[k] = s * (vY * dp[1] + vZ * dp[2]);
        }
        rowU[P] = s * uX;
        rowU[P + 1] = 0;
        rowU[P + 2] = s * uZ;
        rowV[P] = 0;
        rowV[P + 1] = s * vY;
        rowV[P + 2] = s * vZ;
        const all = allOf[i];
        for (const a of all) {
          Jtr[a] += s * (rowU[a] * ru + rowV[a] * rv);
          for (const b of all) JtJ[a * U + b] += rowU[a] * rowU[b] + rowV[a] * rowV[b];
        }
      }
      if (prior) addPrior(f);
      for (const set of floorSets(f)) {
        // A sole point on the floor: d(p·up)/dθ_k = up · (e_k × (p − c_k)); translation: up.
        const [i, h] = lowestSole(set, f);
        const { up, sigma } = floor as { up: Vec3; sigma: number };
        const r = h / sigma;
        const list = allOf[i];
        const px = pts[i * 3];
        const py = pts[i * 3 + 1];
        const pz = pts[i * 3 + 2];
        for (const k of list) {
          if (k >= P) {
            rowU[k] = up[k - P] / sigma;
            continue;
          }
          lever(k, px, py, pz);
          rowU[k] = (up[0] * dp[0] + up[1] * dp[1] + up[2] * dp[2]) / sigma;
        }
        for (const a of list) {
          Jtr[a] += rowU[a] * r;
          for (const b of list) JtJ[a * U + b] += rowU[a] * rowU[b];
        }
      }
      for (let k = 0; k < P; k++) {
        const sr = frozen.has(params[k].joint) ? 1e-6 : sigR;
        JtJ[k * U + k] += 1 / sr ** 2;
        Jtr[k] += acc[k] / sr ** 2;
      }
      if (options.frozenRoot) {
        for (let a = 0; a < 3; a++) {
          JtJ[(P + a) * U + P + a] += 1e12;
          Jtr[P + a] += (root[f * 3 + a] - root0[a]) * 1e12;
        }
      }
      JtJ[(P + 2) * U + P + 2] += 1 / sigRootZ ** 2;
      Jtr[P + 2] += (rz - root0[2]) / sigRootZ ** 2;
      for (let a = 0; a < U; a++) JtJ[a * U + a] = JtJ[a * U + a] * 1.05 + 1e-6;
      for (let a = 0; a < U; a++) Jtr[a] = -Jtr[a];
      const step = solveSPD(JtJ, Jtr, U);
      if (!step) break;
      // Cap the rotation step (linearisation) at 0.3 rad per parameter.
      let big = 0;
      for (let k = 0; k < P; k++) big = Math.max(big, Math.abs(step[k]));
      const cap = big > 0.3 ? 0.3 / big : 1;
      applyStep(step, cap);
    }
    landmarks(f);
    const cost1 = cost(f, root0[2]);
    if (!(cost1 < cost0)) {
      local.set(saved, f * n * 4);
      writeVec3(root, f, root0);
      landmarks(f);
    }
    const [b1] = pixelError(f);
    sumBefore += b0;
    sumAfter += b1;
    count += w0;
    frames++;

    /**
     * The pose prior's rows: r = s·Lᵀ(x − μ) of the best component; a parameter of joint b moves x's block b
     * by J_l⁻¹(x_b) times its axis in the parent's frame (see `inverseLeftJacobian`).
     */
    function addPrior(f: number): void {
      const g = prior as Gmm;
      poseFeatures(local, f * n, priorJoints, feat);
      const best = bestComponent(g, feat).k;
      componentCost(g, best, feat, priorR);
      const Lo = best * D * D;
      for (let q = 0; q < priorParams.length; q++) {
        const { k, block } = priorParams[q];
        const p = params[k];
        inverseLeftJacobian(feat.subarray(block * 3, block * 3 + 3), Jl);
        let ax: number;
        let ay: number;
        let az: number;
        if (p.axis >= 0) {
          // The world axis in the parent's frame: Rpᵀ e.
          const po = sk.parents[p.joint] * 4;
          const e = [0, 0, 0];
          e[p.axis] = 1;
          col[0] = 0;
          col[1] = 0;
          col[2] = 0;
          rot([-W[po], -W[po + 1], -W[po + 2], W[po + 3]], 0, e[0], e[1], e[2], col, 0);
          ax = col[0];
          ay = col[1];
          az = col[2];
        } else {
          const h = p.hingeLocal as Vec3;
          const sg = p.hingeSign as number;
          ax = h[0] * sg;
          ay = h[1] * sg;
          az = h[2] * sg;
        }
        const c0 = Jl[0] * ax + Jl[1] * ay + Jl[2] * az;
        const c1 = Jl[3] * ax + Jl[4] * ay + Jl[5] * az;
        const c2 = Jl[6] * ax + Jl[7] * ay + Jl[8] * az;
        const b3 = block * 3;
        const row = q * D;
        for (let j = 0; j < D; j++) {
          // (Lᵀ)[j][i] = L[i][j], non-zero for i ≥ j.
          JR[row + j] =
            j <= b3 + 2
              ? priorScale *
                (g.precChol[Lo + b3 * D + j] * c0 +
                  g.precChol[Lo + (b3 + 1) * D + j] * c1 +
                  g.precChol[Lo + (b3 + 2) * D + j] * c2)
              : 0;
        }
      }
      for (let a = 0; a < priorParams.length; a++) {
        const ka = priorParams[a].k;
        const ra = a * D;
        let t = 0;
        for (let j = 0; j < D; j++) t += JR[ra + j] * priorR[j];
        Jtr[ka] += t * priorScale;
        for (let b = 0; b < priorParams.length; b++) {
          const rb = b * D;
          let sum = 0;
          for (let j = 0; j < D; j++) sum += JR[ra + j] * JR[rb + j];
          JtJ[ka * U + priorParams[b].k] += sum;
        }
      }
    }

    function applyStep(step: Float64Array, k: number): void {
      // Rotations, using the world rotations of the pose the step was linearised at.
      const worldRot = (j: number): Quat => (j < 0 ? [0, 0, 0, 1] : readQuat(pose.rotations, j));
      for (let p = 0; p < P; ) {
        const par = params[p];
        const o = (f * n + par.joint) * 4;
        if (frozen.has(par.joint)) {
          p += par.axis < 0 ? 1 : 3;
          continue;
        }
        if (par.axis < 0) {
          const delta = step[p] * k;
          acc[p] += delta;
          const q = readQuat(local, f * n + par.joint);
          let nq = qMul(qFromAxisAngle(par.hingeLocal as Vec3, delta * (par.hingeSign as number)), q);
          const flex = flexion(nq, par);
          if (flex < 0 || flex > MAX_FLEX) {
            const target = Math.max(0, Math.min(MAX_FLEX, flex));
            nq = qMul(
              qFromAxisAngle(par.hingeLocal as Vec3, (target - flex) * (par.hingeSign as number)),
              nq,
            );
          }
          writeQuat(local, o / 4, qNormalize(nq));
          p++;
          continue;
        }
        const w: Vec3 = [step[p] * k, step[p + 1] * k, step[p + 2] * k];
        acc[p] += w[0];
        acc[p + 1] += w[1];
        acc[p + 2] += w[2];
        const parentW = worldRot(sk.parents[par.joint]);
        const q = readQuat(local, f * n + par.joint);
        // local' = Rp⁻¹ exp(ω) Rp local
        let nq = qNormalize(qMul(qMul(qConj(parentW), qMul(qExp(w), parentW)), q));
        if (par.cone) nq = clampAngle(nq, par.cone);
        writeQuat(local, o / 4, nq);
        p += 3;
      }
      if (!options.frozenRoot) {
        root[f * 3] += step[P];
        root[f * 3 + 1] += step[P + 1];
        root[f * 3 + 2] += step[P + 2];
      }
    }
  }
  return {
    beforePx: count ? sumBefore / count : Number.NaN,
    afterPx: count ? sumAfter / count : Number.NaN,
    frames,
  };
}
