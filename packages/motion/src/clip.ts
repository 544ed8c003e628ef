/**
 * MotionClip: the format-neutral animation every stage after the solver works on
 * (`tracks → MotionClip → retargeted clip → file bytes`).
 *
 * One convention inside, and each writer converts at its own edge:
 * - right-handed, **Y up**, **metres**, seconds;
 * - the character's rest pose faces **+Z**, its left side is **+X** (glTF / VRM 1.0 convention);
 * - quaternions are `[x, y, z, w]`, unit length; a child's world rotation is `parentWorld · local`
 *   (see `math.ts`).
 *
 * A joint's local transform at frame f is `translate(offset) · rotate(rotation[f])`:
 * - `skeleton.offsets[j]` is the joint's position in its parent's local frame (the bone from parent to joint),
 *   fixed over the clip (bone lengths are constant by construction);
 * - `rotations[f][j]` is the joint's local rotation relative to its parent, *absolute* (not a delta from the
 *   rest pose): in the rest pose it equals `skeleton.restRotations[j]`;
 * - the root (joint 0, the only joint without a parent) is placed in the world at `rootPositions[f]`
 *   (its world position, not added to its offset; the root's offset is only its rest position).
 *
 * The canonical skeleton (`skeleton.ts`) has identity rest rotations: every joint's axes are the world axes
 * in the rest pose (a T-pose), so `rotations` are directly what a BVH file stores.
 */

import {
  type Quat,
  qIdentity,
  qMul,
  qRotate,
  readQuat,
  readVec3,
  type Vec3,
  writeQuat,
  writeVec3,
} from './math.ts';

export interface Skeleton {
  /** Joint names, unique. Parents always come before their children, so index order is a valid FK order. */
  readonly names: readonly string[];
  /** Parent index per joint; -1 for the root, which is joint 0 and the only root. */
  readonly parents: readonly number[];
  /** Rest offset of each joint from its parent in the parent's local frame, metres, `[3 × jointCount]`.
   *  For the root: its rest position in the world. */
  readonly offsets: Float32Array;
  /** Rest local rotation of each joint, `[4 × jointCount]` (x, y, z, w). Identity for the canonical skeleton. */
  readonly restRotations: Float32Array;
  /** End point of each joint's bone for joints without children (BVH `End Site`), in the joint's local
   *  frame, metres, `[3 × jointCount]`; zero for joints with children or without a known tip. */
  readonly tips: Float32Array;
}

/** The 52 ARKit face blendshape names, in Apple's documented order. */
export const ARKIT_BLENDSHAPES = [
  'eyeBlinkLeft',
  'eyeLookDownLeft',
  'eyeLookInLeft',
  'eyeLookOutLeft',
  'eyeLookUpLeft',
  'eyeSquintLeft',
  'eyeWideLeft',
  'eyeBlinkRight',
  'eyeLookDownRight',
  'eyeLookInRight',
  'eyeLookOutRight',
  'eyeLookUpRight',
  'eyeSquintRight',
  'eyeWideRight',
  'jawForward',
  'jawLeft',
  'jawRight',
  'jawOpen',
  'mouthClose',
  'mouthFunnel',
  'mouthPucker',
  'mouthLeft',
  'mouthRight',
  'mouthSmileLeft',
  'mouthSmileRight',
  'mouthFrownLeft',
  'mouthFrownRight',
  'mouthDimpleLeft',
  'mouthDimpleRight',
  'mouthStretchLeft',
  'mouthStretchRight',
  'mouthRollLower',
  'mouthRollUpper',
  'mouthShrugLower',
  'mouthShrugUpper',
  'mouthPressLeft',
  'mouthPressRight',
  'mouthLowerDownLeft',
  'mouthLowerDownRight',
  'mouthUpperUpLeft',
  'mouthUpperUpRight',
  'browDownLeft',
  'browDownRight',
  'browInnerUp',
  'browOuterUpLeft',
  'browOuterUpRight',
  'cheekPuff',
  'cheekSquintLeft',
  'cheekSquintRight',
  'noseSneerLeft',
  'noseSneerRight',
  'tongueOut',
] as const;
export type ArkitBlendshape = (typeof ARKIT_BLENDSHAPES)[number];

/** Face blendshape curves: ARKit names ("Left" = the subject's own left), weights 0..1. */
export interface BlendshapeCurves {
  /** Always all 52 names in `ARKIT_BLENDSHAPES` order. */
  readonly names: readonly ArkitBlendshape[];
  /** `weights[f * 52 + k]`: weight of `names[k]` at frame f, 0..1. Unsupported shapes stay 0. */
  readonly weights: Float32Array;
  /** The names the solver actually estimates (the others are constant 0). */
  readonly supported: readonly ArkitBlendshape[];
}

/** Per-frame foot contact flags (1 = planted on the floor), as detected/used by the solver. */
export interface FootContacts {
  readonly left: Uint8Array;
  readonly right: Uint8Array;
}

export interface ClipMetadata {
  /** Producer, e.g. `@mocap/motion solver`. */
  generator: string;
  /** Source (video file name, BVH name...). */
  source?: string;
  createdAt?: string;
  /** Standing height of the skeleton (floor to top of head in the rest pose), metres. */
  height?: number;
  /** Camera model the solver used: focal length in pixels, horizontal field of view, and where it came from. */
  camera?: { focalLengthPx: number; horizontalFovDeg: number; source: 'metadata' | 'option' | 'fov-guess' };
  /** Options the clip was produced with (solver options, for the record). */
  options?: Record<string, unknown>;
  /** Human-readable warnings (short tracks, guessed camera, no contacts found...). */
  warnings?: string[];
  /** Set by `resampleClip`: the frame rate the clip had before it was resampled to `fps`. */
  sourceFps?: number;
}

export interface MotionClip {
  readonly skeleton: Skeleton;
  /** Frames per second (constant frame rate; the solver resamples variable-frame-rate input). */
  readonly fps: number;
  readonly frameCount: number;
  /** `rotations[(f * jointCount + j) * 4 + k]`: local rotation of joint j at frame f (x, y, z, w). */
  readonly rotations: Float32Array;
  /** `rootPositions[f * 3 + k]`: world position of the root joint (hips) at frame f, metres. */
  readonly rootPositions: Float32Array;
  /** Foot contacts, when known. */
  readonly contacts?: FootContacts;
  /**
   * Per frame, the height (m, world Y) of the surface carrying the body, when the person stands on raised
   * ground for part of the clip (a box, a stage); absent: the floor at 0 throughout. Between two levels (a
   * step or jump up or down) the lower one.
   */
  readonly support?: Float32Array;
  /** Face blendshape curves, when a face was tracked. */
  readonly blendshapes?: BlendshapeCurves;
  readonly metadata: ClipMetadata;
}

export const jointCount = (s: Skeleton): number => s.names.length;

/** Index of a joint by name; -1 if absent. */
export function jointIndex(s: Skeleton, name: string): number {
  return s.names.indexOf(name);
}

/** Children indices per joint. */
export function childrenOf(s: Skeleton): number[][] {
  const out: number[][] = s.names.map(() => []);
  s.parents.forEach((p, j) => {
    if (p >= 0) out[p].push(j);
  });
  return out;
}

/** Checks the structural invariants of a skeleton; throws with a message naming the first problem. */
export function validateSkeleton(s: Skeleton): void {
  const n = s.names.length;
  if (n === 0) throw new Error('skeleton has no joints');
  if (new Set(s.names).size !== n) throw new Error('skeleton joint names are not unique');
  if (s.parents.length !== n) throw new Error('skeleton parents length mismatch');
  if (s.offsets.length !== 3 * n || s.tips.length !== 3 * n) throw new Error('skeleton offsets/tips length');
  if (s.restRotations.length !== 4 * n) throw new Error('skeleton restRotations length');
  if (s.parents[0] !== -1) throw new Error('joint 0 must be the root');
  for (let j = 1; j < n; j++) {
    const p = s.parents[j];
    if (!(p >= 0 && p < j)) throw new Error(`joint ${s.names[j]}: parent must come before the child`);
  }
}

/** Checks a clip's array sizes and that every value is finite. */
export function validateClip(clip: MotionClip): void {
  validateSkeleton(clip.skeleton);
  const n = jointCount(clip.skeleton);
  if (!(clip.fps > 0)) throw new Error('clip fps must be > 0');
  if (clip.rotations.length !== clip.frameCount * n * 4) throw new Error('clip rotations length mismatch');
  if (clip.rootPositions.length !== clip.frameCount * 3)
    throw new Error('clip rootPositions length mismatch');
  for (const v of clip.rotations) if (!Number.isFinite(v)) throw new Error('clip rotations contain NaN/Inf');
  for (const v of clip.rootPositions)
    if (!Number.isFinite(v)) throw new Error('clip rootPositions contain NaN/Inf');
  if (
    clip.blendshapes &&
    clip.blendshapes.weights.length !== clip.frameCount * clip.blendshapes.names.length
  ) {
    throw new Error('clip blendshape weights length mismatch');
  }
}

/** A clip holding the rest pose for `frameCount` frames, root at its rest offset. */
export function restClip(skeleton: Skeleton, frameCount: number, fps: number): MotionClip {
  const n = jointCount(skeleton);
  const rotations = new Float32Array(frameCount * n * 4);
  for (let f = 0; f < frameCount; f++) rotations.set(skeleton.restRotations, f * n * 4);
  const rootPositions = new Float32Array(frameCount * 3);
  for (let f = 0; f < frameCount; f++) rootPositions.set(skeleton.offsets.subarray(0, 3), f * 3);
  return {
    skeleton,
    fps,
    frameCount,
    rotations,
    rootPositions,
    metadata: { generator: '@mocap/motion restClip' },
  };
}

/** World pose of one frame: joint positions `[3n]` and world rotations `[4n]`. */
export interface WorldPose {
  positions: Float64Array;
  rotations: Float64Array;
}

/**
 * Forward kinematics of one pose: local rotations `local` (`[4n]` starting at `localOffset`) and the root's
 * world position → world positions and rotations of every joint. `out` is reused when given.
 */
export function poseToWorld(
  skeleton: Skeleton,
  local: ArrayLike<number>,
  localOffset: number,
  rootPosition: Vec3,
  out?: WorldPose,
): WorldPose {
  const n = skeleton.names.length;
  const res = out ?? { positions: new Float64Array(3 * n), rotations: new Float64Array(4 * n) };
  const { positions, rotations } = res;
  const base = localOffset / 4;
  for (let j = 0; j < n; j++) {
    const q = readQuat(local, base + j);
    const p = skeleton.parents[j];
    if (p < 0) {
      writeVec3(positions, j, rootPosition);
      writeQuat(rotations, j, q);
      continue;
    }
    const pr = readQuat(rotations, p);
    const pp = readVec3(positions, p);
    const o = qRotate(pr, readVec3(skeleton.offsets, j));
    writeVec3(positions, j, [pp[0] + o[0], pp[1] + o[1], pp[2] + o[2]]);
    writeQuat(rotations, j, qMul(pr, q));
  }
  return res;
}

/** Forward kinematics of a whole clip: `positions[(f * n + j) * 3 + k]`, `rotations[(f * n + j) * 4 + k]`. */
export function forwardKinematics(clip: MotionClip): { positions: Float32Array; rotations: Float32Array } {
  const n = jointCount(clip.skeleton);
  const positions = new Float32Array(clip.frameCount * n * 3);
  const rotations = new Float32Array(clip.frameCount * n * 4);
  const pose: WorldPose = { positions: new Float64Array(3 * n), rotations: new Float64Array(4 * n) };
  for (let f = 0; f < clip.frameCount; f++) {
    poseToWorld(clip.skeleton, clip.rotations, f * n * 4, readVec3(clip.rootPositions, f), pose);
    positions.set(pose.positions, f * n * 3);
    rotations.set(pose.rotations, f * n * 4);
  }
  return { positions, rotations };
}

/** World position of a point given in joint j's local frame, for a world pose. */
export function pointInJoint(pose: WorldPose, j: number, local: Vec3): Vec3 {
  const r = qRotate(readQuat(pose.rotations, j), local);
  const p = readVec3(pose.positions, j);
  return [p[0] + r[0], p[1] + r[1], p[2] + r[2]];
}

/** Local rotation of joint j at frame f. */
export function localRotation(clip: MotionClip, f: number, j: number): Quat {
  return readQuat(clip.rotations, f * jointCount(clip.skeleton) + j);
}

/** Rest-pose world positions `[3n]` (root at its rest offset, rest rotations). */
export function restPositions(skeleton: Skeleton): Float64Array {
  return poseToWorld(skeleton, skeleton.restRotations, 0, readVec3(skeleton.offsets, 0)).positions;
}

/** Identity rotations `[4n]`. */
export function identityRotations(n: number): Float32Array {
  const r = new Float32Array(4 * n);
  for (let j = 0; j < n; j++) writeQuat(r, j, qIdentity());
  return r;
}

// ------------------------------------------------------------------ frame-rate resampling

/** Standard frame rates the exporters write (film, PAL, NTSC-rounded, and their doubles). */
export const STANDARD_FPS = [24, 25, 30, 50, 60] as const;

/** The standard rate nearest to `fps` (30 for a rate that is not a positive number; ties go to the lower rate). */
export function nearestStandardFps(fps: number): number {
  if (!(fps > 0) || !Number.isFinite(fps)) return 30;
  let best: number = STANDARD_FPS[0];
  for (const r of STANDARD_FPS) if (Math.abs(r - fps) < Math.abs(best - fps)) best = r;
  return best;
}

/** Frame count of a clip of `frameCount` frames at `fromFps` resampled to `toFps` (same duration, rounded). */
export function resampledFrameCount(frameCount: number, fromFps: number, toFps: number): number {
  if (frameCount <= 1) return frameCount;
  return Math.max(1, Math.round(((frameCount - 1) / fromFps) * toFps) + 1);
}

/**
 * The clip on a steady `fps` timeline: frame k is the pose at time k / fps of the source timeline (frame i at
 * i / clip.fps), so the duration is kept (the last frame is clamped to the source's last time when rounding makes
 * it fall a fraction of a frame later). Local rotations are slerped (shortest arc), the root position and the face
 * weights interpolated linearly, foot contacts and support levels taken from the nearest source frame. `metadata.sourceFps` records the
 * rate the clip had. A clip already at `fps` (within 1e-9) is returned as it is.
 */
export function resampleClip(clip: MotionClip, fps: number): MotionClip {
  if (!(fps > 0) || !Number.isFinite(fps)) throw new Error(`resample: frame rate must be > 0 (got ${fps})`);
  if (Math.abs(clip.fps - fps) < 1e-9) return clip;
  const n = jointCount(clip.skeleton);
  const N = clip.frameCount;
  const M = resampledFrameCount(N, clip.fps, fps);
  const last = Math.max(0, N - 1);
  const src = clip.rotations;
  const rotations = new Float32Array(M * n * 4);
  const rootPositions = new Float32Array(M * 3);
  const K = clip.blendshapes ? clip.blendshapes.names.length : 0;
  const weights = clip.blendshapes ? new Float32Array(M * K) : null;
  const left = clip.contacts ? new Uint8Array(M) : null;
  const right = clip.contacts ? new Uint8Array(M) : null;
  const support = clip.support ? new Float32Array(M) : null;
  for (let k = 0; k < M; k++) {
    const s = Math.min(last, (k * clip.fps) / fps);
    const i = Math.min(Math.floor(s + 1e-9), last);
    const i1 = Math.min(i + 1, last);
    const t = i1 === i ? 0 : Math.max(0, Math.min(1, s - i));
    for (let j = 0; j < n; j++)
      slerpInto(src, (i * n + j) * 4, (i1 * n + j) * 4, t, rotations, (k * n + j) * 4);
    for (let c = 0; c < 3; c++) {
      const a = clip.rootPositions[3 * i + c];
      rootPositions[3 * k + c] = a + (clip.rootPositions[3 * i1 + c] - a) * t;
    }
    if (weights && clip.blendshapes) {
      const w = clip.blendshapes.weights;
      for (let c = 0; c < K; c++) {
        const a = w[i * K + c];
        weights[k * K + c] = a + (w[i1 * K + c] - a) * t;
      }
    }
    if (left && right && clip.contacts) {
      const near = t < 0.5 ? i : i1;
      left[k] = clip.contacts.left[near];
      right[k] = clip.contacts.right[near];
    }
    if (support && clip.support) support[k] = clip.support[t < 0.5 ? i : i1];
  }
  return {
    skeleton: clip.skeleton,
    fps,
    frameCount: M,
    rotations,
    rootPositions,
    ...(left && right ? { contacts: { left, right } } : {}),
    ...(support ? { support } : {}),
    ...(weights && clip.blendshapes
      ? { blendshapes: { names: clip.blendshapes.names, weights, supported: clip.blendshapes.supported } }
      : {}),
    metadata: { ...clip.metadata, sourceFps: clip.metadata.sourceFps ?? clip.fps },
  };
}

/** Shortest-arc slerp of the quaternions at a and b of `q` into `out` at o (normalised). */
function slerpInto(q: Float32Array, a: number, b: number, t: number, out: Float32Array, o: number): void {
  const ax = q[a];
  const ay = q[a + 1];
  const az = q[a + 2];
  const aw = q[a + 3];
  let bx = q[b];
  let by = q[b + 1];
  let bz = q[b + 2];
  let bw = q[b + 3];
  let d = ax * bx + ay * by + az * bz + aw * bw;
  if (d < 0) {
    d = -d;
    bx = -bx;
    by = -by;
    bz = -bz;
    bw = -bw;
  }
  let wa = 1 - t;
  let wb = t;
  if (t > 0 && d < 0.9995) {
    const th = Math.acos(d);
    const sn = Math.sin(th);
    wa = Math.sin((1 - t) * th) / sn;
    wb = Math.sin(t * th) / sn;
  }
  const x = wa * ax + wb * bx;
  const y = wa * ay + wb * by;
  const z = wa * az + wb * bz;
  const w = wa * aw + wb * bw;
  const l = Math.hypot(x, y, z, w) || 1;
  out[o] = x / l;
  out[o + 1] = y / l;
  out[o + 2] = z / l;
  out[o + 3] = w / l;
}
