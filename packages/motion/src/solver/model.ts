/**
 * The body model the solver fits: the canonical skeleton with measured proportions, plus where each of the
 * 33 BlazePose landmarks sits on it (a joint and an offset in that joint's frame), and its calibration from
 * landmark data.
 *
 * Landmark attachments: hips → `*Thigh`, knees → `*Shin`, ankles → `*Foot`, shoulders → `*UpperArm`,
 * elbows → `*Forearm`, wrists → `*Hand` (offset 0); heel and foot index → a template in the foot frame;
 * index, pinky and thumb → a template in the hand frame; nose, eyes, ears and mouth → a template in the head
 * frame. Templates are measured from the data (robust medians over confident frames, left and right made
 * mirror-symmetric), each in a frame defined the same way as the rest pose:
 * - foot: +Z from heel to foot index (the sole is level in the rest pose), +Y towards the ankle;
 * - hand: ±X from the wrist to the middle of index and pinky (+X on the left hand), +Z towards the index
 *   side (the thumb points forward in the T-pose, palms down);
 * - head: +X from the right ear to the left ear, +Y from the mouth to the eyes, +Z forward (out of the face).
 */

import type { Skeleton } from '../clip.ts';
import { pointInJoint, type WorldPose } from '../clip.ts';
import {
  add,
  cross,
  distance,
  length,
  median,
  mid,
  normalize,
  type Quat,
  qConj,
  qFromBasis,
  qRotate,
  rejectFrom,
  scale,
  sub,
  type Vec3,
} from '../math.ts';
import {
  type BodyProportions,
  createSkeleton,
  DEFAULT_PROPORTIONS,
  SIDES,
  type Side,
  scaleProportions,
  standingHeight,
} from '../skeleton.ts';
import { FACE_LANDMARKS, LM, MIRROR, MIRROR_PAIRS, NUM_LANDMARKS } from './input.ts';

/** Offsets of index, pinky, thumb (that order) from the wrist in the hand frame. */
export type HandTemplate = [Vec3, Vec3, Vec3];
/** Offsets of heel and foot index from the ankle in the foot frame (equal heights: the sole is level). */
export type FootTemplate = [Vec3, Vec3];

export interface BodyModel {
  proportions: BodyProportions;
  skeleton: Skeleton;
  /** Joint index by name. */
  joint: Record<string, number>;
  /** Per landmark: the joint it is attached to and its offset in that joint's frame. */
  attach: { joint: number; offset: Vec3 }[];
  hand: Record<Side, HandTemplate>;
  foot: Record<Side, FootTemplate>;
  /** Face landmarks 0..10 relative to the head joint, head frame. */
  face: Vec3[];
  /** Head joint position relative to the ear midpoint, head frame. */
  headFromEars: Vec3;
}

const mirror = (v: Vec3): Vec3 => [-v[0], v[1], v[2]];

/** Default templates for a 1.75 m adult (scaled with the body). */
const DEFAULT_HAND: HandTemplate = [
  [0.085, 0, 0.022],
  [0.075, 0, -0.032],
  [0.05, -0.01, 0.045],
];
const DEFAULT_FACE_FROM_EARS: Vec3[] = [
  [0, 0.005, 0.11], // nose
  [0.017, 0.035, 0.088], // left eye inner
  [0.032, 0.035, 0.085], // left eye
  [0.047, 0.035, 0.078], // left eye outer
  [-0.017, 0.035, 0.088],
  [-0.032, 0.035, 0.085],
  [-0.047, 0.035, 0.078],
  [0.072, 0, 0], // left ear
  [-0.072, 0, 0],
  [0.025, -0.045, 0.09], // mouth left
  [-0.025, -0.045, 0.09],
];
const HEAD_FROM_EARS: Vec3 = [0, -0.02, 0];

function footFromProportions(p: BodyProportions, lateral = 0): FootTemplate {
  return [
    [lateral, -p.ankleHeight, -p.heelBack],
    [lateral, -p.ankleHeight, p.footForward],
  ];
}

/** Builds a body model from proportions and templates (defaults: the template of a 1.75 m adult, scaled). */
export function buildModel(
  proportions: BodyProportions,
  templates: { hand?: HandTemplate; face?: Vec3[]; headFromEars?: Vec3; footLateral?: number } = {},
  fingers = true,
  fingerLengths?: Record<string, number>,
): BodyModel {
  const k = standingHeight(proportions) / standingHeight(DEFAULT_PROPORTIONS);
  const skeleton = createSkeleton(proportions, { fingers, fingerLengths });
  const joint: Record<string, number> = {};
  skeleton.names.forEach((n, i) => {
    joint[n] = i;
  });
  const handL = templates.hand ?? (DEFAULT_HAND.map((v) => scale(v, k)) as HandTemplate);
  const hand: Record<Side, HandTemplate> = { left: handL, right: handL.map(mirror) as HandTemplate };
  const footL = footFromProportions(proportions, templates.footLateral ?? 0);
  const foot: Record<Side, FootTemplate> = { left: footL, right: footL.map(mirror) as FootTemplate };
  const headFromEars = templates.headFromEars ?? scale(HEAD_FROM_EARS, k);
  const face = templates.face ?? DEFAULT_FACE_FROM_EARS.map((v) => sub(scale(v, k), headFromEars));
  const attach: { joint: number; offset: Vec3 }[] = new Array(NUM_LANDMARKS);
  for (let i = 0; i < FACE_LANDMARKS.length; i++)
    attach[FACE_LANDMARKS[i]] = { joint: joint.head, offset: face[i] };
  for (const side of SIDES) {
    const L = side === 'left';
    const at = (lm: number, name: string, offset: Vec3 = [0, 0, 0]) => {
      attach[lm] = { joint: joint[`${side}${name}`], offset };
    };
    at(L ? LM.leftShoulder : LM.rightShoulder, 'UpperArm');
    at(L ? LM.leftElbow : LM.rightElbow, 'Forearm');
    at(L ? LM.leftWrist : LM.rightWrist, 'Hand');
    at(L ? LM.leftIndex : LM.rightIndex, 'Hand', hand[side][0]);
    at(L ? LM.leftPinky : LM.rightPinky, 'Hand', hand[side][1]);
    at(L ? LM.leftThumb : LM.rightThumb, 'Hand', hand[side][2]);
    at(L ? LM.leftHip : LM.rightHip, 'Thigh');
    at(L ? LM.leftKnee : LM.rightKnee, 'Shin');
    at(L ? LM.leftAnkle : LM.rightAnkle, 'Foot');
    at(L ? LM.leftHeel : LM.rightHeel, 'Foot', foot[side][0]);
    at(L ? LM.leftFootIndex : LM.rightFootIndex, 'Foot', foot[side][1]);
  }
  return { proportions, skeleton, joint, attach, hand, foot, face, headFromEars };
}

/** Predicted landmark positions `[33 × 3]` for a world pose of the model's skeleton. */
export function predictLandmarks(
  model: BodyModel,
  pose: WorldPose,
  out = new Float64Array(NUM_LANDMARKS * 3),
) {
  for (let i = 0; i < NUM_LANDMARKS; i++) {
    const a = model.attach[i];
    const p = pointInJoint(pose, a.joint, a.offset);
    out[i * 3] = p[0];
    out[i * 3 + 1] = p[1];
    out[i * 3 + 2] = p[2];
  }
  return out;
}

// ---------------------------------------------------------------- frames from landmarks

/** Foot frame (rotation local → body) from ankle, heel and foot index. */
export function footFrame(ankle: Vec3, heel: Vec3, toe: Vec3): Quat {
  const z = normalize(sub(toe, heel), [0, 0, 1]);
  const y = normalize(rejectFrom(sub(ankle, heel), z), [0, 1, 0]);
  return qFromBasis(cross(y, z), y, z);
}

/** Hand frame from wrist, index and pinky. */
export function handFrame(side: Side, wrist: Vec3, index: Vec3, pinky: Vec3): Quat {
  const along = normalize(sub(mid(index, pinky), wrist), [side === 'left' ? 1 : -1, 0, 0]);
  const x = side === 'left' ? along : scale(along, -1);
  const z = normalize(rejectFrom(sub(index, pinky), x), [0, 0, 1]);
  return qFromBasis(x, cross(z, x), z);
}

/** Head frame from the ears, eye centres and mouth corners. */
export function headFrame(lEar: Vec3, rEar: Vec3, lEye: Vec3, rEye: Vec3, lMouth: Vec3, rMouth: Vec3): Quat {
  const x = normalize(sub(lEar, rEar), [1, 0, 0]);
  const y = normalize(rejectFrom(sub(mid(lEye, rEye), mid(lMouth, rMouth)), x), [0, 1, 0]);
  return qFromBasis(x, y, cross(x, y));
}

/** `headFrame` of the ear, eye and mouth landmarks `pt` gives. */
function headFrameOf(pt: (i: number) => Vec3): Quat {
  return headFrame(
    pt(LM.leftEar),
    pt(LM.rightEar),
    pt(LM.leftEye),
    pt(LM.rightEye),
    pt(LM.mouthLeft),
    pt(LM.mouthRight),
  );
}

// ---------------------------------------------------------------- calibration

export interface CalibrationInput {
  N: number;
  /** Body-space landmark positions `[N × 33 × 3]`. */
  points: ArrayLike<number>;
  /** Weights `[N × 33]`. */
  weight: ArrayLike<number>;
}

const P = (inp: CalibrationInput, f: number, i: number): Vec3 => {
  const o = (f * NUM_LANDMARKS + i) * 3;
  return [inp.points[o], inp.points[o + 1], inp.points[o + 2]];
};
const Wt = (inp: CalibrationInput, f: number, i: number) => inp.weight[f * NUM_LANDMARKS + i];

/** Frames where all the given landmarks are confident (weight ≥ minWeight); all frames if none qualify. */
function confidentFrames(inp: CalibrationInput, lms: number[], minWeight = 0.7): number[] {
  const out: number[] = [];
  for (let f = 0; f < inp.N; f++) if (lms.every((i) => Wt(inp, f, i) >= minWeight)) out.push(f);
  return out;
}

function medianVec(vs: Vec3[]): Vec3 {
  return [median(vs.map((v) => v[0])), median(vs.map((v) => v[1])), median(vs.map((v) => v[2]))];
}

/** Median distance between two landmark pairs pooled (left and right together → symmetric). */
function pooledLength(inp: CalibrationInput, pairs: [number, number][]): number {
  const vals: number[] = [];
  for (const [a, b] of pairs)
    for (const f of confidentFrames(inp, [a, b])) vals.push(distance(P(inp, f, a), P(inp, f, b)));
  return median(vals);
}

export interface CalibrationResult {
  proportions: BodyProportions;
  /** Sideways offset of the sole line from the ankle, left foot frame (+X = outwards). */
  footLateral: number;
  hand: HandTemplate;
  face: Vec3[];
  headFromEars: Vec3;
  /** Frames used per measurement (for diagnostics). */
  frames: number;
}

/**
 * Measures the body from landmark positions: bone lengths (medians over confident frames, left and right
 * pooled so the skeleton is symmetric), the foot/hand/face templates, the neck length (shoulder midpoint →
 * head joint). Measurements with no confident frame keep the default adult's value scaled to the others.
 */
export function calibrate(inp: CalibrationInput): CalibrationResult {
  const d = DEFAULT_PROPORTIONS;
  // A left segment pooled with its mirror on the right.
  const sided = (a: number, b: number) =>
    pooledLength(inp, [
      [a, b],
      [MIRROR[a], MIRROR[b]],
    ]);
  const thigh = sided(LM.leftHip, LM.leftKnee);
  const shin = sided(LM.leftKnee, LM.leftAnkle);
  const upperArm = sided(LM.leftShoulder, LM.leftElbow);
  const forearm = sided(LM.leftElbow, LM.leftWrist);
  const hipWidth = pooledLength(inp, [[LM.leftHip, LM.rightHip]]);
  const shoulderWidth = pooledLength(inp, [[LM.leftShoulder, LM.rightShoulder]]);
  const torsoVals: number[] = [];
  for (const f of confidentFrames(inp, [LM.leftHip, LM.rightHip, LM.leftShoulder, LM.rightShoulder])) {
    torsoVals.push(
      distance(
        mid(P(inp, f, LM.leftHip), P(inp, f, LM.rightHip)),
        mid(P(inp, f, LM.leftShoulder), P(inp, f, LM.rightShoulder)),
      ),
    );
  }
  const torso = median(torsoVals);

  // A common scale from whatever was measured, to fill what was not.
  const ratios = [
    thigh / d.thigh,
    shin / d.shin,
    upperArm / d.upperArm,
    forearm / d.forearm,
    torso / d.torso,
    hipWidth / (2 * d.hipHalfWidth),
    shoulderWidth / (2 * d.shoulderHalfWidth),
  ].filter((r) => Number.isFinite(r) && r > 0.3 && r < 3);
  const k = ratios.length ? median(ratios) : 1;
  const or = (v: number, def: number) => (Number.isFinite(v) && v > 0 ? v : def * k);

  // Foot template (left frame; right mirrored and pooled).
  const footSamples: { heel: Vec3; toe: Vec3 }[] = [];
  for (const side of SIDES) {
    const L = side === 'left';
    const [a, h, t] = L
      ? [LM.leftAnkle, LM.leftHeel, LM.leftFootIndex]
      : [LM.rightAnkle, LM.rightHeel, LM.rightFootIndex];
    for (const f of confidentFrames(inp, [a, h, t])) {
      const ankle = P(inp, f, a);
      const q = qConj(footFrame(ankle, P(inp, f, h), P(inp, f, t)));
      let heel = qRotate(q, sub(P(inp, f, h), ankle));
      let toe = qRotate(q, sub(P(inp, f, t), ankle));
      if (!L) {
        heel = mirror(heel);
        toe = mirror(toe);
      }
      footSamples.push({ heel, toe });
    }
  }
  let footLateral = 0;
  let ankleHeight = d.ankleHeight * k;
  let heelBack = d.heelBack * k;
  let footForward = d.footForward * k;
  if (footSamples.length > 0) {
    const heel = medianVec(footSamples.map((s) => s.heel));
    const toe = medianVec(footSamples.map((s) => s.toe));
    ankleHeight = -(heel[1] + toe[1]) / 2;
    heelBack = -heel[2];
    footForward = toe[2];
    footLateral = (heel[0] + toe[0]) / 2;
  }

  // Hand template.
  const handSamples: Vec3[][] = [];
  for (const side of SIDES) {
    const L = side === 'left';
    const [w, i, p, t] = L
      ? [LM.leftWrist, LM.leftIndex, LM.leftPinky, LM.leftThumb]
      : [LM.rightWrist, LM.rightIndex, LM.rightPinky, LM.rightThumb];
    for (const f of confidentFrames(inp, [w, i, p, t])) {
      const wrist = P(inp, f, w);
      const q = qConj(handFrame(side, wrist, P(inp, f, i), P(inp, f, p)));
      const pts = [i, p, t].map((lm) => qRotate(q, sub(P(inp, f, lm), wrist)));
      handSamples.push(L ? pts : pts.map(mirror));
    }
  }
  const hand: HandTemplate | undefined = handSamples.length
    ? ([0, 1, 2].map((m) => medianVec(handSamples.map((s) => s[m]))) as HandTemplate)
    : undefined;
  const palm = hand ? 1.1 * length(mid(hand[0], hand[1])) : d.palm * k;

  // Face template, relative to the ear midpoint, symmetrised.
  const faceSamples: Vec3[][] = [];
  for (const f of confidentFrames(inp, FACE_LANDMARKS, 0.6)) {
    const pt = (i: number) => P(inp, f, i);
    const q = qConj(headFrameOf(pt));
    const ears = mid(pt(LM.leftEar), pt(LM.rightEar));
    faceSamples.push(FACE_LANDMARKS.map((i) => qRotate(q, sub(pt(i), ears))));
  }
  let earDistance = 0.144 * k;
  let faceFromEars: Vec3[] | undefined;
  if (faceSamples.length > 0) {
    const raw = FACE_LANDMARKS.map((_, m) => medianVec(faceSamples.map((s) => s[m])));
    // Mirror pairs (left, right) of the face (face index = landmark index): eyes, ears, mouth.
    faceFromEars = raw.map((v) => [...v] as Vec3);
    faceFromEars[0] = [0, raw[0][1], raw[0][2]];
    for (const [l, r] of MIRROR_PAIRS.filter(([, b]) => b < FACE_LANDMARKS.length)) {
      const s = scale(add(raw[l], mirror(raw[r])), 0.5);
      faceFromEars[l] = s;
      faceFromEars[r] = mirror(s);
    }
    earDistance = 2 * Math.abs(faceFromEars[7][0]);
  }
  const headScale = earDistance / 0.144;
  const headFromEars = scale(HEAD_FROM_EARS, headScale);
  // Neck: shoulder midpoint (the neck joint) → head joint, which sits below the ear midpoint.
  const neckVals: number[] = [];
  for (const f of confidentFrames(inp, [
    LM.leftShoulder,
    LM.rightShoulder,
    LM.leftEar,
    LM.rightEar,
    LM.leftEye,
    LM.rightEye,
    LM.mouthLeft,
    LM.mouthRight,
  ])) {
    const pt = (i: number) => P(inp, f, i);
    const q = headFrameOf(pt);
    const head = add(mid(pt(LM.leftEar), pt(LM.rightEar)), qRotate(q, headFromEars));
    neckVals.push(distance(head, mid(pt(LM.leftShoulder), pt(LM.rightShoulder))));
  }
  const proportions: BodyProportions = {
    hipHalfWidth: or(hipWidth / 2, d.hipHalfWidth),
    thigh: or(thigh, d.thigh),
    shin: or(shin, d.shin),
    ankleHeight,
    heelBack,
    footForward,
    torso: or(torso, d.torso),
    shoulderHalfWidth: or(shoulderWidth / 2, d.shoulderHalfWidth),
    upperArm: or(upperArm, d.upperArm),
    forearm: or(forearm, d.forearm),
    palm,
    neck: or(median(neckVals), d.neck),
    headTop: 1.07 * earDistance,
  };
  const face = faceFromEars ? faceFromEars.map((v) => sub(v, headFromEars)) : undefined;
  return {
    proportions,
    footLateral,
    hand: hand ?? (DEFAULT_HAND.map((v) => scale(v, k)) as HandTemplate),
    face: face ?? DEFAULT_FACE_FROM_EARS.map((v) => sub(scale(v, headScale), headFromEars)),
    headFromEars,
    frames: torsoVals.length,
  };
}

/** Scales a calibration (all lengths and templates) by s. */
export function scaleCalibration(c: CalibrationResult, s: number): CalibrationResult {
  return {
    proportions: scaleProportions(c.proportions, s),
    footLateral: c.footLateral * s,
    hand: c.hand.map((v) => scale(v, s)) as HandTemplate,
    face: c.face.map((v) => scale(v, s)),
    headFromEars: scale(c.headFromEars, s),
    frames: c.frames,
  };
}

/** Hip midpoint of a landmark frame. */
export function hipMid(points: ArrayLike<number>, f: number): Vec3 {
  const o = f * NUM_LANDMARKS * 3;
  const l = LM.leftHip * 3 + o;
  const r = LM.rightHip * 3 + o;
  return [
    (points[l] + points[r]) / 2,
    (points[l + 1] + points[r + 1]) / 2,
    (points[l + 2] + points[r + 2]) / 2,
  ];
}
