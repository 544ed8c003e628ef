/**
 * Retargeting a canonical MotionClip onto an imported character (its own skeleton, proportions and rest pose).
 *
 * - **Rest-pose correction.** Each mapped bone's rest direction (to the bone of its canonical child) is turned
 *   onto the canonical T-pose direction (shortest arc); unmapped bones inherit their parent's correction. So an
 *   A- or I-pose character (arms 40–85° down) gets the same arm angles as a T-pose one.
 * - **Rotations.** A mapped bone's world rotation is the canonical joint's world rotation (relative to its rest)
 *   times the bone's corrected rest; unmapped bones (twist helpers, end markers, props) stay rigid on their parent.
 *   Bone lengths never change: positions come from forward kinematics with the bones' own rest offsets.
 * - **Scale.** The character's height over the clip's standing height, `h`, scales the whole clip: the hands and
 *   feet are aimed at the canonical clip's joints × `h` (issue 24's measure: "within 3 cm of the canonical clip
 *   scaled by height"), the hips travel × `h` horizontally; the hips' height is the character's own rest height
 *   plus the clip's hips motion × `s`, the leg-length ratio (thigh + shin, character / clip), so a straight leg
 *   stays straight and a knee bends as much as the performer's.
 * - **End effectors.** After the rotation copy, two-bone IK on each leg (thigh/shin → foot) and arm (upper
 *   arm/forearm → hand) aims the end at the height-scaled clip joint `h × p(f)`, moved by two constants: the
 *   character's rest hips (x, z) (where it stands; the clip's rest hips are at x = z = 0) and, for a foot, its
 *   ankle height above the sole against the clip's × `h` (rigs put the ankle pivot 3–16 cm above the sole: the
 *   foot's sole, not its pivot, stays on the floor). The foot and hand keep their canonical orientation.
 *   Detached (IK-rig) feet are placed at the chain's end.
 * - **Out of reach.** A target beyond the straight limb (a character whose arms are short for its height, a kick
 *   higher than its legs reach) is reached along the line from the limb's root: the limb points at it, as
 *   straight as it goes — the closest point it can reach. Near full extension the reach is softened (soft IK:
 *   within the last `SOFT_REACH` of the chain the distance eases out exponentially), so an arm swinging in and
 *   out of reach does not snap straight (the "elbow pop"); this costs at most 0.37 × that band (≈ 0.5 cm on a
 *   human arm) where the target is just in reach. A planted foot has no softening: the hips come down instead.
 * - **Hips.** Where a planted foot's target lies beyond the straight leg (a stride long for the character's legs,
 *   other thigh spacing), the hips are lowered just enough for both feet to reach it, the drop spread over
 *   neighbouring frames (a max filter then a box filter of the same radius, never less than needed); a foot in
 *   the air (a kick) and a target too far sideways to reach however low the hips go never pull them down.
 */

import type { MotionClip } from '../clip.ts';
import { restPositions } from '../clip.ts';
import {
  cross,
  dot,
  length,
  movingMax,
  movingMean,
  normalize,
  type Quat,
  qConj,
  qFromAxisAngle,
  qFromUnitVectors,
  qMul,
  qNormalize,
  qRotate,
  sub,
  type Vec3,
} from '../math.ts';
import { canonicalWorld, rigClipOf } from '../retarget/index.ts';
import type { Rig, RigBone, RigClip } from '../rigs/types.ts';
import type { CharacterModel } from './character.ts';

export interface CharacterRetargetOptions {
  /** Units of the rig the files are written in (default 100: centimetres, as FBX tools expect). */
  unitsPerMetre?: number;
  /** Turn off the end-effector IK (plain rotation transfer). */
  ik?: boolean;
}

export interface CharacterRetarget {
  rig: Rig;
  clip: RigClip;
  /** Leg-length ratio character / clip (thigh + shin): scales the hips' vertical motion. */
  scale: number;
  /** Height ratio character / clip (`model.height` / `clipStandingHeight(clip)`): scales the effector targets. */
  heightScale: number;
  /** World positions (canonical metres) per frame of every bone: `[f][3 × bones]`. */
  world: Float64Array[];
  /**
   * The height-scaled targets of the end effectors (canonical metres, before any softening or reach), per frame:
   * leftFoot, rightFoot, leftHand, rightHand.
   */
  targets: Record<string, Vec3[]>;
  /**
   * How far each target lay beyond the limb's straight reach from where the limb's root (thigh, shoulder) was
   * (metres, 0 when in reach), per frame: the part of the effector's error no IK of that limb can remove.
   */
  beyondReach: Record<string, Float64Array>;
  /** The constant moves of the targets: x, z the character's rest hips; y (feet) the ankle-above-sole difference. */
  targetOffset: Record<string, Vec3>;
  /** How far the hips were lowered so the feet reach their targets (canonical metres), per frame. */
  hipsDrop: Float64Array;
}

const ID: Quat = [0, 0, 0, 1];

/** A foot within this height above its rest (clip metres) is on the floor; from FOOT_GROUND_HI up it is in the air. */
export const FOOT_GROUND_LO = 0.03;
export const FOOT_GROUND_HI = 0.1;
/** Soft-IK band: the last fraction of a limb's reach over which a target's distance eases out (arms, feet in the air). */
export const SOFT_REACH = 0.025;

/**
 * Standing height of a clip's skeleton (floor to the top of the head at rest), metres: `metadata.height`, else the
 * head joint's rest height plus its tip (the canonical skeleton's head top), else the head joint × 1.097 (the
 * default body's head top over its head joint).
 */
export function clipStandingHeight(clip: MotionClip): number {
  if (clip.metadata.height && clip.metadata.height > 0) return clip.metadata.height;
  const sk = clip.skeleton;
  const j = sk.names.indexOf('head');
  if (j < 0) throw new Error('clip: no head joint');
  const rp = restPositions(sk);
  const tip = Math.hypot(sk.tips[3 * j], sk.tips[3 * j + 1], sk.tips[3 * j + 2]);
  return tip > 0 ? rp[3 * j + 1] + tip : rp[3 * j + 1] * 1.097;
}

/**
 * Soft reach (soft IK): the distance `d` from a limb's root to its target, eased within the last `band` of the
 * reach `R` so that it approaches `R` exponentially instead of hitting it: d itself below R − band.
 */
export function softReach(d: number, R: number, band: number): number {
  if (band <= 0) return Math.min(d, R);
  const d0 = R - band;
  return d <= d0 ? d : d0 + band * (1 - Math.exp(-(d - d0) / band));
}

/** Weight of the floor-anchored foot target for a clip foot `h` metres above its rest height (smoothstep). */
export function footGroundWeight(h: number): number {
  const x = Math.min(1, Math.max(0, (h - FOOT_GROUND_LO) / (FOOT_GROUND_HI - FOOT_GROUND_LO)));
  return 1 - x * x * (3 - 2 * x);
}

/** The character as a Rig (Y up, facing +Z, right-handed), bones at their rest pose. */
export function characterRig(
  model: CharacterModel,
  unitsPerMetre = 100,
  jointNames?: readonly string[],
): Rig {
  const boneToJoint = new Map<string, string>();
  for (const [j, b] of Object.entries(model.mapping.bones))
    if (!jointNames || jointNames.includes(j)) boneToJoint.set(b, j);
  const kids = model.bones.map(() => 0);
  for (const b of model.bones) if (b.parent >= 0) kids[b.parent]++;
  const bones: RigBone[] = model.bones.map((b, i) => {
    const p = b.parent >= 0 ? model.bones[b.parent] : null;
    const lt = p ? qRotate(qConj(p.rotation), sub(b.position, p.position)) : b.position;
    const lq = p ? qNormalize(qMul(qConj(p.rotation), b.rotation)) : b.rotation;
    const source = boneToJoint.get(b.name) ?? null;
    return {
      name: b.name,
      parent: p ? p.name : null,
      source,
      restTranslation: [lt[0] * unitsPerMetre, lt[1] * unitsPerMetre, lt[2] * unitsPerMetre],
      restRotation: lq,
      role: source ? 'joint' : kids[i] === 0 && !b.weighted ? 'end' : 'joint',
    };
  });
  return {
    id: 'character',
    displayName: 'Uploaded character',
    bones,
    unitsPerMetre,
    axes: { up: '+Y', front: '+Z', handedness: 'right' },
    basis: [1, 0, 0, 0, 1, 0, 0, 0, 1],
    restPose: { kind: model.restPose.kind, armDownDeg: model.restPose.armDownDeg },
    rootMotion: 'hips',
    hipsBone: model.mapping.bones.hips,
  };
}

export function retargetToCharacter(
  clip: MotionClip,
  model: CharacterModel,
  options: CharacterRetargetOptions = {},
): CharacterRetarget {
  const u = options.unitsPerMetre ?? 100;
  const sk = clip.skeleton;
  const rig = characterRig(model, u, sk.names);
  const nb = model.bones.length;
  const nj = sk.names.length;
  const F = clip.frameCount;
  const jIndex = new Map(sk.names.map((n, j) => [n, j]));
  const bIndex = new Map(model.bones.map((b, i) => [b.name, i]));
  const src = new Int32Array(nb).fill(-1);
  const boneOfJoint = new Int32Array(nj).fill(-1);
  for (const [j, b] of Object.entries(model.mapping.bones)) {
    const ji = jIndex.get(j);
    const bi = bIndex.get(b);
    if (ji === undefined || bi === undefined) continue;
    src[bi] = ji;
    boneOfJoint[ji] = bi;
  }
  const hips = bIndex.get(model.mapping.bones.hips ?? '') ?? -1;
  if (hips < 0 || boneOfJoint[0] !== hips) throw new Error('character: the hips are not mapped');
  const parent = model.bones.map((b) => b.parent);
  const isAncestor = (a: number, b: number) => {
    for (let p = parent[b]; p >= 0; p = parent[p]) if (p === a) return true;
    return false;
  };
  // Canonical rest (T-pose) positions of the clip's skeleton.
  const rp = restPositions(sk);
  const cRest = (j: number): Vec3 => [rp[3 * j], rp[3 * j + 1], rp[3 * j + 2]];
  const childJoints: number[][] = sk.names.map(() => []);
  sk.parents.forEach((p, j) => {
    if (p >= 0) childJoints[p].push(j);
  });
  // Rest-pose corrections Δ per bone (world), parents first.
  const delta: Quat[] = new Array(nb);
  for (let b = 0; b < nb; b++) {
    const j = src[b];
    let d: Quat | null = null;
    if (j >= 0) {
      // The canonical child to aim at: spine2 → neck; hand → middle1; otherwise the first mapped child.
      const prefer =
        sk.names[j] === 'spine2'
          ? 'neck'
          : /Hand$/.test(sk.names[j])
            ? sk.names[j].replace('Hand', 'Middle1')
            : null;
      const cands = childJoints[j]
        .slice()
        .sort((x, y) => (sk.names[y] === prefer ? 1 : 0) - (sk.names[x] === prefer ? 1 : 0));
      for (const c of cands) {
        const cb = boneOfJoint[c];
        if (cb < 0 || !isAncestor(b, cb)) continue;
        const dc = sub(model.bones[cb].position, model.bones[b].position);
        const dn = sub(cRest(c), cRest(j));
        if (length(dc) < 1e-6 || length(dn) < 1e-6) continue;
        d = qFromUnitVectors(normalize(dc), normalize(dn));
        break;
      }
    }
    delta[b] = d ?? (parent[b] >= 0 ? delta[parent[b]] : ID);
  }
  const TW = model.bones.map((bn, b) => qNormalize(qMul(delta[b], bn.rotation)));
  const restLocalT = model.bones.map((bn, b) => {
    const p = parent[b];
    return p >= 0
      ? qRotate(qConj(model.bones[p].rotation), sub(bn.position, model.bones[p].position))
      : bn.position;
  });
  // T-pose positions of the character (FK with the corrected rest rotations).
  const PT: Vec3[] = new Array(nb);
  for (let b = 0; b < nb; b++) {
    const p = parent[b];
    if (p < 0) PT[b] = model.bones[b].position;
    else {
      const pw = TW[p];
      const v = qRotate(
        qMul(pw, qConj(model.bones[p].rotation)),
        qRotate(model.bones[p].rotation, restLocalT[b]),
      );
      PT[b] = [PT[p][0] + v[0], PT[p][1] + v[1], PT[p][2] + v[2]];
    }
  }
  // Scale: leg length (thigh → knee → ankle, rest-pose invariant) of the character over the clip's, so a straight
  // leg in the clip is a straight leg on the character and strides stay reachable.
  const legLen = (pos: (j: string) => Vec3 | null) => {
    const ls: number[] = [];
    for (const side of ['left', 'right']) {
      const a = pos(`${side}Thigh`);
      const b = pos(`${side}Shin`);
      const c = pos(`${side}Foot`);
      if (a && b && c) ls.push(length(sub(b, a)) + length(sub(c, b)));
    }
    return ls.length ? ls.reduce((x, y) => x + y, 0) / ls.length : 0;
  };
  const restOf = (j: string): Vec3 | null => {
    const b = jIndex.has(j) ? boneOfJoint[jIndex.get(j) as number] : -1;
    return b >= 0 ? model.bones[b].position : null;
  };
  const canonOf = (j: string): Vec3 | null => (jIndex.has(j) ? cRest(jIndex.get(j) as number) : null);
  const lChar = legLen(restOf);
  const lCan = legLen(canonOf);
  const s =
    lChar > 0 && lCan > 0 ? lChar / lCan : model.bones[hips].position[1] / Math.max(1e-6, cRest(0)[1]);
  // Heights are kept relative to the floor through the ankles: the character's rest ankle height plus the clip's
  // ankle motion scaled; the hips sit a straight leg above it (with the character's own hip-to-thigh offset).
  const sideAnkle = (side: string) => restOf(`${side}Foot`)?.[1] ?? 0;
  const ankleChar = (sideAnkle('left') + sideAnkle('right')) / 2;
  const ankleCan = ((canonOf('leftFoot')?.[1] ?? 0) + (canonOf('rightFoot')?.[1] ?? 0)) / 2;
  const thighDy = (pos: (j: string) => Vec3 | null, hipsY: number) => {
    const t = [pos('leftThigh'), pos('rightThigh')].filter((x): x is Vec3 => !!x);
    return t.length ? t.reduce((a, x) => a + x[1], 0) / t.length - hipsY : 0;
  };
  const tB = boneOfJoint[jIndex.get('leftThigh') ?? -1] ?? -1;
  const tB2 = boneOfJoint[jIndex.get('rightThigh') ?? -1] ?? -1;
  const dyChar = thighDy(
    (j) => (j === 'leftThigh' && tB >= 0 ? PT[tB] : j === 'rightThigh' && tB2 >= 0 ? PT[tB2] : null),
    PT[hips][1],
  );
  const dyCan = thighDy(canonOf, cRest(0)[1]);
  const cw = canonicalWorld(clip);
  const wrot = (f: number, j: number): Quat => {
    const o = (f * nj + j) * 4;
    const q: Quat = [cw.rot[o], cw.rot[o + 1], cw.rot[o + 2], cw.rot[o + 3]];
    return cw.restIdentity
      ? q
      : qMul(q, [cw.restInv[4 * j], cw.restInv[4 * j + 1], cw.restInv[4 * j + 2], cw.restInv[4 * j + 3]]);
  };
  const wpos = (f: number, j: number): Vec3 => {
    const o = (f * nj + j) * 3;
    return [cw.pos[o], cw.pos[o + 1], cw.pos[o + 2]];
  };
  const J = (n: string) => jIndex.get(n) ?? -1;
  const B = (n: string) => {
    const j = J(n);
    return j >= 0 ? boneOfJoint[j] : -1;
  };
  // Limbs for IK.
  // A two-bone chain (upper, lower, end joints): its bones a, b, c and joints ja, jb, j.
  const limb = (side: 'left' | 'right', upper: string, lower: string, end: string, arm: boolean) => ({
    key: `${side}${end}`,
    a: B(`${side}${upper}`),
    b: B(`${side}${lower}`),
    c: B(`${side}${end}`),
    j: J(`${side}${end}`),
    jb: J(`${side}${lower}`),
    ja: J(`${side}${upper}`),
    arm,
  });
  const limbs = (['left', 'right'] as const)
    .flatMap((side) => [
      limb(side, 'Thigh', 'Shin', 'Foot', false),
      limb(side, 'UpperArm', 'Forearm', 'Hand', true),
    ])
    .filter((l) => l.a >= 0 && l.b >= 0 && l.c >= 0 && l.j >= 0 && isAncestor(l.a, l.b));
  // The height ratio: the effector targets are the canonical clip × h, moved by constants (header).
  const h = model.height / clipStandingHeight(clip);
  const hr = model.bones[hips].position;
  const targetOffset: Record<string, Vec3> = {};
  for (const l of limbs)
    targetOffset[l.key] = [
      hr[0] - h * cRest(0)[0],
      l.arm ? 0 : model.bones[l.c].position[1] - h * cRest(l.j)[1],
      hr[2] - h * cRest(0)[2],
    ];
  /** The height-scaled target of a limb's end at frame f. */
  const targetOf = (f: number, l: (typeof limbs)[number]): Vec3 => {
    const c = wpos(f, l.j);
    const o = targetOffset[l.key];
    return [h * c[0] + o[0], h * c[1] + o[1], h * c[2] + o[2]];
  };
  // Straight reach of each limb (upper + lower bone: thigh → knee → ankle, or the detached foot's rest place).
  const reach = new Map<string, number>();
  for (const l of limbs)
    reach.set(
      l.key,
      length(sub(model.bones[l.b].position, model.bones[l.a].position)) +
        length(sub(model.bones[l.c].position, model.bones[l.b].position)),
    );
  const hipsOff: Vec3 = [
    PT[hips][0] - h * cRest(0)[0],
    ankleChar - s * ankleCan - dyChar + s * dyCan,
    PT[hips][2] - h * cRest(0)[2],
  ];

  const rotations = new Float32Array(F * nb * 4);
  const translations = new Float32Array(F * nb * 3);
  const world: Float64Array[] = [];
  const targets: Record<string, Vec3[]> = Object.fromEntries(limbs.map((l) => [l.key, []]));
  const beyondReach: Record<string, Float64Array> = Object.fromEntries(
    limbs.map((l) => [l.key, new Float64Array(F)]),
  );
  const W: Quat[] = new Array(nb);
  const P: Vec3[] = new Array(nb);
  // Mapped bones whose canonical parent's bone is not an ancestor (IK-rig feet): placed, not carried.
  const detached = new Uint8Array(nb);
  for (const l of limbs) if (!isAncestor(l.b, l.c)) detached[l.c] = 1;
  // Bones hanging beside the bone of their canonical parent joint rather than under it (Quaternius modular women:
  // the thighs hang off a floor-level Root, not off the Hips): carried by that bone, rigidly, from their rest
  // offset — the pelvis moves them as it moves the canonical thighs.
  const vparent = new Int32Array(nb).fill(-1);
  const vOffset: Vec3[] = new Array(nb);
  for (let b = 0; b < nb; b++) {
    if (src[b] <= 0 || detached[b]) continue;
    let pj = sk.parents[src[b]];
    while (pj >= 0 && boneOfJoint[pj] < 0) pj = sk.parents[pj];
    const vb = pj >= 0 ? boneOfJoint[pj] : -1;
    if (vb < 0 || vb === b || isAncestor(vb, b) || isAncestor(b, vb)) continue;
    vparent[b] = vb;
    vOffset[b] = qRotate(
      qConj(model.bones[vb].rotation),
      sub(model.bones[b].position, model.bones[vb].position),
    );
  }
  // Forward-kinematics order: a bone after its parent and after its carrier.
  const fkOrder: number[] = [];
  {
    const state = new Uint8Array(nb);
    const visit = (b: number) => {
      if (state[b]) return;
      state[b] = 1;
      if (parent[b] >= 0) visit(parent[b]);
      if (vparent[b] >= 0) visit(vparent[b]);
      fkOrder.push(b);
    };
    for (let b = 0; b < nb; b++) visit(b);
  }
  const ik = options.ik !== false;
  let hipsWorld: Vec3 = [0, 0, 0];
  const fkAll = () => {
    for (const b of fkOrder) {
      const p = parent[b];
      if (b === hips) {
        P[b] = hipsWorld;
        continue;
      }
      if (p < 0) continue;
      if (detached[b]) continue;
      const vp = vparent[b];
      if (vp >= 0) {
        const o = qRotate(W[vp], vOffset[b]);
        P[b] = [P[vp][0] + o[0], P[vp][1] + o[1], P[vp][2] + o[2]];
        continue;
      }
      const v = qRotate(W[p], restLocalT[b]);
      P[b] = [P[p][0] + v[0], P[p][1] + v[1], P[p][2] + v[2]];
    }
  };
  /** Rotation copy and forward kinematics of frame f, the hips lowered by `drop`. */
  const copyPose = (f: number, drop: number) => {
    for (let b = 0; b < nb; b++) {
      const j = src[b];
      if (j >= 0) W[b] = qNormalize(qMul(wrot(f, j), TW[b]));
      else if (parent[b] >= 0)
        W[b] = qNormalize(
          qMul(W[parent[b]], qMul(qConj(model.bones[parent[b]].rotation), model.bones[b].rotation)),
        );
      else W[b] = model.bones[b].rotation;
      (P as (Vec3 | undefined)[])[b] = undefined;
    }
    for (let b = 0; b < nb; b++) if (parent[b] < 0) P[b] = model.bones[b].position;
    // Hips: travel × h, height motion × s. Its ancestors (ground roots, armature nodes) stay at rest.
    const hp = wpos(f, 0);
    hipsWorld = [h * hp[0] + hipsOff[0], s * hp[1] + hipsOff[1] - drop, h * hp[2] + hipsOff[2]];
    // Detached bones: placed at their target before FK of their subtree.
    for (let b = 0; b < nb; b++) if (detached[b]) P[b] = model.bones[b].position;
    fkAll();
  };
  // How far the hips must come down for each foot target to lie within its straight leg.
  const hipsDrop = new Float64Array(F);
  if (ik) {
    const need = new Float64Array(F);
    for (let f = 0; f < F; f++) {
      copyPose(f, 0);
      for (const l of limbs) {
        if (l.arm) continue;
        // The floor-anchored part only (a foot off the floor follows its thigh), by its weight; a target the leg
        // cannot reach however low the hips go (too far sideways) does not pull them down.
        const w = footGroundWeight(wpos(f, l.j)[1] - cRest(l.j)[1]);
        if (w <= 0) continue;
        const t = targetOf(f, l);
        const a = P[l.a];
        const R = (reach.get(l.key) as number) * (1 - 1e-4) - 2e-4;
        const h2 = (t[0] - a[0]) ** 2 + (t[2] - a[2]) ** 2;
        const v = a[1] - t[1];
        const d = h2 < R * R ? w * (v - Math.sqrt(R * R - h2)) : 0;
        if (d > need[f]) need[f] = d;
      }
    }
    const r = Math.max(1, Math.round(clip.fps / 10));
    const mean = movingMean(movingMax(need, r), r);
    for (let f = 0; f < F; f++) hipsDrop[f] = Math.max(need[f], mean[f]);
  }
  for (let f = 0; f < F; f++) {
    copyPose(f, hipsDrop[f]);
    if (ik) {
      for (const l of limbs) {
        const t = targetOf(f, l);
        targets[l.key].push(t);
        // Where the chain's end actually is: the end bone, or (detached) the shin's own end.
        const endNow = (): Vec3 => {
          if (!detached[l.c]) return P[l.c];
          const tipLocal = qRotate(
            qConj(model.bones[l.b].rotation),
            sub(model.bones[l.c].position, model.bones[l.b].position),
          );
          const v = qRotate(W[l.b], tipLocal);
          return [P[l.b][0] + v[0], P[l.b][1] + v[1], P[l.b][2] + v[2]];
        };
        const pole = cross(sub(wpos(f, l.j), wpos(f, l.ja)), sub(wpos(f, l.jb), wpos(f, l.ja)));
        // Out of reach: along the line from the limb's root, softened near full extension (arms; feet by how far
        // off the floor they are: a planted foot is reached by lowering the hips instead).
        const R = reach.get(l.key) as number;
        const toT = sub(t, P[l.a]);
        const d = length(toT);
        beyondReach[l.key][f] = Math.max(0, d - R);
        const band = SOFT_REACH * R * (l.arm ? 1 : 1 - footGroundWeight(wpos(f, l.j)[1] - cRest(l.j)[1]));
        const ds = softReach(d, R, band);
        const ts: Vec3 =
          d > 1e-9 && ds < d
            ? [P[l.a][0] + (toT[0] * ds) / d, P[l.a][1] + (toT[1] * ds) / d, P[l.a][2] + (toT[2] * ds) / d]
            : t;
        twoBoneIk(P[l.a], P[l.b], endNow(), ts, W, l.a, l.b, pole);
        if (detached[l.c]) P[l.c] = ts;
        fkAll();
        if (detached[l.c]) P[l.c] = endNow();
        fkAll();
      }
    } else for (const l of limbs) targets[l.key].push(P[l.c]);
    // Store locals (rig units, canonical axes = rig axes).
    const wf = new Float64Array(3 * nb);
    for (let b = 0; b < nb; b++) {
      const p = parent[b];
      const L = p >= 0 ? qNormalize(qMul(qConj(W[p]), W[b])) : W[b];
      const T = p >= 0 ? qRotate(qConj(W[p]), sub(P[b], P[p])) : P[b];
      rotations.set(L, (f * nb + b) * 4);
      translations.set([T[0] * u, T[1] * u, T[2] * u], (f * nb + b) * 3);
      wf.set(P[b], 3 * b);
    }
    world.push(wf);
  }
  const keyed = new Uint8Array(nb);
  const translated = new Uint8Array(nb);
  for (let b = 0; b < nb; b++) {
    keyed[b] = src[b] >= 0 || rig.bones[b].role !== 'end' ? 1 : 0;
    const rt = rig.bones[b].restTranslation;
    let dev = 0;
    for (let f = 0; f < F; f++)
      for (let k = 0; k < 3; k++) dev = Math.max(dev, Math.abs(translations[(f * nb + b) * 3 + k] - rt[k]));
    translated[b] = dev > 1e-4 * u ? 1 : 0;
  }
  const rc = rigClipOf(clip, rig, { rotations, translations, keyed, translated });
  return { rig, clip: rc, scale: s, heightScale: h, world, targets, beyondReach, targetOffset, hipsDrop };
}

/** Two-bone IK in world space: rotates bones a and b (world rotations in W) so that the chain end c reaches t. */
function twoBoneIk(
  a: Vec3,
  b: Vec3,
  c: Vec3,
  t: Vec3,
  W: Quat[],
  ia: number,
  ib: number,
  poleAxis: Vec3,
): void {
  const lab = length(sub(b, a));
  const lcb = length(sub(c, b));
  if (lab < 1e-6 || lcb < 1e-6) return;
  const eps = 1e-4;
  const lat = Math.min(Math.max(length(sub(t, a)), Math.abs(lab - lcb) + eps), lab + lcb - eps);
  const clampAcos = (x: number) => Math.acos(Math.max(-1, Math.min(1, x)));
  const ac = normalize(sub(c, a));
  const ab = normalize(sub(b, a));
  const ba = normalize(sub(a, b));
  const bc = normalize(sub(c, b));
  const at = normalize(sub(t, a));
  const acab0 = clampAcos(dot(ac, ab));
  const babc0 = clampAcos(dot(ba, bc));
  const acat0 = clampAcos(dot(ac, at));
  const acab1 = clampAcos((lcb * lcb - lab * lab - lat * lat) / (-2 * lab * lat));
  const babc1 = clampAcos((lat * lat - lab * lab - lcb * lcb) / (-2 * lab * lcb));
  let axis0 = cross(ac, ab);
  if (length(axis0) < 1e-6) axis0 = length(poleAxis) > 1e-9 ? poleAxis : cross(ac, [0, 0, 1]);
  axis0 = normalize(axis0, [1, 0, 0]);
  const axis1 = cross(ac, at);
  const r0 = qFromAxisAngle(axis0, acab1 - acab0);
  const r1 = qFromAxisAngle(axis0, babc1 - babc0);
  const r2 = length(axis1) > 1e-9 ? qFromAxisAngle(normalize(axis1), acat0) : ID;
  W[ia] = qNormalize(qMul(r2, qMul(r0, W[ia])));
  W[ib] = qNormalize(qMul(r2, qMul(r0, qMul(r1, W[ib]))));
}
