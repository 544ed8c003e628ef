/**
 * Retargeting: canonical MotionClip → a rig's local bone transforms (`RigClip`).
 *
 * Method (world-space delta transfer, exact for the mapped joints' positions):
 * - canonical FK gives every canonical joint's world rotation Wc and position Pc per frame;
 * - a bone driven by canonical joint s gets the world rotation `Wc[s] · Wc_rest[s]⁻¹ · T[b]`, where `T[b]` is the
 *   bone's rest world rotation with the arms raised back to the T-pose (so A-pose rigs get the right arm angles:
 *   rest-pose differences are absorbed here, bone-local axes are carried by `T[b]`);
 * - a bone's world position is the point it is attached to on its carrier joint (`Pc[c] + Wc[c] · d`), so every
 *   mapped joint lands exactly where the canonical joint is. A local translation that differs from the rest
 *   translation (hips, ground root, Biped thighs under the spine) is keyed (`translated`);
 * - undriven bones (twist helpers, extra spine links, end markers) stay rigid at their rest local rotation;
 * - IK bones (Unreal `ik_foot_l`...) copy the world transform of the bone they follow;
 * - root motion per the rig's convention: hips carry the travel, or a ground root follows the hips over the floor
 *   (`rootMotion: true`), or horizontal travel is muted (Roblox);
 * - finally local values are changed to the rig's axes (basis conjugation) and units.
 *
 * `lowerBodyOnly` keeps the hips and legs; bones carried by the spine and above stay at their bind (rest) local
 * rotation and are not keyed.
 */

import type { MotionClip } from '../clip.ts';
import { conjMulQ64, mulQ64, rotateQ64 } from '../quat64.ts';
import { rigInternals } from '../rigs/build.ts';
import type { RetargetOptions, Rig, RigClip } from '../rigs/types.ts';

interface LocalCtx {
  W: Float64Array;
  P: Float64Array;
  L: Float64Array;
  T: Float64Array;
  q: Float64Array;
  tmpQ: Float64Array;
  bq: Float64Array;
  bqConj: Float64Array;
  sameAxes: boolean;
  Bm: Float64Array;
  u: number;
  parent: Int32Array;
  rotations: Float32Array;
  translations: Float32Array;
  nb: number;
}

/**
 * Bone b's local rotation and translation from the world ones (W, P), changed to the rig's axes and units and
 * stored at frame f. A module-level function rather than closures made per retarget call (V8 compiled those
 * afresh for every rig).
 */
function storeLocal(c: LocalCtx, f: number, b: number): void {
  const { W, P, L, T, q } = c;
  const p = c.parent[b];
  if (p < 0) {
    L.set(W.subarray(4 * b, 4 * b + 4));
    T.set(P.subarray(3 * b, 3 * b + 3));
  } else {
    conjMulQ64(L, 0, W, 4 * p, W, 4 * b);
    rotateQ64(T, W, 4 * p, P[3 * b] - P[3 * p], P[3 * b + 1] - P[3 * p + 1], P[3 * b + 2] - P[3 * p + 2], -1);
  }
  // Change of basis and units, then store.
  const ro = (f * c.nb + b) * 4;
  if (c.sameAxes) {
    q[0] = L[0];
    q[1] = L[1];
    q[2] = L[2];
    q[3] = L[3];
  } else {
    mulQ64(c.tmpQ, 0, c.bq, 0, L, 0);
    mulQ64(q, 0, c.tmpQ, 0, c.bqConj, 0);
  }
  const rotations = c.rotations;
  rotations[ro] = q[0];
  rotations[ro + 1] = q[1];
  rotations[ro + 2] = q[2];
  rotations[ro + 3] = q[3];
  const to = (f * c.nb + b) * 3;
  const B = c.Bm;
  const u = c.u;
  const translations = c.translations;
  translations[to] = (B[0] * T[0] + B[1] * T[1] + B[2] * T[2]) * u;
  translations[to + 1] = (B[3] * T[0] + B[4] * T[1] + B[5] * T[2]) * u;
  translations[to + 2] = (B[6] * T[0] + B[7] * T[1] + B[8] * T[2]) * u;
}

// ------------------------------------------------------------------ canonical FK cache

interface CanonicalWorld {
  /** `[f][j][4]` world rotations relative to the rest world rotation (Wc · Wc_rest⁻¹ is applied later). */
  rot: Float64Array;
  pos: Float64Array;
  restInv: Float64Array;
  /** Every rest rotation is the identity (the canonical skeleton): `rot` needs no rest correction. */
  restIdentity: boolean;
}

const FK_CACHE = new WeakMap<MotionClip, CanonicalWorld>();

/** World rotations and positions of every canonical joint at every frame (cached per clip). */
export function canonicalWorld(clip: MotionClip): CanonicalWorld {
  const hit = FK_CACHE.get(clip);
  if (hit) return hit;
  const sk = clip.skeleton;
  const n = sk.names.length;
  const F = clip.frameCount;
  const rot = new Float64Array(F * n * 4);
  const pos = new Float64Array(F * n * 3);
  const parents = sk.parents;
  const off = sk.offsets;
  const tmp = new Float64Array(3);
  for (let f = 0; f < F; f++) {
    const rb = f * n * 4;
    const pb = f * n * 3;
    for (let j = 0; j < n; j++) {
      const p = parents[j];
      if (p < 0) {
        rot[rb + 4 * j] = clip.rotations[rb + 4 * j];
        rot[rb + 4 * j + 1] = clip.rotations[rb + 4 * j + 1];
        rot[rb + 4 * j + 2] = clip.rotations[rb + 4 * j + 2];
        rot[rb + 4 * j + 3] = clip.rotations[rb + 4 * j + 3];
        pos[pb + 3 * j] = clip.rootPositions[3 * f];
        pos[pb + 3 * j + 1] = clip.rootPositions[3 * f + 1];
        pos[pb + 3 * j + 2] = clip.rootPositions[3 * f + 2];
      } else {
        mulQ64(rot, rb + 4 * j, rot, rb + 4 * p, clip.rotations, rb + 4 * j);
        rotateQ64(tmp, rot, rb + 4 * p, off[3 * j], off[3 * j + 1], off[3 * j + 2], 1);
        pos[pb + 3 * j] = pos[pb + 3 * p] + tmp[0];
        pos[pb + 3 * j + 1] = pos[pb + 3 * p + 1] + tmp[1];
        pos[pb + 3 * j + 2] = pos[pb + 3 * p + 2] + tmp[2];
      }
    }
  }
  // Inverse rest world rotations.
  const restW = new Float64Array(4 * n);
  const restInv = new Float64Array(4 * n);
  for (let j = 0; j < n; j++) {
    const p = parents[j];
    if (p < 0) restW.set(sk.restRotations.subarray(4 * j, 4 * j + 4), 4 * j);
    else mulQ64(restW, 4 * j, restW, 4 * p, sk.restRotations, 4 * j);
    restInv[4 * j] = -restW[4 * j];
    restInv[4 * j + 1] = -restW[4 * j + 1];
    restInv[4 * j + 2] = -restW[4 * j + 2];
    restInv[4 * j + 3] = restW[4 * j + 3];
  }
  let restIdentity = true;
  for (let j = 0; j < n && restIdentity; j++)
    restIdentity =
      restInv[4 * j] === 0 &&
      restInv[4 * j + 1] === 0 &&
      restInv[4 * j + 2] === 0 &&
      restInv[4 * j + 3] === 1;
  const out = { rot, pos, restInv, restIdentity };
  FK_CACHE.set(clip, out);
  return out;
}

/** What `retargetFrames` reads besides the `LocalCtx` (one object, built field by field in one order). */
interface FrameCtx {
  local: LocalCtx;
  nj: number;
  cwRot: Float64Array;
  cwPos: Float64Array;
  restInv: Float64Array;
  restIdentity: boolean;
  rootHoriz0x: number;
  rootHoriz0z: number;
  inPlace: boolean;
  groundRootMoves: boolean;
  follows: Int32Array;
  source: Int32Array;
  carrier: Int32Array;
  carrierPoint: Float64Array;
  restHips: Float64Array;
  tWorld: Float64Array;
  tLocal: Float64Array;
  bindLocal: Float64Array;
  restT: Float64Array;
  muted: Uint8Array;
  kind: Uint8Array;
  hipsIdx: number;
  tmpV: Float64Array;
}

/**
 * The per-frame loop of `retarget`: every bone's world rotation and position at frames 0..F-1, stored as local
 * values (`storeLocal`). A module-level function: run whole in optimised code and kept from rig to rig and clip to
 * clip (inside `retarget`, V8 compiled the loop on stack and deoptimised at the code after it, on every call).
 */
function retargetFrames(c: FrameCtx, F: number): void {
  const ctx = c.local;
  const { W, P, tmpQ, parent, nb } = ctx;
  const { nj, cwRot, cwPos, restInv, restIdentity, rootHoriz0x, rootHoriz0z, inPlace, groundRootMoves } = c;
  const { follows, source, carrier, carrierPoint, restHips, tWorld, tLocal, bindLocal, restT, muted, kind } =
    c;
  const hipsIdx = c.hipsIdx;
  const tmpV = c.tmpV;
  const rootJoint = 0;
  for (let f = 0; f < F; f++) {
    const rb = f * nj * 4;
    const pb = f * nj * 3;
    const dx = cwPos[pb + 3 * rootJoint] - rootHoriz0x;
    const dz = cwPos[pb + 3 * rootJoint + 2] - rootHoriz0z;
    // In-place rigs: the whole body is shifted back by the hips' horizontal travel.
    const shiftX = inPlace ? dx : 0;
    const shiftZ = inPlace ? dz : 0;
    for (let b = 0; b < nb; b++) {
      if (follows[b] >= 0) continue;
      const p = parent[b];
      const s = source[b];
      // Rotation.
      if (s >= 0 && !muted[b]) {
        if (restIdentity) mulQ64(W, 4 * b, cwRot, rb + 4 * s, tWorld, 4 * b);
        else {
          mulQ64(tmpQ, 0, cwRot, rb + 4 * s, restInv, 4 * s);
          mulQ64(W, 4 * b, tmpQ, 0, tWorld, 4 * b);
        }
      } else if (p < 0) {
        W[4 * b] = tWorld[4 * b];
        W[4 * b + 1] = tWorld[4 * b + 1];
        W[4 * b + 2] = tWorld[4 * b + 2];
        W[4 * b + 3] = tWorld[4 * b + 3];
      } else {
        mulQ64(W, 4 * b, W, 4 * p, muted[b] ? bindLocal : tLocal, 4 * b);
      }
      // Position.
      if (b === hipsIdx) {
        P[3 * b] = cwPos[pb + 3 * rootJoint];
        P[3 * b + 1] = cwPos[pb + 3 * rootJoint + 1];
        P[3 * b + 2] = cwPos[pb + 3 * rootJoint + 2];
        if (inPlace) {
          P[3 * b] -= dx;
          P[3 * b + 2] -= dz;
        }
      } else if (kind[b] === 1 && p < 0) {
        P[3 * b] = 0;
        P[3 * b + 1] = 0;
        P[3 * b + 2] = 0;
        if (groundRootMoves) {
          P[3 * b] = cwPos[pb + 3 * rootJoint];
          P[3 * b + 2] = cwPos[pb + 3 * rootJoint + 2];
        }
      } else if (p < 0) {
        P[3 * b] = restHips[3 * b];
        P[3 * b + 1] = restHips[3 * b + 1];
        P[3 * b + 2] = restHips[3 * b + 2];
      } else {
        const c = carrier[b];
        if (c >= 0 && !muted[b] && kind[b] !== 2) {
          rotateQ64(
            tmpV,
            cwRot,
            rb + 4 * c,
            carrierPoint[3 * b],
            carrierPoint[3 * b + 1],
            carrierPoint[3 * b + 2],
            1,
          );
          P[3 * b] = cwPos[pb + 3 * c] + tmpV[0] - shiftX;
          P[3 * b + 1] = cwPos[pb + 3 * c + 1] + tmpV[1];
          P[3 * b + 2] = cwPos[pb + 3 * c + 2] + tmpV[2] - shiftZ;
        } else {
          rotateQ64(tmpV, W, 4 * p, restT[3 * b], restT[3 * b + 1], restT[3 * b + 2], 1);
          P[3 * b] = P[3 * p] + tmpV[0];
          P[3 * b + 1] = P[3 * p + 1] + tmpV[1];
          P[3 * b + 2] = P[3 * p + 2] + tmpV[2];
        }
      }
      storeLocal(ctx, f, b);
    }
    // IK / follower bones, in bone order.
    for (let b = 0; b < nb; b++) {
      const t = follows[b];
      if (t < 0) continue;
      for (let k = 0; k < 4; k++) W[4 * b + k] = W[4 * t + k];
      for (let k = 0; k < 3; k++) P[3 * b + k] = P[3 * t + k];
      storeLocal(ctx, f, b);
    }
  }
}

/**
 * Per bone, the largest deviation of any translation component from its rest value over frames 0..F-1 (frame
 * by frame, in memory order). A module-level function for the reason given at `retargetFrames`.
 */
function maxDeviations(
  translations: Float32Array,
  restTr: Float64Array,
  nb: number,
  F: number,
): Float64Array {
  const dev = new Float64Array(nb);
  for (let f = 0; f < F; f++) {
    let o = f * nb * 3;
    for (let b = 0; b < nb; b++, o += 3) {
      dev[b] = Math.max(
        dev[b],
        Math.abs(translations[o] - restTr[3 * b]),
        Math.abs(translations[o + 1] - restTr[3 * b + 1]),
        Math.abs(translations[o + 2] - restTr[3 * b + 2]),
      );
    }
  }
  return dev;
}

/** Retargets a canonical clip onto a rig built for the clip's skeleton (`buildRig(id, clip.skeleton)`). */
export function retarget(clip: MotionClip, rig: Rig, options: RetargetOptions = {}): RigClip {
  const I = rigInternals(rig);
  const bones = rig.bones;
  const nb = bones.length;
  const sk = clip.skeleton;
  const nj = sk.names.length;
  if (
    I.canonNames !== sk.names &&
    (I.canonNames.length !== nj || I.canonNames.some((n, j) => n !== sk.names[j]))
  )
    throw new Error(
      `retarget: rig ${rig.id} was built for another skeleton (joints differ); build it with buildRig(id, clip.skeleton)`,
    );
  const F = clip.frameCount;
  const cw = canonicalWorld(clip);
  const lower = options.lowerBodyOnly === true;
  const hipsIdx = bones.findIndex((b) => b.name === rig.hipsBone);
  const rootJoint = 0; // the canonical root joint (hips) is always joint 0
  const u = rig.unitsPerMetre;
  const B = rig.basis;
  const bq = Float64Array.from(I.basisQuat);
  const bqConj = Float64Array.of(-bq[0], -bq[1], -bq[2], bq[3]);

  // Rest data in canonical space: T-equivalent local rotations and bind local rotations/translations.
  const tLocal = new Float64Array(4 * nb);
  const bindLocal = new Float64Array(4 * nb);
  const restT = new Float64Array(3 * nb); // canonical-space local rest translation, metres
  const tmpQ = new Float64Array(4);
  const restQ = new Float64Array(4);
  const tmpV = new Float64Array(3);
  for (let b = 0; b < nb; b++) {
    const p = I.parent[b];
    if (p < 0) tLocal.set(I.tWorld.subarray(4 * b, 4 * b + 4), 4 * b);
    else conjMulQ64(tLocal, 4 * b, I.tWorld, 4 * p, I.tWorld, 4 * b);
    // bind local: rig-space rest rotation back to canonical: bq⁻¹ · q · bq
    restQ.set(bones[b].restRotation);
    mulQ64(tmpQ, 0, bqConj, 0, restQ, 0);
    mulQ64(bindLocal, 4 * b, tmpQ, 0, bq, 0);
    const rt = bones[b].restTranslation;
    // B^T · t / u
    restT[3 * b] = (B[0] * rt[0] + B[3] * rt[1] + B[6] * rt[2]) / u;
    restT[3 * b + 1] = (B[1] * rt[0] + B[4] * rt[1] + B[7] * rt[2]) / u;
    restT[3 * b + 2] = (B[2] * rt[0] + B[5] * rt[1] + B[8] * rt[2]) / u;
  }
  const muted = new Uint8Array(nb);
  if (lower) for (let b = 0; b < nb; b++) muted[b] = b !== hipsIdx && I.upper[b] ? 1 : 0;

  const rotations = new Float32Array(F * nb * 4);
  const translations = new Float32Array(F * nb * 3);
  const W = new Float64Array(4 * nb);
  const P = new Float64Array(3 * nb);
  const L = new Float64Array(4);
  const T = new Float64Array(3);
  // The per-frame loop reads only locals and typed arrays: reading the rig's objects there (bone roles, rig
  // settings) made V8 deoptimise it when another rig's objects came by, and the rest of the clip ran slowly.
  const parent = I.parent;
  const source = I.source;
  const carrier = I.carrier;
  const follows = I.follows;
  const tWorld = I.tWorld;
  const carrierPoint = I.carrierPoint;
  const restHips = I.carrierPoint; // for top bones without a carrier: world rest point
  const cwRot = cw.rot;
  const cwPos = cw.pos;
  const restInv = cw.restInv;
  const restIdentity = cw.restIdentity;
  const Bm = Float64Array.from(B);
  /** 1: a `root`-role bone; 2: a helper or end bone (rigid on its parent). */
  const kind = new Uint8Array(nb);
  for (let b = 0; b < nb; b++) {
    const role = bones[b].role;
    kind[b] = role === 'root' ? 1 : role === 'helper' || role === 'end' ? 2 : 0;
  }
  const inPlace = rig.rootMotion === 'inPlace';
  const groundRootMoves = !!options.rootMotion && rig.rootMotion === 'groundRoot';
  const rootHoriz0x = cwPos[3 * rootJoint];
  const rootHoriz0z = cwPos[3 * rootJoint + 2];

  const q = new Float64Array(4);
  // Y-up, +Z-front rigs (Mixamo...) share the canonical axes: their rotations need no change of basis.
  const sameAxes = bq[0] === 0 && bq[1] === 0 && bq[2] === 0 && bq[3] === 1;
  const ctx: LocalCtx = {
    W,
    P,
    L,
    T,
    q,
    tmpQ,
    bq,
    bqConj,
    sameAxes,
    Bm,
    u,
    parent,
    rotations,
    translations,
    nb,
  };
  const fc: FrameCtx = {
    local: ctx,
    nj,
    cwRot,
    cwPos,
    restInv,
    restIdentity,
    rootHoriz0x,
    rootHoriz0z,
    inPlace,
    groundRootMoves,
    follows,
    source,
    carrier,
    carrierPoint,
    restHips,
    tWorld,
    tLocal,
    bindLocal,
    restT,
    muted,
    kind,
    hipsIdx,
    tmpV,
  };
  retargetFrames(fc, F);

  // Which bones move their translation, and which are keyed.
  const keyed = new Uint8Array(nb);
  const translated = new Uint8Array(nb);
  const restTr = new Float64Array(3 * nb);
  for (let b = 0; b < nb; b++) restTr.set(bones[b].restTranslation, 3 * b);
  const dev = maxDeviations(translations, restTr, nb, F);
  for (let b = 0; b < nb; b++) {
    const maxDev = dev[b];
    // Keyed when it moves by more than 0.01 mm (float noise stays below).
    translated[b] = maxDev > 1e-5 * u && !muted[b] ? 1 : 0;
    keyed[b] = kind[b] !== 2 && !muted[b] ? 1 : 0;
  }
  return rigClipOf(clip, rig, { rotations, translations, keyed, translated }, clip.blendshapes);
}

/**
 * The RigClip of `clip`'s take on `rig` from its per-frame arrays (`clip`'s rate and frame count; the face
 * curves when given), named after the clip's source file (without extension) or 'Take 001'.
 */
export function rigClipOf(
  clip: MotionClip,
  rig: Rig,
  frames: Pick<RigClip, 'rotations' | 'translations' | 'keyed' | 'translated'>,
  blendshapes?: RigClip['blendshapes'],
): RigClip {
  return {
    rig,
    fps: clip.fps,
    frameCount: clip.frameCount,
    rotations: frames.rotations,
    translations: frames.translations,
    keyed: frames.keyed,
    translated: frames.translated,
    ...(blendshapes ? { blendshapes } : {}),
    name: clip.metadata.source ? clip.metadata.source.replace(/\.[^.]*$/, '') : 'Take 001',
  };
}

/**
 * World positions of every bone of a RigClip at a frame, in rig space and units (`[3 × boneCount]`), by plain FK of
 * the local rotations and translations.
 */
export function rigWorldPositions(clip: RigClip, frame: number): Float64Array {
  const nb = clip.rig.bones.length;
  const parentIdx = clip.rig.bones.map((b) =>
    b.parent === null ? -1 : clip.rig.bones.findIndex((x) => x.name === b.parent),
  );
  const W = new Float64Array(4 * nb);
  const P = new Float64Array(3 * nb);
  const v = new Float64Array(3);
  for (let b = 0; b < nb; b++) {
    const ro = (frame * nb + b) * 4;
    const to = (frame * nb + b) * 3;
    const p = parentIdx[b];
    if (p < 0) {
      W.set(clip.rotations.subarray(ro, ro + 4), 4 * b);
      P.set(clip.translations.subarray(to, to + 3), 3 * b);
    } else {
      mulQ64(W, 4 * b, W, 4 * p, clip.rotations, ro);
      rotateQ64(v, W, 4 * p, clip.translations[to], clip.translations[to + 1], clip.translations[to + 2]);
      P[3 * b] = P[3 * p] + v[0];
      P[3 * b + 1] = P[3 * p + 1] + v[1];
      P[3 * b + 2] = P[3 * p + 2] + v[2];
    }
  }
  return P;
}
