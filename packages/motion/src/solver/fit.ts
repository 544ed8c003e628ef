/**
 * Per-frame fitting of the fixed-length skeleton to (smoothed, fused) landmark positions in body space.
 *
 * The fit is analytic and anatomically structured, so every frame is solved in microseconds and the result
 * is exactly a pose of the skeleton (bone lengths cannot drift):
 * - pelvis from the hip line and a blend of the trunk and thigh directions; chest from the shoulder line and
 *   the trunk; the pelvis→chest rotation is shared by spine (30 %), spine1 (35 %) and spine2 (35 %);
 * - clavicles swing (≤ 35°) so the shoulder joints point at the shoulder landmarks;
 * - arms and legs: two-bone IK to the wrist/ankle with the bend plane from a pole vector (the elbow/knee
 *   offset from the limb line, temporally smoothed so it stays defined when the limb is straight); elbows and
 *   knees are hinges (flexion 0..160°), never hyperextended or bent sideways;
 * - twist: the hand orientation (best-fit rotation of wrist, index, pinky, thumb onto the calibrated template)
 *   gives the forearm twist (±110°) and a wrist swing (≤ 80°); the foot orientation (ankle, heel, foot index)
 *   gives the shin twist (±40°) and an ankle swing (≤ 75°);
 * - head orientation from the best fit of the face points (nose, eyes, ears, mouth) onto the face template;
 *   the neck takes half of the head's rotation and points at the head joint (neck ≤ 60°, head ≤ 80°).
 */

import { poseToWorld, type WorldPose } from '../clip.ts';
import {
  add,
  addScaled,
  angleBetween,
  bestFitRotation,
  cross,
  distance,
  dot,
  length,
  levenbergMarquardt,
  mid,
  normalize,
  type Quat,
  qAngle,
  qConj,
  qExp,
  qFromAxisAngle,
  qFromTwoAxes,
  qFromUnitVectors,
  qIdentity,
  qLog,
  qMul,
  qPow,
  qRotate,
  qSlerp,
  qSwingTwist,
  readQuat,
  readVec3,
  rejectFrom,
  scale,
  sub,
  type Vec3,
  writeQuat,
} from '../math.ts';
import { SIDES, type Side } from '../skeleton.ts';
import { FACE_LANDMARKS, LM, NUM_LANDMARKS } from './input.ts';
import type { BodyModel } from './model.ts';

export const DEG = Math.PI / 180;

/** Limits the rotation angle of `q` to `max` radians (same axis). */
export function clampAngle(q: Quat, max: number): Quat {
  const a = qAngle(q);
  return a > max ? qPow(q, max / a) : q;
}

/** Pole vectors per limb (the direction the elbow / knee points, perpendicular to the limb line). */
export type Poles = Record<'leftArm' | 'rightArm' | 'leftLeg' | 'rightLeg', Vec3>;

/** The knee/elbow offset from the line root → end (unnormalised; small when the limb is straight). */
export function limbPole(root: Vec3, middle: Vec3, end: Vec3): Vec3 {
  const axis = sub(end, root);
  const l = length(axis);
  if (l < 1e-9) return [0, 0, 0];
  const n = scale(axis, 1 / l);
  return rejectFrom(sub(middle, root), n);
}

/**
 * Two-bone IK: positions of the middle joint and the reached end for a chain rooted at `root` with lengths
 * `l1`, `l2`, aiming at `target`, bending towards `pole` (any vector; its part perpendicular to the chain is
 * used). The reach is clamped to what the lengths allow; with `softness` > 0 (a fraction of the chain
 * length) it approaches the maximum smoothly over that last stretch (soft IK).
 */
export function twoBoneIK(
  root: Vec3,
  target: Vec3,
  l1: number,
  l2: number,
  pole: Vec3,
  softness = 0,
): { middle: Vec3; end: Vec3; bendDir: Vec3 } {
  const toT = sub(target, root);
  let d = length(toT);
  const along = normalize(toT, [0, -1, 0]);
  const minD = Math.abs(l1 - l2) + 1e-4;
  const maxD = (l1 + l2) * 0.99999;
  // Soft IK: near full extension the reach approaches its maximum exponentially instead of snapping
  // straight (the knee/elbow angle changes infinitely fast at full extension otherwise).
  const soft = (1 - softness) * (l1 + l2);
  if (softness > 0 && d > soft) d = soft + (maxD - soft) * (1 - Math.exp(-(d - soft) / (maxD - soft)));
  d = Math.min(maxD, Math.max(minD, d));
  let bend = rejectFrom(pole, along);
  if (length(bend) < 1e-9) bend = rejectFrom(Math.abs(along[2]) < 0.9 ? [0, 0, 1] : [1, 0, 0], along);
  const bendDir = normalize(bend);
  const a = (l1 * l1 - l2 * l2 + d * d) / (2 * d);
  const h = Math.sqrt(Math.max(0, l1 * l1 - a * a));
  const middle = add(addScaled(root, along, a), scale(bendDir, h));
  const end = addScaled(root, along, d);
  return { middle, end, bendDir };
}

/** Landmarks of one frame with their weights. */
export interface FrameTargets {
  /** `[33 × 3]` body-space positions. */
  points: ArrayLike<number>;
  /** `[33]` weights 0..1. */
  weights: ArrayLike<number>;
  poles: Poles;
}

const pt = (t: FrameTargets, i: number): Vec3 => [t.points[i * 3], t.points[i * 3 + 1], t.points[i * 3 + 2]];

/** World rotation of joint j in a pose. */
const worldRot = (pose: WorldPose, j: number): Quat => readQuat(pose.rotations, j);
const worldPos = (pose: WorldPose, j: number): Vec3 => readVec3(pose.positions, j);

/** Best-fit rotation of a template (local offsets) onto observed points, with weights. */
function fitOrientation(template: Vec3[], observed: Vec3[], weights: number[]): Quat | null {
  let ws = 0;
  for (const w of weights) ws += w;
  if (ws < 0.3) return null;
  return bestFitRotation(
    template,
    observed,
    weights.map((w) => Math.max(w, 1e-3)),
  );
}

/**
 * Sets the local rotations of a two-bone limb (upper, lower, end joint) so its end reaches `target`,
 * bending towards `pole`, with the end joint's world orientation `endWorld` (null = keep it aligned with
 * the lower bone). Writes into `local` (`[4n]`) and updates `pose` for the limb's joints.
 */
export function solveLimb(
  model: BodyModel,
  side: Side,
  kind: 'arm' | 'leg',
  target: Vec3,
  pole: Vec3,
  endWorld: Quat | null,
  local: Float32Array | Float64Array,
  localBase: number,
  pose: WorldPose,
  softness = 0,
): void {
  const sk = model.skeleton;
  const j = model.joint;
  const [upper, lower, end] =
    kind === 'arm'
      ? [j[`${side}UpperArm`], j[`${side}Forearm`], j[`${side}Hand`]]
      : [j[`${side}Thigh`], j[`${side}Shin`], j[`${side}Foot`]];
  const parent = sk.parents[upper];
  const parentW = worldRot(pose, parent);
  const root = add(worldPos(pose, parent), qRotate(parentW, readVec3(sk.offsets, upper)));
  const l1 = length(readVec3(sk.offsets, lower));
  const l2 = length(readVec3(sk.offsets, end));
  const ik = twoBoneIK(root, target, l1, l2, pole, softness);
  const u = normalize(sub(ik.middle, root));
  const v = normalize(sub(ik.end, ik.middle));
  const theta = Math.min(160 * DEG, angleBetween(u, v));
  let upperW: Quat;
  let hinge: Quat;
  let axis: Vec3;
  if (kind === 'arm') {
    // Arm bone axis: local +X (left) / -X (right); elbow hinge about local ∓Y; hand goes towards local +Z.
    const s = side === 'left' ? 1 : -1;
    upperW = qFromTwoAxes(scale(u, s), scale(ik.bendDir, -1), 'xz');
    hinge = qFromAxisAngle([0, 1, 0], -s * theta);
    axis = [1, 0, 0];
  } else {
    // Leg bone axis: local -Y; knee hinge about local +X; the knee points to local +Z.
    upperW = qFromTwoAxes(scale(u, -1), ik.bendDir, 'yz');
    hinge = qFromAxisAngle([1, 0, 0], theta);
    axis = [0, 1, 0];
  }
  const lowerW0 = qMul(upperW, hinge);
  let lowerLocal = hinge;
  let endLocal: Quat = qIdentity();
  if (endWorld) {
    const rel = qMul(qConj(lowerW0), endWorld);
    const { twistAngle } = qSwingTwist(rel, axis);
    const maxTwist = kind === 'arm' ? 110 * DEG : 40 * DEG;
    const tw = Math.max(-maxTwist, Math.min(maxTwist, twistAngle));
    const twist = qFromAxisAngle(axis, tw);
    lowerLocal = qMul(hinge, twist);
    endLocal = clampAngle(qMul(qConj(twist), rel), kind === 'arm' ? 80 * DEG : 75 * DEG);
  }
  const upperLocal = qMul(qConj(parentW), upperW);
  writeQuat(local, localBase + upper, upperLocal);
  writeQuat(local, localBase + lower, lowerLocal);
  writeQuat(local, localBase + end, endLocal);
  // Update the pose of the three joints (children further down are refreshed by the caller's FK).
  const upW = qMul(parentW, upperLocal);
  writeQuat(pose.rotations, upper, upW);
  pose.positions.set(root, upper * 3);
  const loW = qMul(upW, lowerLocal);
  writeQuat(pose.rotations, lower, loW);
  const lowerPos = add(root, qRotate(upW, readVec3(sk.offsets, lower)));
  pose.positions.set(lowerPos, lower * 3);
  writeQuat(pose.rotations, end, qMul(loW, endLocal));
  pose.positions.set(add(lowerPos, qRotate(loW, readVec3(sk.offsets, end))), end * 3);
}

/**
 * Refines spine and clavicle rotations so the shoulder joints land on the shoulder landmarks (the analytic
 * spine split rarely puts them there exactly), by a few Levenberg–Marquardt steps over 15 parameters
 * (three spine joints, two clavicles) with priors: chest orientation near the shoulder/trunk frame (8°),
 * spine joints near the analytic split (20°), clavicles near rest (25°) with almost no twist (3°).
 */
function refineTorso(
  model: BodyModel,
  local: Float32Array | Float64Array,
  base: number,
  root: Vec3,
  chestTarget: Quat,
  shoulders: [Vec3, Vec3],
  shoulderWeights: [number, number],
): void {
  const j = model.joint;
  const sk = model.skeleton;
  const spineJ = [j.spine, j.spine1, j.spine2];
  const clavJ = [j.leftClavicle, j.rightClavicle];
  const uaJ = [j.leftUpperArm, j.rightUpperArm];
  const pelvis = readQuat(local, base + j.hips);
  const init = spineJ.map((k) => readQuat(local, base + k));
  const off = (k: number) => readVec3(sk.offsets, k);
  const oSpine = spineJ.map(off);
  const oClav = clavJ.map(off);
  const oUa = uaJ.map(off);
  const clav0 = clavJ.map((k) => qLog(readQuat(local, base + k)));
  const x0 = new Float64Array(15);
  for (let c = 0; c < 2; c++) x0.set(clav0[c], 9 + 3 * c);
  const sS = 0.01;
  const sC = 8 * DEG;
  const sR = 20 * DEG;
  const sCl = 25 * DEG;
  const sTw = 3 * DEG;
  const spineRots = (x: Float64Array): Quat[] =>
    init.map((q, k) => qMul(q, qExp([x[3 * k], x[3 * k + 1], x[3 * k + 2]])));
  const residuals = (x: Float64Array): Float64Array => {
    const r = new Float64Array(24);
    let q = pelvis;
    let p = root;
    const rots = spineRots(x);
    for (let k = 0; k < 3; k++) {
      p = add(p, qRotate(q, oSpine[k]));
      q = qMul(q, rots[k]);
    }
    for (let c = 0; c < 2; c++) {
      const cq = qExp([x[9 + 3 * c], x[10 + 3 * c], x[11 + 3 * c]]);
      const cp = add(p, qRotate(q, oClav[c]));
      const ua = add(cp, qRotate(qMul(q, cq), oUa[c]));
      const w = Math.sqrt(shoulderWeights[c]) / sS;
      for (let a = 0; a < 3; a++) r[3 * c + a] = (ua[a] - shoulders[c][a]) * w;
    }
    const e = qLog(qMul(qConj(chestTarget), q));
    for (let a = 0; a < 3; a++) r[6 + a] = e[a] / sC;
    for (let k = 0; k < 9; k++) r[9 + k] = x[k] / sR;
    for (let c = 0; c < 2; c++) {
      r[18 + 3 * c] = x[9 + 3 * c] / sTw;
      r[19 + 3 * c] = x[10 + 3 * c] / sCl;
      r[20 + 3 * c] = x[11 + 3 * c] / sCl;
    }
    return r;
  };
  const x = levenbergMarquardt(residuals, x0, 4);
  const rots = spineRots(x);
  for (let k = 0; k < 3; k++) writeQuat(local, base + spineJ[k], rots[k]);
  for (let c = 0; c < 2; c++) {
    writeQuat(
      local,
      base + clavJ[c],
      clampAngle(qExp([x[9 + 3 * c], x[10 + 3 * c], x[11 + 3 * c]]), 45 * DEG),
    );
  }
}

/** Spine shares of the pelvis→chest rotation. */
const SPINE_SHARE = [0.3, 0.35, 0.35];

/**
 * Fits one frame. Writes the local rotations of every body joint into `local` at `localBase` (a joint index
 * offset, i.e. frame * jointCount), finger joints untouched. Returns the root (hips) position and the
 * distance from the neck joint to where the face puts the head joint (used to calibrate the neck length).
 */
export function fitFrame(
  model: BodyModel,
  t: FrameTargets,
  local: Float32Array | Float64Array,
  localBase: number,
  pose: WorldPose,
): { root: Vec3; neckReach: number } {
  const j = model.joint;
  const sk = model.skeleton;
  const w = (i: number) => t.weights[i];
  let neckReach = Number.NaN;
  const lh = pt(t, LM.leftHip);
  const rh = pt(t, LM.rightHip);
  const ls = pt(t, LM.leftShoulder);
  const rs = pt(t, LM.rightShoulder);
  const hipC = mid(lh, rh);
  const shC = mid(ls, rs);
  const trunkUp = normalize(sub(shC, hipC));
  const thighL = normalize(sub(pt(t, LM.leftKnee), lh), [0, -1, 0]);
  const thighR = normalize(sub(pt(t, LM.rightKnee), rh), [0, -1, 0]);
  const legUp = normalize(scale(add(thighL, thighR), -1));
  const pelvisUp = normalize(add(scale(trunkUp, 0.75), scale(legUp, 0.25)));
  const hipX = normalize(sub(lh, rh), [1, 0, 0]);
  const pelvis = qFromTwoAxes(hipX, pelvisUp, 'xy');
  const chest = qFromTwoAxes(normalize(sub(ls, rs), [1, 0, 0]), trunkUp, 'xy');
  // Keep the chest on the same side as the pelvis (no flips through 180°).
  const rel = qMul(qConj(pelvis), chest);
  // Initialise all body joints to identity.
  for (let k = 0; k < sk.names.length; k++) writeQuat(local, localBase + k, qIdentity());
  writeQuat(local, localBase + j.hips, pelvis);
  writeQuat(local, localBase + j.spine, qPow(rel, SPINE_SHARE[0]));
  writeQuat(local, localBase + j.spine1, qPow(rel, SPINE_SHARE[1]));
  writeQuat(local, localBase + j.spine2, qPow(rel, SPINE_SHARE[2]));
  poseToWorld(sk, local, localBase * 4, hipC, pose);

  // Clavicles (initial swing; refined with the spine below).
  const spine2W0 = worldRot(pose, j.spine2);
  for (const side of SIDES) {
    const clav = j[`${side}Clavicle`];
    const ua = j[`${side}UpperArm`];
    const target = side === 'left' ? ls : rs;
    const cpos = worldPos(pose, clav);
    const restDir = normalize(readVec3(sk.offsets, ua));
    const dirLocal = normalize(qRotate(qConj(spine2W0), sub(target, cpos)), restDir);
    const swing = clampAngle(qFromUnitVectors(restDir, dirLocal), 35 * DEG);
    writeQuat(local, localBase + clav, swing);
  }
  refineTorso(model, local, localBase, hipC, chest, [ls, rs], [w(LM.leftShoulder), w(LM.rightShoulder)]);
  poseToWorld(sk, local, localBase * 4, hipC, pose);
  const spine2W = worldRot(pose, j.spine2);
  // Head and neck.
  const faceW = FACE_LANDMARKS.map(w);
  const headW = fitOrientation(
    model.face,
    FACE_LANDMARKS.map((i) => pt(t, i)),
    faceW,
  );
  poseToWorld(sk, local, localBase * 4, hipC, pose);
  if (headW) {
    // Head joint position: observed centroid minus the rotated template centroid.
    let ws = 0;
    let co: Vec3 = [0, 0, 0];
    let ct: Vec3 = [0, 0, 0];
    FACE_LANDMARKS.forEach((i, k) => {
      const wk = Math.max(faceW[k], 1e-3);
      ws += wk;
      co = addScaled(co, pt(t, i), wk);
      ct = addScaled(ct, model.face[k], wk);
    });
    const headPos = sub(scale(co, 1 / ws), qRotate(headW, scale(ct, 1 / ws)));
    const neckPos = worldPos(pose, j.neck);
    neckReach = distance(headPos, neckPos);
    const qMid = qSlerp(spine2W, headW, 0.5);
    const dir = normalize(sub(headPos, neckPos), qRotate(qMid, [0, 1, 0]));
    const neckW = qMul(qFromUnitVectors(qRotate(qMid, [0, 1, 0]), dir), qMid);
    const neckLocal = clampAngle(qMul(qConj(spine2W), neckW), 60 * DEG);
    writeQuat(local, localBase + j.neck, neckLocal);
    const neckW2 = qMul(spine2W, neckLocal);
    writeQuat(local, localBase + j.head, clampAngle(qMul(qConj(neckW2), headW), 80 * DEG));
  }
  // Limbs: each end (hand, foot) oriented by its template on its landmarks, then the limb reaches it.
  const limb = (side: Side, kind: 'arm' | 'leg', endI: number, marks: number[], template: Vec3[]): void => {
    const end = pt(t, endI);
    const endW = fitOrientation(
      [[0, 0, 0], ...template],
      [end, ...marks.map((i) => pt(t, i))],
      [w(endI), ...marks.map(w)],
    );
    solveLimb(
      model,
      side,
      kind,
      end,
      t.poles[`${side}${kind === 'arm' ? 'Arm' : 'Leg'}`],
      endW,
      local,
      localBase,
      pose,
    );
  };
  for (const side of SIDES) {
    const L = side === 'left';
    limb(
      side,
      'arm',
      L ? LM.leftWrist : LM.rightWrist,
      L ? [LM.leftIndex, LM.leftPinky, LM.leftThumb] : [LM.rightIndex, LM.rightPinky, LM.rightThumb],
      model.hand[side],
    );
    limb(
      side,
      'leg',
      L ? LM.leftAnkle : LM.rightAnkle,
      L ? [LM.leftHeel, LM.leftFootIndex] : [LM.rightHeel, LM.rightFootIndex],
      model.foot[side],
    );
  }
  poseToWorld(sk, local, localBase * 4, hipC, pose);
  return { root: hipC, neckReach };
}

/** Raw pole vectors of a frame, from the landmarks (elbow/knee offsets from the limb lines). */
export function framePoles(points: ArrayLike<number>, f: number): Poles {
  const p = (i: number): Vec3 => {
    const o = (f * NUM_LANDMARKS + i) * 3;
    return [points[o], points[o + 1], points[o + 2]];
  };
  return {
    leftArm: limbPole(p(LM.leftShoulder), p(LM.leftElbow), p(LM.leftWrist)),
    rightArm: limbPole(p(LM.rightShoulder), p(LM.rightElbow), p(LM.rightWrist)),
    leftLeg: limbPole(p(LM.leftHip), p(LM.leftKnee), p(LM.leftAnkle)),
    rightLeg: limbPole(p(LM.rightHip), p(LM.rightKnee), p(LM.rightAnkle)),
  };
}

/**
 * Default pole directions, used with a small weight so a straight limb still gets a sensible bend plane:
 * knees point along the foot (heel → toe, plus a little of the body's forward for pointed toes), elbows point
 * backward and slightly down.
 */
export function defaultPoles(points: ArrayLike<number>, f: number): Poles {
  const p = (i: number): Vec3 => {
    const o = (f * NUM_LANDMARKS + i) * 3;
    return [points[o], points[o + 1], points[o + 2]];
  };
  const x = normalize(sub(p(LM.leftHip), p(LM.rightHip)), [1, 0, 0]);
  const up = normalize(sub(mid(p(LM.leftShoulder), p(LM.rightShoulder)), mid(p(LM.leftHip), p(LM.rightHip))));
  const fwd = normalize(cross(x, up), [0, 0, 1]);
  const back = scale(fwd, -1);
  const elbow = normalize(addScaled(back, up, -0.3));
  // A straight leg's knee points where the foot points (turned-out feet turn the knees out); when the foot
  // points along the leg (toes pointed), the body's forward decides.
  const knee = (hip: number, ankle: number, heel: number, toe: number) => {
    const axis = normalize(sub(p(ankle), p(hip)), [0, -1, 0]);
    const foot = rejectFrom(normalize(sub(p(toe), p(heel)), fwd), axis);
    return normalize(addScaled(foot, rejectFrom(fwd, axis), 0.3), fwd);
  };
  return {
    leftArm: elbow,
    rightArm: elbow,
    leftLeg: knee(LM.leftHip, LM.leftAnkle, LM.leftHeel, LM.leftFootIndex),
    rightLeg: knee(LM.rightHip, LM.rightAnkle, LM.rightHeel, LM.rightFootIndex),
  };
}

/** Mean distance between two landmark arrays (diagnostics). */
export function meanLandmarkDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < NUM_LANDMARKS; i++) {
    s += distance([a[i * 3], a[i * 3 + 1], a[i * 3 + 2]], [b[i * 3], b[i * 3 + 1], b[i * 3 + 2]]);
  }
  return s / NUM_LANDMARKS;
}

export { dot };
