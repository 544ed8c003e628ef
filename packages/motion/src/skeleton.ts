/**
 * The canonical skeleton every solved MotionClip uses (retargeting to product rigs starts from it).
 *
 * Rest pose: a T-pose in the MotionClip convention (Y up, metres, facing +Z, the character's left on +X),
 * every joint's rest rotation the identity (joint axes = world axes in the rest pose), feet flat on the floor
 * (y = 0), arms straight out along ±X with the palms down, fingers straight, thumbs pointing forward.
 *
 * Hierarchy (22 body joints, plus 15 finger joints per hand when `fingers` is on):
 *
 *     hips (root: the midpoint of the two hip joints)
 *     ├─ spine ─ spine1 ─ spine2 ─┬─ neck ─ head
 *     │                           ├─ leftClavicle ─ leftUpperArm ─ leftForearm ─ leftHand ─ [fingers]
 *     │                           └─ rightClavicle ─ rightUpperArm ─ rightForearm ─ rightHand ─ [fingers]
 *     ├─ leftThigh ─ leftShin ─ leftFoot ─ leftToes
 *     └─ rightThigh ─ rightShin ─ rightFoot ─ rightToes
 *
 * Finger joints per hand `<side>{Thumb,Index,Middle,Ring,Pinky}{1,2,3}`: 1 = the knuckle at the palm
 * (thumb: the carpometacarpal joint), 2 and 3 the next two joints; every last joint has a tip.
 *
 * Joint positions against the BlazePose landmarks (how the solver maps them): `left/rightThigh` = hip
 * landmarks, `*Shin` = knees, `*Foot` = ankles, `*UpperArm` = shoulders, `*Forearm` = elbows, `*Hand` = wrists.
 */

import type { Skeleton } from './clip.ts';
import type { Vec3 } from './math.ts';

/** Measurements that define a body, metres. */
export interface BodyProportions {
  /** Half the distance between the hip joints. */
  hipHalfWidth: number;
  /** Hip joint → knee. */
  thigh: number;
  /** Knee → ankle. */
  shin: number;
  /** Height of the ankle joint above the sole (the floor when standing). */
  ankleHeight: number;
  /** Horizontal distance from the ankle back to the heel point. */
  heelBack: number;
  /** Horizontal distance from the ankle forward to the toe tip (the `foot_index` point). */
  footForward: number;
  /** Hip midpoint → shoulder midpoint, vertical in the rest pose. */
  torso: number;
  /** Half the distance between the shoulder joints. */
  shoulderHalfWidth: number;
  /** Shoulder → elbow. */
  upperArm: number;
  /** Elbow → wrist. */
  forearm: number;
  /** Wrist → middle-finger knuckle. */
  palm: number;
  /** Neck joint (at shoulder height) → head joint (skull base). */
  neck: number;
  /** Head joint → top of the head. */
  headTop: number;
}

/** An adult of 1.75 m. */
export const DEFAULT_PROPORTIONS: Readonly<BodyProportions> = Object.freeze({
  hipHalfWidth: 0.09,
  thigh: 0.43,
  shin: 0.43,
  ankleHeight: 0.075,
  heelBack: 0.055,
  footForward: 0.185,
  torso: 0.5,
  shoulderHalfWidth: 0.18,
  upperArm: 0.28,
  forearm: 0.26,
  palm: 0.09,
  neck: 0.16,
  headTop: 0.155,
});

/** Floor to the top of the head in the rest pose. */
export function standingHeight(p: BodyProportions): number {
  return p.ankleHeight + p.shin + p.thigh + p.torso + p.neck + p.headTop;
}

/** Every length multiplied by `s`. */
export function scaleProportions(p: BodyProportions, s: number): BodyProportions {
  const out = { ...p };
  for (const k of Object.keys(out) as (keyof BodyProportions)[]) out[k] *= s;
  return out;
}

export const SIDES = ['left', 'right'] as const;
export type Side = (typeof SIDES)[number];
export const FINGERS = ['Thumb', 'Index', 'Middle', 'Ring', 'Pinky'] as const;
export type Finger = (typeof FINGERS)[number];

/** Finger joint names of one hand, finger by finger, proximal first. */
export function fingerJointNames(side: Side): string[] {
  return FINGERS.flatMap((f) => [1, 2, 3].map((k) => `${side}${f}${k}`));
}

/**
 * Finger geometry of a left hand in the hand's rest frame (hand along +X, palm down, thumb forward +Z),
 * as fractions of the palm length (wrist → middle knuckle): knuckle position and three segment lengths
 * (joint 1→2, 2→3, 3→tip), and the rest direction of the finger.
 */
export const FINGER_GEOMETRY: Record<Finger, { base: Vec3; segments: [number, number, number]; dir: Vec3 }> =
  {
    Thumb: { base: [0.28, -0.12, 0.26], segments: [0.5, 0.36, 0.3], dir: [0.6, -0.25, 0.76] },
    Index: { base: [0.96, 0, 0.25], segments: [0.44, 0.27, 0.22], dir: [1, 0, 0.05] },
    Middle: { base: [1, 0, 0.03], segments: [0.48, 0.3, 0.24], dir: [1, 0, 0] },
    Ring: { base: [0.95, 0, -0.18], segments: [0.44, 0.28, 0.23], dir: [1, 0, -0.05] },
    Pinky: { base: [0.86, 0, -0.37], segments: [0.35, 0.22, 0.21], dir: [1, 0, -0.12] },
  };

export interface SkeletonOptions {
  /** Include the 15 finger joints per hand (default true). */
  fingers?: boolean;
  /** Finger segment lengths in metres by joint name (`leftIndex1` = joint 1 → 2), e.g. from hand tracks. */
  fingerLengths?: Record<string, number>;
}

interface JointDef {
  name: string;
  parent: string | null;
  offset: Vec3;
  tip?: Vec3;
}

const norm = (v: Vec3): Vec3 => {
  const l = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / l, v[1] / l, v[2] / l];
};

/** Builds the canonical skeleton for a body (default: `DEFAULT_PROPORTIONS`). */
export function createSkeleton(
  p: BodyProportions = DEFAULT_PROPORTIONS,
  opts: SkeletonOptions = {},
): Skeleton {
  const withFingers = opts.fingers ?? true;
  const T = p.torso;
  const hipHeight = p.ankleHeight + p.shin + p.thigh;
  const defs: JointDef[] = [
    { name: 'hips', parent: null, offset: [0, hipHeight, 0] },
    { name: 'spine', parent: 'hips', offset: [0, 0.1 * T, 0] },
    { name: 'spine1', parent: 'spine', offset: [0, 0.25 * T, 0] },
    { name: 'spine2', parent: 'spine1', offset: [0, 0.25 * T, 0] },
    { name: 'neck', parent: 'spine2', offset: [0, 0.4 * T, 0] },
    { name: 'head', parent: 'neck', offset: [0, p.neck, 0], tip: [0, p.headTop, 0] },
  ];
  for (const side of SIDES) {
    const s = side === 'left' ? 1 : -1;
    const clav = Math.min(0.025, 0.15 * p.shoulderHalfWidth);
    defs.push(
      { name: `${side}Clavicle`, parent: 'spine2', offset: [s * clav, 0.3 * T, 0] },
      {
        name: `${side}UpperArm`,
        parent: `${side}Clavicle`,
        offset: [s * (p.shoulderHalfWidth - clav), 0.1 * T, 0],
      },
      { name: `${side}Forearm`, parent: `${side}UpperArm`, offset: [s * p.upperArm, 0, 0] },
      {
        name: `${side}Hand`,
        parent: `${side}Forearm`,
        offset: [s * p.forearm, 0, 0],
        ...(withFingers ? {} : { tip: [s * p.palm * 1.9, 0, 0] as Vec3 }),
      },
    );
    if (withFingers) {
      for (const f of FINGERS) {
        const g = FINGER_GEOMETRY[f];
        const dir = norm(g.dir);
        const mirror = (v: Vec3): Vec3 => [s * v[0], v[1], v[2]];
        let parent = `${side}Hand`;
        let offset: Vec3 = mirror([g.base[0] * p.palm, g.base[1] * p.palm, g.base[2] * p.palm]);
        for (let k = 1; k <= 3; k++) {
          const name = `${side}${f}${k}`;
          const len = opts.fingerLengths?.[name] ?? g.segments[k - 1] * p.palm;
          const seg = mirror([dir[0] * len, dir[1] * len, dir[2] * len]);
          defs.push({ name, parent, offset, ...(k === 3 ? { tip: seg } : {}) });
          parent = name;
          offset = seg;
        }
      }
    }
  }
  for (const side of SIDES) {
    const s = side === 'left' ? 1 : -1;
    const toesBack = 0.3 * (p.footForward + p.heelBack);
    defs.push(
      { name: `${side}Thigh`, parent: 'hips', offset: [s * p.hipHalfWidth, 0, 0] },
      { name: `${side}Shin`, parent: `${side}Thigh`, offset: [0, -p.thigh, 0] },
      { name: `${side}Foot`, parent: `${side}Shin`, offset: [0, -p.shin, 0] },
      {
        name: `${side}Toes`,
        parent: `${side}Foot`,
        offset: [0, -p.ankleHeight + 0.025, p.footForward - toesBack],
        tip: [0, -0.025, toesBack],
      },
    );
  }
  const names = defs.map((d) => d.name);
  const n = defs.length;
  const offsets = new Float32Array(3 * n);
  const tips = new Float32Array(3 * n);
  const restRotations = new Float32Array(4 * n);
  const parents = defs.map((d) => (d.parent === null ? -1 : names.indexOf(d.parent)));
  defs.forEach((d, j) => {
    offsets.set(d.offset, 3 * j);
    if (d.tip) tips.set(d.tip, 3 * j);
    restRotations[4 * j + 3] = 1;
  });
  return { names, parents, offsets, restRotations, tips };
}

/** True when the skeleton has finger joints. */
export function hasFingers(s: Skeleton): boolean {
  return s.names.includes('leftIndex1');
}

/** Names of the 22 body joints of the canonical skeleton, in skeleton order. */
export const BODY_JOINTS = createSkeleton(DEFAULT_PROPORTIONS, { fingers: false }).names;
