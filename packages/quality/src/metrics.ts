/**
 * Accuracy metrics. Pure functions of joint sequences: `Frames` = one entry per frame, `null` when the
 * estimate has no pose there, else the `RECORDED_JOINTS` positions flat (`[J × 3]`, metres). Definitions
 * (distances in mm unless stated):
 *
 * With ground truth (estimates first brought into the truth's world frame, see `alignRigid`):
 * - MPJPE: mean joint distance after moving each frame's estimated pelvis onto the true pelvis.
 * - PA-MPJPE: mean joint distance after the best similarity transform per frame (rotation, translation,
 *   scale; Umeyama/Procrustes).
 * - per-joint error: the MPJPE of each joint.
 * - joint-angle error: mean |angle_est − angle_true| of the 3-point angles in `ANGLES` (knees, elbows, hips,
 *   shoulders), degrees (no alignment needed).
 * - acceleration error: mean |ẍ_est − ẍ_true| of pelvis-centred joints, mm/frame² (second differences).
 * - jitter: mean |d³x/dt³| of the joints' world positions, m/s³ (third differences × fps³); shown with
 *   the truth's own jitter.
 * - foot sliding: mean displacement per frame (3D) of the planted foot point (ankle or toe, as the
 *   contact flags say) over pairs of consecutive frames in the same contact.
 * - ground penetration: mean depth below the floor of the foot points (ankles, toes) over all frames,
 *   where "the floor" for a point is the lowest height the point has in the truth (its height when planted).
 * - RTE: mean distance between estimated and true pelvis trajectories (after the rigid alignment), as a
 *   percentage of the horizontal distance the true pelvis travels (path smoothed over ±0.25 s); reported
 *   only when it travels ≥ 1 m.
 *
 * Where the error is (rendered clips, camera space, X right, Y up, Z towards the camera): the PA-MPJPE the
 * estimate would have with the truth's depths (`withTruth(est, truth, 'depth')`: each joint's Z relative to
 * the pelvis replaced by the truth's), or with the truth's image-plane positions (X and Y relative to the
 * pelvis replaced): how much of the error each side leaves.
 *
 * Without ground truth: coverage (fraction of frames with a pose), jitter, foot sliding during the given
 * (detected) contacts using the slower of ankle and toe, bone-length standard deviation and 2D reprojection
 * error against image landmarks.
 */
import { math, type Vec3 } from '@mocap/motion';
import {
  ANGLES,
  BONES,
  EVAL_JOINTS,
  jointIndexOf,
  RECORDED_JOINTS,
  type RecordedJoint,
} from './correspondence.ts';

export type Frames = (ArrayLike<number> | null)[];

const J = RECORDED_JOINTS.length;
const EVAL = EVAL_JOINTS.map((j) => jointIndexOf(j));
const PELVIS = jointIndexOf('hips');

export const jointAt = (frame: ArrayLike<number>, j: number): Vec3 => [
  frame[j * 3],
  frame[j * 3 + 1],
  frame[j * 3 + 2],
];

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);

/** Frames where both sequences have a pose. */
function both(est: Frames, gt: Frames): number[] {
  const out: number[] = [];
  for (let f = 0; f < Math.min(est.length, gt.length); f++) if (est[f] && gt[f]) out.push(f);
  return out;
}

/** A rigid (or similarity) transform: p' = s · R p + t, R as a quaternion. */
export interface Transform {
  q: [number, number, number, number];
  s: number;
  t: Vec3;
}

export function applyTransform(tr: Transform, p: Vec3): Vec3 {
  return math.add(math.scale(math.qRotate(tr.q, p), tr.s), tr.t);
}

/** Best rotation + translation (+ scale when `withScale`) mapping points `a` onto `b` (least squares). */
export function procrustes(a: Vec3[], b: Vec3[], withScale = false): Transform {
  const n = a.length;
  let ca: Vec3 = [0, 0, 0];
  let cb: Vec3 = [0, 0, 0];
  for (let k = 0; k < n; k++) {
    ca = math.addScaled(ca, a[k], 1 / n);
    cb = math.addScaled(cb, b[k], 1 / n);
  }
  const q = math.bestFitRotation(a, b) as Transform['q'];
  let s = 1;
  if (withScale) {
    let num = 0;
    let den = 0;
    for (let k = 0; k < n; k++) {
      const pa = math.qRotate(q, math.sub(a[k], ca));
      num += math.dot(pa, math.sub(b[k], cb));
      den += math.dot(pa, pa);
    }
    s = den > 0 ? num / den : 1;
  }
  const t = math.sub(cb, math.scale(math.qRotate(q, ca), s));
  return { q, s, t };
}

export function transformFrames(frames: Frames, tr: Transform): Frames {
  return frames.map((fr) => {
    if (!fr) return null;
    const out = new Float64Array(fr.length);
    for (let j = 0; j < fr.length / 3; j++) math.writeVec3(out, j, applyTransform(tr, jointAt(fr, j)));
    return out;
  });
}

/**
 * One rigid transform per clip (rotation + translation, no scale) bringing `est` onto `gt`, fitted on the
 * evaluation joints of every frame both have. Frames of different origin (the solver's world, the camera)
 * differ by a constant rigid motion; fitting one per clip does not hide per-frame errors.
 */
export function alignRigid(est: Frames, gt: Frames): { aligned: Frames; transform: Transform } {
  const a: Vec3[] = [];
  const b: Vec3[] = [];
  for (const f of both(est, gt)) {
    for (const j of EVAL) {
      a.push(jointAt(est[f]!, j));
      b.push(jointAt(gt[f]!, j));
    }
  }
  if (a.length < 3) throw new Error('alignRigid: no frame with a pose in both sequences');
  const transform = procrustes(a, b, false);
  return { aligned: transformFrames(est, transform), transform };
}

export interface PoseErrors {
  mpjpe: number;
  paMpjpe: number;
  /** MPJPE per evaluation joint (by `EVAL_JOINTS` name). */
  perJoint: Record<string, number>;
  /** PA-MPJPE per evaluation joint. */
  perJointPa: Record<string, number>;
  frames: number;
}

/** MPJPE, PA-MPJPE and per-joint errors over the frames both sequences have (see the header). */
export function poseErrors(est: Frames, gt: Frames): PoseErrors {
  const fs = both(est, gt);
  const per = EVAL.map(() => [] as number[]);
  const perPa = EVAL.map(() => [] as number[]);
  for (const f of fs) {
    const e = est[f]!;
    const g = gt[f]!;
    const pe = jointAt(e, PELVIS);
    const pg = jointAt(g, PELVIS);
    const A = EVAL.map((j) => jointAt(e, j));
    const B = EVAL.map((j) => jointAt(g, j));
    const tr = procrustes(A, B, true);
    for (let k = 0; k < EVAL.length; k++) {
      per[k].push(math.distance(math.sub(A[k], pe), math.sub(B[k], pg)) * 1000);
      perPa[k].push(math.distance(applyTransform(tr, A[k]), B[k]) * 1000);
    }
  }
  const perJoint: Record<string, number> = {};
  const perJointPa: Record<string, number> = {};
  EVAL_JOINTS.forEach((name, k) => {
    perJoint[name] = mean(per[k]);
    perJointPa[name] = mean(perPa[k]);
  });
  // The pelvis is 0 by construction in MPJPE: it is averaged like the other joints (standard practice).
  return {
    mpjpe: mean(per.flat()),
    paMpjpe: mean(perPa.flat()),
    perJoint,
    perJointPa,
    frames: fs.length,
  };
}

/** Angle at `b` between `a` and `c`, degrees. */
function angleAt(fr: ArrayLike<number>, a: RecordedJoint, b: RecordedJoint, c: RecordedJoint): number {
  const pb = jointAt(fr, jointIndexOf(b));
  return (
    (math.angleBetween(
      math.sub(jointAt(fr, jointIndexOf(a)), pb),
      math.sub(jointAt(fr, jointIndexOf(c)), pb),
    ) *
      180) /
    Math.PI
  );
}

/** Mean absolute joint-angle difference over `ANGLES`, degrees; also per angle. */
export function jointAngleError(est: Frames, gt: Frames): { mean: number; perAngle: Record<string, number> } {
  const fs = both(est, gt);
  const perAngle: Record<string, number> = {};
  const all: number[] = [];
  for (const { name, a, b, c } of ANGLES) {
    const d = fs.map((f) => Math.abs(angleAt(est[f]!, a, b, c) - angleAt(gt[f]!, a, b, c)));
    perAngle[name] = mean(d);
    all.push(...d);
  }
  return { mean: mean(all), perAngle };
}

/** Pelvis-centred evaluation joints of a frame. */
function centred(fr: ArrayLike<number>): Vec3[] {
  const p = jointAt(fr, PELVIS);
  return EVAL.map((j) => math.sub(jointAt(fr, j), p));
}

/** Mean |ẍ_est − ẍ_true| of pelvis-centred joints, mm/frame², over runs of 3 frames both have. */
export function accelerationError(est: Frames, gt: Frames): number {
  const errs: number[] = [];
  for (let f = 1; f + 1 < Math.min(est.length, gt.length); f++) {
    if (!est[f - 1] || !est[f] || !est[f + 1] || !gt[f - 1] || !gt[f] || !gt[f + 1]) continue;
    const [e0, e1, e2] = [est[f - 1]!, est[f]!, est[f + 1]!].map(centred);
    const [g0, g1, g2] = [gt[f - 1]!, gt[f]!, gt[f + 1]!].map(centred);
    for (let k = 0; k < EVAL.length; k++) {
      const ae = math.add(math.sub(e2[k], math.scale(e1[k], 2)), e0[k]);
      const ag = math.add(math.sub(g2[k], math.scale(g1[k], 2)), g0[k]);
      errs.push(math.distance(ae, ag) * 1000);
    }
  }
  return mean(errs);
}

/** Mean |d³x/dt³| of the evaluation joints over runs of 4 frames with a pose, m/s³. */
export function jitter(frames: Frames, fps: number): number {
  const vals: number[] = [];
  const f3 = fps ** 3;
  for (let f = 3; f < frames.length; f++) {
    const w = [frames[f - 3], frames[f - 2], frames[f - 1], frames[f]];
    if (w.some((x) => !x)) continue;
    for (const j of EVAL) {
      const [p0, p1, p2, p3] = w.map((x) => jointAt(x!, j));
      const d: Vec3 = [0, 1, 2].map((a) => p3[a] - 3 * p2[a] + 3 * p1[a] - p0[a]) as Vec3;
      vals.push(Math.hypot(d[0], d[1], d[2]) * f3);
    }
  }
  return mean(vals);
}

/** Contact flags per foot: 0 none, 1 ankle planted, 2 toe planted, 3 planted on an unknown point. */
export interface Contacts {
  left: ArrayLike<number>;
  right: ArrayLike<number>;
}

/** Frames of both feet where detected and true contacts agree or not (any nonzero flag is a contact). */
export interface ContactAgreement {
  /** Contact in both. */
  both: number;
  /** Detected only. */
  detectedOnly: number;
  /** True only (missed). */
  missed: number;
}

/**
 * How detected foot contacts match the true ones, frame by frame and foot by foot: precision = both /
 * (both + detected only), recall = both / (both + missed) (`contactScores`). Locking acts on the detected
 * contacts, sliding is measured on the true ones: a missed contact frame is a frame the foot is free to slide.
 */
export function contactAgreement(detected: Contacts, truth: Contacts): ContactAgreement {
  const out: ContactAgreement = { both: 0, detectedOnly: 0, missed: 0 };
  for (const side of ['left', 'right'] as const) {
    const d = detected[side];
    const t = truth[side];
    for (let f = 0; f < Math.min(d.length, t.length); f++) {
      if (d[f] && t[f]) out.both++;
      else if (d[f]) out.detectedOnly++;
      else if (t[f]) out.missed++;
    }
  }
  return out;
}

/** Precision and recall (0..1, NaN without detected / true contacts) of a `ContactAgreement`. */
export function contactScores(a: ContactAgreement): { precision: number; recall: number } {
  return {
    precision: a.both + a.detectedOnly ? a.both / (a.both + a.detectedOnly) : Number.NaN,
    recall: a.both + a.missed ? a.both / (a.both + a.missed) : Number.NaN,
  };
}

/**
 * Mean 3D displacement per frame (mm) of the planted foot point over consecutive frames in the same contact.
 * Flag 3 (point unknown, e.g. detected contacts) takes the slower of ankle and toe.
 */
export function footSliding(frames: Frames, contacts: Contacts): { mm: number; pairs: number } {
  const d: number[] = [];
  const sides = [
    { flags: contacts.left, ankle: jointIndexOf('leftFoot'), toe: jointIndexOf('leftToes') },
    { flags: contacts.right, ankle: jointIndexOf('rightFoot'), toe: jointIndexOf('rightToes') },
  ];
  for (const { flags, ankle, toe } of sides) {
    for (let f = 1; f < Math.min(frames.length, flags.length); f++) {
      const c = flags[f];
      if (!c || flags[f - 1] !== c || !frames[f] || !frames[f - 1]) continue;
      const move = (j: number) => math.distance(jointAt(frames[f]!, j), jointAt(frames[f - 1]!, j));
      d.push((c === 1 ? move(ankle) : c === 2 ? move(toe) : Math.min(move(ankle), move(toe))) * 1000);
    }
  }
  return { mm: d.length ? mean(d) : Number.NaN, pairs: d.length };
}

const FOOT_POINTS = (['leftFoot', 'rightFoot', 'leftToes', 'rightToes'] as const).map(jointIndexOf);

/** Mean depth (mm) of the foot points below their true planted height (Y up), over all frames. */
export function groundPenetration(est: Frames, gt: Frames): { meanMm: number; maxMm: number } {
  const floor = FOOT_POINTS.map((j) => Math.min(...gt.filter((g) => g).map((g) => g![j * 3 + 1])));
  const depths: number[] = [];
  for (const f of both(est, gt)) {
    FOOT_POINTS.forEach((j, k) => {
      depths.push(Math.max(0, floor[k] - est[f]![j * 3 + 1]) * 1000);
    });
  }
  return { meanMm: mean(depths), maxMm: depths.length ? Math.max(...depths) : Number.NaN };
}

/**
 * Pelvis trajectory error: mean distance (mm), the horizontal distance the truth travels (m; its pelvis path
 * smoothed over ±0.25 s so sway and bobbing do not count) and RTE (%, NaN when it travels < 1 m). Y up.
 */
export function rootTrajectoryError(
  est: Frames,
  gt: Frames,
  fps = 30,
): { meanMm: number; travelM: number; rtePct: number } {
  const fs = both(est, gt);
  const errs = fs.map((f) => math.distance(jointAt(est[f]!, PELVIS), jointAt(gt[f]!, PELVIS)));
  const path = gt.filter((g) => g).map((g) => jointAt(g!, PELVIS));
  const w = Math.max(1, Math.round(fps / 4));
  const smooth = path.map((_, i) => {
    let x = 0;
    let z = 0;
    let n = 0;
    for (let k = Math.max(0, i - w); k <= Math.min(path.length - 1, i + w); k++, n++) {
      x += path[k][0];
      z += path[k][2];
    }
    return [x / n, z / n];
  });
  let travel = 0;
  for (let i = 1; i < smooth.length; i++) {
    travel += Math.hypot(smooth[i][0] - smooth[i - 1][0], smooth[i][1] - smooth[i - 1][1]);
  }
  const m = mean(errs);
  return { meanMm: m * 1000, travelM: travel, rtePct: travel >= 1 ? (m / travel) * 100 : Number.NaN };
}

/** Mean over `BONES` of each bone length's standard deviation over time, mm. */
export function boneLengthStd(frames: Frames): number {
  const stds: number[] = [];
  for (const [a, b] of BONES) {
    const ls = frames
      .filter((f) => f)
      .map((f) => math.distance(jointAt(f!, jointIndexOf(a)), jointAt(f!, jointIndexOf(b))));
    if (ls.length < 2) continue;
    const m = mean(ls);
    stds.push(Math.sqrt(mean(ls.map((l) => (l - m) ** 2))) * 1000);
  }
  return mean(stds);
}

export function coverage(frames: Frames): number {
  return frames.length ? frames.filter((f) => f).length / frames.length : 0;
}

/** Pinhole intrinsics in pixels. Camera axes: x right, y up, z towards the viewer (looking down −z). */
export interface Intrinsics {
  fx: number;
  fy: number;
  cx: number;
  cy: number;
}

export function project(k: Intrinsics, p: Vec3): [number, number] {
  return [k.cx + (k.fx * p[0]) / -p[2], k.cy - (k.fy * p[1]) / -p[2]];
}

/**
 * Mean pixel distance between camera-space joints (evaluation joints) projected through `k` and 2D points
 * per frame (`[J × 2]` flat in `RECORDED_JOINTS` order; null when not tracked), weighted equally.
 */
export function reprojectionError(
  cameraFrames: Frames,
  image: (ArrayLike<number> | null)[],
  k: Intrinsics,
): number {
  const errs: number[] = [];
  for (let f = 0; f < Math.min(cameraFrames.length, image.length); f++) {
    const c = cameraFrames[f];
    const im = image[f];
    if (!c || !im) continue;
    for (const j of EVAL) {
      const [u, v] = project(k, jointAt(c, j));
      errs.push(Math.hypot(u - im[j * 2], v - im[j * 2 + 1]));
    }
  }
  return mean(errs);
}

export { J as JOINT_COUNT };

/**
 * Camera-space frames with one side of each joint's position, relative to the pelvis, taken from the truth:
 * `depth` = Z (along the camera's axis), `imagePlane` = X and Y. Both in camera axes; frames where either has
 * no pose are null.
 */
export function withTruth(est: Frames, truth: Frames, side: 'depth' | 'imagePlane'): Frames {
  const J3 = RECORDED_JOINTS.length * 3;
  return est.map((e, f) => {
    const t = truth[f];
    if (!e || !t) return null;
    const out = new Float64Array(J3);
    for (let i = 0; i < J3; i++) {
      const axis = i % 3;
      const fromTruth = side === 'depth' ? axis === 2 : axis !== 2;
      out[i] = fromTruth ? t[i] - t[PELVIS * 3 + axis] + e[PELVIS * 3 + axis] : e[i];
    }
    return out;
  });
}

/** Limbs whose depth order `depthOrder` checks: name, near joint, far joint. */
export const DEPTH_ORDER_LIMBS = [
  ['thigh', 'leftThigh', 'leftShin'],
  ['thigh', 'rightThigh', 'rightShin'],
  ['shin', 'leftShin', 'leftFoot'],
  ['shin', 'rightShin', 'rightFoot'],
  ['upper arm', 'leftUpperArm', 'leftForearm'],
  ['upper arm', 'rightUpperArm', 'rightForearm'],
  ['forearm', 'leftForearm', 'leftHand'],
  ['forearm', 'rightForearm', 'rightHand'],
] as const satisfies readonly (readonly [string, RecordedJoint, RecordedJoint])[];

export type DepthOrderLimb = (typeof DEPTH_ORDER_LIMBS)[number][0];

/** Per limb kind (both sides pooled): frames counted, and of those with the far end on the wrong side. */
export type DepthOrder = Record<DepthOrderLimb, { wrong: number; counted: number }>;

/**
 * Limb depth order in camera space (Z along the camera's axis): per limb, the frames where the truth's far
 * joint is clearly in front of or behind its near joint (depth offset ≥ `minShare` of the bone's length: a
 * limb near the image plane has no order to get wrong), and of those the frames where the estimate puts it
 * on the other side. What the picture cannot tell and a solve most often gets wrong (a knee in front of the
 * hip instead of behind it).
 */
export function depthOrder(est: Frames, truth: Frames, minShare = 0.35): DepthOrder {
  const out = Object.fromEntries(DEPTH_ORDER_LIMBS.map(([k]) => [k, { wrong: 0, counted: 0 }])) as DepthOrder;
  for (const [kind, a, b] of DEPTH_ORDER_LIMBS) {
    const ia = jointIndexOf(a);
    const ib = jointIndexOf(b);
    for (const f of both(est, truth)) {
      const t = truth[f]!;
      const e = est[f]!;
      const dz = t[ib * 3 + 2] - t[ia * 3 + 2];
      if (Math.abs(dz) < minShare * math.distance(jointAt(t, ia), jointAt(t, ib))) continue;
      out[kind].counted++;
      if (Math.sign(e[ib * 3 + 2] - e[ia * 3 + 2]) !== Math.sign(dz)) out[kind].wrong++;
    }
  }
  return out;
}
