/**
 * Rig templates → concrete rigs for a clip's skeleton.
 *
 * A template names the rig's bones, their hierarchy and which canonical joint drives each one, and says where each
 * bone sits (at a canonical joint, part way along a canonical bone, at a joint's tip, at the origin) and how its
 * local axes are oriented (identity axes, or "this local axis runs down the bone, that one faces front/up").
 * `instantiate` places every bone on the clip's own skeleton (so world joint positions are reproduced exactly),
 * lowers the arms for A-pose rigs, builds the rest orientations, and converts everything to the rig's axes and
 * units. The canonical-space rest data is kept for the retargeter (`RigInternals`).
 */

import type { Skeleton } from '../clip.ts';
import { restPositions } from '../clip.ts';
import {
  cross,
  dot,
  length,
  normalize,
  type Quat,
  qConj,
  qFromAxisAngle,
  qFromMatrix,
  qMul,
  qRotate,
  readVec3,
  sub,
  type Vec3,
} from '../math.ts';
import { createSkeleton, DEFAULT_PROPORTIONS } from '../skeleton.ts';
import type { BoneRole, Rig, RigAxes, RigBone, RootMotionConvention, SignedAxis } from './types.ts';

/** Where a bone sits in the canonical T-pose. */
export type Placement =
  /** At a canonical joint. */
  | string
  /** At the end point (tip) of a canonical joint's bone. */
  | { tip: string }
  /** Part way (t) from joint a to joint b. */
  | { lerp: [string, string, number] }
  /** At the world origin (a ground root). */
  | { origin: true }
  /** At a canonical joint plus an offset in metres (canonical axes). */
  | { joint: string; offset: Vec3 };

export interface BoneTemplate {
  name: string;
  parent: string | null;
  /** Canonical joint driving the rotation. */
  source?: string;
  /** Where it sits (default: at `source`; bones without either sit on their parent). */
  at?: Placement;
  role?: BoneRole;
  follows?: string;
  /** Bone whose head the primary axis aims at (default: the first child that is not at the same place). */
  aim?: string;
}

/** Bone-local axes: identity (rig axes), or a local axis down the bone plus one toward front (or up). */
export type AxisConvention =
  | 'identity'
  | ((bone: BoneTemplate) => {
      primary: SignedAxis;
      secondary: SignedAxis;
      /** Canonical direction the secondary axis leans toward (default: front, or up for bones lying along Z). */
      hint?: Direction;
      /** Point the primary axis along this canonical direction instead of at the child (Unreal feet: vertical). */
      aimDir?: Direction;
    });

/** A canonical-space direction (the character's front/back/up/down/left/right). */
export type Direction = 'front' | 'back' | 'up' | 'down' | 'left' | 'right';
const DIRECTION: Record<Direction, Vec3> = {
  front: [0, 0, 1],
  back: [0, 0, -1],
  up: [0, 1, 0],
  down: [0, -1, 0],
  left: [1, 0, 0],
  right: [-1, 0, 0],
};

export interface RigTemplate {
  id: string;
  displayName: string;
  unitsPerMetre: number;
  axes: RigAxes;
  restPose: { kind: 'T' | 'A' | 'I'; armDownDeg: number };
  rootMotion: RootMotionConvention;
  hipsBone: string;
  orient: AxisConvention;
  bones: BoneTemplate[];
  notes?: string[];
}

/** Canonical-space data of a rig that the retargeter needs (not part of the file data). */
export interface RigInternals {
  /** Canonical joint index driving each bone's rotation, or -1. */
  source: Int32Array;
  /** Canonical joint whose rigid frame carries each bone's position (-1: world-fixed). */
  carrier: Int32Array;
  /** Bone position in the carrier's rest frame (canonical T-pose, metres). */
  carrierPoint: Float64Array;
  /** "T-equivalent" world rest rotation of each bone in canonical space (arms raised back to T). */
  tWorld: Float64Array;
  /** Parent index per bone (-1 for the top bone). */
  parent: Int32Array;
  /** Follow target index per bone (-1 when none). */
  follows: Int32Array;
  /** 1 for bones in the upper body (spine and above): muted by `lowerBodyOnly`. */
  upper: Uint8Array;
  /** Canonical → rig rotation as a quaternion (of `basis`, or of `-basis` when left-handed). */
  basisQuat: Quat;
  /** Parent index per canonical joint of the skeleton the rig was built on. */
  canonParents: Int32Array;
  /** Joint names of the skeleton the rig was built on (retarget checks the clip against them). */
  canonNames: readonly string[];
  /** T-pose world position of each bone (canonical, metres). */
  tPosePositions: Float64Array;
}

const INTERNALS = new WeakMap<Rig, RigInternals>();

export function rigInternals(rig: Rig): RigInternals {
  const i = INTERNALS.get(rig);
  if (!i) throw new Error(`rig ${rig.id}: not built by instantiate()`);
  return i;
}

const AXIS_VEC: Record<SignedAxis, Vec3> = {
  '+X': [1, 0, 0],
  '-X': [-1, 0, 0],
  '+Y': [0, 1, 0],
  '-Y': [0, -1, 0],
  '+Z': [0, 0, 1],
  '-Z': [0, 0, -1],
};

/** Canonical → rig basis (row-major 3×3) for an axis convention. */
export function axesBasis(axes: RigAxes): number[] {
  const up = AXIS_VEC[axes.up];
  const front = AXIS_VEC[axes.front];
  if (Math.abs(dot(up, front)) > 1e-9) throw new Error('rig axes: up and front must differ');
  // Canonical left (+X) = up × front for right-handed systems; the mirror for left-handed ones.
  let left = cross(up, front);
  if (axes.handedness === 'left') left = [-left[0], -left[1], -left[2]];
  // Columns: images of canonical X (left), Y (up), Z (front).
  return [left[0], up[0], front[0], left[1], up[1], front[1], left[2], up[2], front[2]];
}

const mat3Vec = (m: readonly number[], v: Vec3): Vec3 => [
  m[0] * v[0] + m[1] * v[1] + m[2] * v[2],
  m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
  m[6] * v[0] + m[7] * v[1] + m[8] * v[2],
];
const mat3TVec = (m: readonly number[], v: Vec3): Vec3 => [
  m[0] * v[0] + m[3] * v[1] + m[6] * v[2],
  m[1] * v[0] + m[4] * v[1] + m[7] * v[2],
  m[2] * v[0] + m[5] * v[1] + m[8] * v[2],
];

/** Rotation taking local vectors `a` (primary) and `b` (secondary) to world directions `d` and `h`. */
function rotationFromPairs(a: Vec3, b: Vec3, d: Vec3, h: Vec3): Quat {
  const an = normalize(a);
  const bn = normalize(sub(b, scaleV(an, dot(b, an))));
  const cn = cross(an, bn);
  const dn = normalize(d);
  let hp = sub(h, scaleV(dn, dot(h, dn)));
  if (length(hp) < 1e-6) hp = sub([0, 1, 0], scaleV(dn, dn[1]));
  if (length(hp) < 1e-6) hp = sub([0, 0, 1], scaleV(dn, dn[2]));
  const hn = normalize(hp);
  const en = cross(dn, hn);
  // R = [d h e] · [a b c]^T
  const m = new Array<number>(9).fill(0);
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 3; c++) m[r * 3 + c] = dn[r] * an[c] + hn[r] * bn[c] + en[r] * cn[c];
  return qFromMatrix(m);
}
const scaleV = (v: Vec3, s: number): Vec3 => [v[0] * s, v[1] * s, v[2] * s];

let referenceSkeleton: Skeleton | undefined;

/** Canonical rest positions of a skeleton, completed with finger joints from the default skeleton when absent. */
function jointPositions(skeleton: Skeleton): Map<string, Vec3> {
  const out = new Map<string, Vec3>();
  const rp = restPositions(skeleton);
  skeleton.names.forEach((n, j) => {
    out.set(n, readVec3(rp, j));
  });
  referenceSkeleton ??= createSkeleton(DEFAULT_PROPORTIONS, { fingers: true });
  const ref = referenceSkeleton;
  const refPos = restPositions(ref);
  const refIdx = (n: string) => ref.names.indexOf(n);
  const height = (p: Map<string, Vec3> | null, s: Skeleton, pos: Float64Array) => {
    const h = s.names.indexOf('head');
    return h >= 0 ? (p ? (p.get('head')?.[1] ?? 1) : pos[3 * h + 1]) : 1.6;
  };
  const k = height(out, skeleton, rp) / height(null, ref, refPos);
  ref.names.forEach((n, j) => {
    if (out.has(n)) return;
    // Attach missing joints (fingers) to the nearest present ancestor, scaled by the height ratio.
    let a = ref.parents[j];
    while (a >= 0 && !out.has(ref.names[a])) a = ref.parents[a];
    if (a < 0) return;
    const base = out.get(ref.names[a]) as Vec3;
    const rel = sub(readVec3(refPos, j), readVec3(refPos, a));
    out.set(n, [base[0] + rel[0] * k, base[1] + rel[1] * k, base[2] + rel[2] * k]);
  });
  // Tips.
  const tipOf = (s: Skeleton, pos: Float64Array, n: string, scale: number): Vec3 | null => {
    const j = s.names.indexOf(n);
    if (j < 0) return null;
    const t = readVec3(s.tips, j);
    if (length(t) < 1e-9) return null;
    const p = readVec3(pos, j);
    return [p[0] + t[0] * scale, p[1] + t[1] * scale, p[2] + t[2] * scale];
  };
  for (const n of ref.names) {
    const own = tipOf(skeleton, rp, n, 1);
    if (own) out.set(`tip:${n}`, own);
    else {
      const rj = refIdx(n);
      const t = readVec3(ref.tips, rj);
      const base = out.get(n);
      if (base && length(t) > 1e-9)
        out.set(`tip:${n}`, [base[0] + t[0] * k, base[1] + t[1] * k, base[2] + t[2] * k]);
    }
  }
  return out;
}

const UPPER_ROOTS = new Set(['spine']);

/** Builds a concrete rig for a skeleton (default: the default canonical skeleton). */
export function instantiate(t: RigTemplate, skeleton?: Skeleton): Rig {
  const sk = skeleton ?? createSkeleton(DEFAULT_PROPORTIONS, { fingers: true });
  const jp = jointPositions(sk);
  const names = t.bones.map((b) => b.name);
  if (new Set(names).size !== names.length) throw new Error(`rig ${t.id}: duplicate bone names`);
  const n = t.bones.length;
  const parent = new Int32Array(n);
  t.bones.forEach((b, i) => {
    parent[i] = b.parent === null ? -1 : names.indexOf(b.parent);
    if (b.parent !== null && !(parent[i] >= 0 && parent[i] < i))
      throw new Error(`rig ${t.id}: parent of ${b.name} must come before it`);
  });
  if (parent[0] !== -1 || Array.from(parent).filter((p) => p < 0).length !== 1)
    throw new Error(`rig ${t.id}: exactly one top bone (the first) is required`);
  const joint = (name: string): Vec3 => {
    const p = jp.get(name);
    if (!p) throw new Error(`rig ${t.id}: unknown canonical joint ${name}`);
    return p;
  };
  const canonIndex = (name: string) => {
    const j = sk.names.indexOf(name);
    return j;
  };
  // T-pose positions and carriers.
  const pos: Vec3[] = [];
  const carrierName: (string | null)[] = [];
  t.bones.forEach((b, i) => {
    const at = b.at ?? b.source ?? null;
    let p: Vec3;
    let carrier: string | null;
    if (at === null) {
      p = i > 0 ? pos[parent[i]] : [0, 0, 0];
      carrier = i > 0 ? carrierName[parent[i]] : null;
    } else if (typeof at === 'string') {
      p = joint(at);
      carrier = at;
    } else if ('tip' in at) {
      p = joint(`tip:${at.tip}`);
      carrier = at.tip;
    } else if ('lerp' in at) {
      const [a, c, u] = at.lerp;
      const pa = joint(a);
      const pc = joint(c);
      p = [pa[0] + (pc[0] - pa[0]) * u, pa[1] + (pc[1] - pa[1]) * u, pa[2] + (pc[2] - pa[2]) * u];
      carrier = a;
    } else if ('origin' in at) {
      p = [0, 0, 0];
      carrier = null;
    } else {
      const pj = joint(at.joint);
      p = [pj[0] + at.offset[0], pj[1] + at.offset[1], pj[2] + at.offset[2]];
      carrier = at.joint;
    }
    // A carrier missing from the clip's skeleton (fingers of a finger-less clip): nearest present ancestor.
    if (carrier !== null && canonIndex(carrier) < 0) {
      let a = i > 0 ? parent[i] : -1;
      carrier = null;
      while (a >= 0) {
        const c = carrierName[a];
        if (c !== null && canonIndex(c) >= 0) {
          carrier = c;
          break;
        }
        a = parent[a];
      }
    }
    pos.push(p);
    carrierName.push(carrier);
  });
  // Arm subtrees and the A-pose rotation per bone.
  const armSide = new Int8Array(n); // +1 left arm, -1 right arm
  t.bones.forEach((b, i) => {
    const src = b.source ?? (typeof b.at === 'string' ? b.at : null);
    if (src === 'leftUpperArm') armSide[i] = 1;
    else if (src === 'rightUpperArm') armSide[i] = -1;
    else if (i > 0 && armSide[parent[i]] !== 0) armSide[i] = armSide[parent[i]];
  });
  const down = t.restPose.kind === 'T' ? 0 : (t.restPose.armDownDeg * Math.PI) / 180;
  const aRot = (side: number): Quat => qFromAxisAngle([0, 0, 1], -side * down);
  const shoulder = (side: number): Vec3 => joint(side > 0 ? 'leftUpperArm' : 'rightUpperArm');
  const followIdx = t.bones.map((b) => (b.follows ? names.indexOf(b.follows) : -1));
  followIdx.forEach((f, i) => {
    if (t.bones[i].follows && !(f >= 0 && f < i))
      throw new Error(`rig ${t.id}: ${t.bones[i].name} must follow an earlier bone`);
    if (f >= 0) {
      pos[i] = pos[f];
      armSide[i] = armSide[f];
    }
  });
  const aPos: Vec3[] = pos.map((p, i) => {
    const s = armSide[i];
    if (s === 0 || down === 0) return p;
    const c = shoulder(s);
    const r = qRotate(aRot(s), sub(p, c));
    return [c[0] + r[0], c[1] + r[1], c[2] + r[2]];
  });
  // Children for aiming.
  const children: number[][] = names.map(() => []);
  for (let i = 1; i < n; i++) children[parent[i]].push(i);
  const basis = axesBasis(t.axes);
  const det =
    basis[0] * (basis[4] * basis[8] - basis[5] * basis[7]) -
    basis[1] * (basis[3] * basis[8] - basis[5] * basis[6]) +
    basis[2] * (basis[3] * basis[7] - basis[4] * basis[6]);
  const properBasis = det > 0 ? basis : basis.map((v) => -v);
  const basisQuat = qFromMatrix(properBasis);
  // Rest world rotations (canonical space) in the rig's rest pose.
  const restWorld: Quat[] = [];
  const tWorld = new Float64Array(4 * n);
  t.bones.forEach((b, i) => {
    let q: Quat = [0, 0, 0, 1];
    if (followIdx[i] >= 0) q = restWorld[followIdx[i]];
    else if (b.role === 'root') {
      // A ground root keeps the rig's axes (aiming it at the hips would make Blender connect the hips to it and
      // drop their translation).
      q = [0, 0, 0, 1];
    } else if (t.orient !== 'identity') {
      const conv = t.orient(b);
      let target: Vec3 | null = null;
      const aimIdx = b.aim ? names.indexOf(b.aim) : -1;
      if (b.aim && aimIdx < 0) throw new Error(`rig ${t.id}: aim ${b.aim} of ${b.name} is not a bone`);
      const candidates = aimIdx >= 0 ? [aimIdx] : children[i].filter((c) => t.bones[c].role !== 'ik');
      if (conv.aimDir) target = DIRECTION[conv.aimDir];
      else
        for (const c of candidates) {
          const d = sub(aPos[c], aPos[i]);
          if (length(d) > 1e-3) {
            target = d;
            break;
          }
        }
      if (!target) {
        const src = b.source ?? (typeof b.at === 'string' ? b.at : null);
        const tip = src ? jp.get(`tip:${src}`) : undefined;
        if (tip && armSide[i] === 0) target = sub(tip, pos[i]);
        else if (tip) target = qRotate(aRot(armSide[i]), sub(tip, pos[i]));
      }
      if (!target && i > 0) q = restWorld[parent[i]];
      else if (!target) q = [0, 0, 0, 1];
      else {
        const dir = normalize(target);
        const hint = DIRECTION[conv.hint ?? (Math.abs(dir[2]) > 0.7 ? 'up' : 'front')];
        // Local axes in canonical terms: B^T · (rig-local axis).
        const a = mat3TVec(basis, AXIS_VEC[conv.primary]);
        const s = mat3TVec(basis, AXIS_VEC[conv.secondary]);
        q = rotationFromPairs(a, s, dir, hint);
      }
    }
    restWorld.push(q);
    const tq = armSide[i] !== 0 && down !== 0 ? qMul(qConj(aRot(armSide[i])), q) : q;
    tWorld.set(tq, 4 * i);
  });
  // Convert to rig space: local rotations and translations.
  const u = t.unitsPerMetre;
  const bones: RigBone[] = t.bones.map((b, i) => {
    const p = parent[i];
    const wq = restWorld[i];
    let lt: Vec3;
    let lq: Quat;
    if (p < 0) {
      lt = aPos[i];
      lq = wq;
    } else {
      const pq = restWorld[p];
      lt = qRotate(qConj(pq), sub(aPos[i], aPos[p]));
      lq = qMul(qConj(pq), wq);
    }
    // Local values are expressed in the parent's (or world) frame; change basis.
    const rt = mat3Vec(basis, lt);
    const rq = qMul(qMul(basisQuat, lq), qConj(basisQuat));
    return {
      name: b.name,
      parent: b.parent,
      source: b.source && canonIndex(b.source) >= 0 ? b.source : null,
      restTranslation: [rt[0] * u, rt[1] * u, rt[2] * u],
      restRotation: rq,
      role: b.role ?? 'joint',
      ...(b.follows ? { follows: b.follows } : {}),
    };
  });
  const rig: Rig = {
    id: t.id,
    displayName: t.displayName,
    bones,
    unitsPerMetre: u,
    axes: t.axes,
    basis,
    restPose: t.restPose,
    rootMotion: t.rootMotion,
    hipsBone: t.hipsBone,
    ...(t.notes ? { notes: t.notes } : {}),
  };
  if (!names.includes(t.hipsBone)) throw new Error(`rig ${t.id}: hips bone ${t.hipsBone} missing`);
  // Internals for the retargeter.
  const source = new Int32Array(n);
  const carrier = new Int32Array(n);
  const carrierPoint = new Float64Array(3 * n);
  const follows = new Int32Array(n);
  const upper = new Uint8Array(n);
  const restCanon = restPositions(sk);
  const canonUpper = new Uint8Array(sk.names.length);
  sk.names.forEach((nm, j) => {
    const p = sk.parents[j];
    canonUpper[j] = UPPER_ROOTS.has(nm) || (p >= 0 && canonUpper[p]) ? 1 : 0;
  });
  t.bones.forEach((b, i) => {
    source[i] = b.source ? canonIndex(b.source) : -1;
    const c = carrierName[i];
    const ci = c === null ? -1 : canonIndex(c);
    carrier[i] = ci;
    if (ci >= 0) {
      // Canonical rest rotations are the identity for the canonical skeleton; use them generally anyway.
      const cq = restWorldOf(sk, ci);
      const d = qRotate(qConj(cq), sub(pos[i], readVec3(restCanon, ci)));
      carrierPoint.set(d, 3 * i);
      upper[i] = canonUpper[ci];
    } else {
      carrierPoint.set(pos[i], 3 * i);
    }
    follows[i] = b.follows ? names.indexOf(b.follows) : -1;
    if (b.follows && follows[i] < 0) throw new Error(`rig ${t.id}: ${b.name} follows unknown ${b.follows}`);
    if (b.role === 'ik' && b.follows) upper[i] = upper[follows[i]] ?? 0;
  });
  const tPosePositions = new Float64Array(3 * n);
  pos.forEach((p, i) => {
    tPosePositions.set(p, 3 * i);
  });
  INTERNALS.set(rig, {
    source,
    carrier,
    carrierPoint,
    tWorld,
    parent,
    follows,
    upper,
    basisQuat,
    canonParents: Int32Array.from(sk.parents),
    canonNames: sk.names,
    tPosePositions,
  });
  return rig;
}

function restWorldOf(sk: Skeleton, j: number): Quat {
  let q: Quat = [
    sk.restRotations[4 * j],
    sk.restRotations[4 * j + 1],
    sk.restRotations[4 * j + 2],
    sk.restRotations[4 * j + 3],
  ];
  let p = sk.parents[j];
  while (p >= 0) {
    const pq: Quat = [
      sk.restRotations[4 * p],
      sk.restRotations[4 * p + 1],
      sk.restRotations[4 * p + 2],
      sk.restRotations[4 * p + 3],
    ];
    q = qMul(pq, q);
    p = sk.parents[p];
  }
  return q;
}

/** Converts a rig-space point (rig units) to canonical metres. */
export function rigToCanonical(rig: Rig, p: ArrayLike<number>, offset = 0): Vec3 {
  const v: Vec3 = [
    p[offset] / rig.unitsPerMetre,
    p[offset + 1] / rig.unitsPerMetre,
    p[offset + 2] / rig.unitsPerMetre,
  ];
  return mat3TVec(rig.basis, v);
}

/** Converts a canonical point (metres) to rig space (rig units). */
export function canonicalToRig(rig: Rig, p: Vec3): Vec3 {
  const v = mat3Vec(rig.basis, p);
  return [v[0] * rig.unitsPerMetre, v[1] * rig.unitsPerMetre, v[2] * rig.unitsPerMetre];
}
