/**
 * VMD writer (MikuMikuDance motion, "Vocaloid Motion Data 0002", formats.md c): bone keys for the MMD standard
 * bones, leg IK targets, and morph keys for the face.
 *
 * Input: a `RigClip` retargeted to the `mmd` rig (`retarget(clip, buildRig('mmd', clip.skeleton))`), whose data
 * is already in MMD space: left-handed, Y up, the model facing -Z, MMD units, A-pose rest (arms ~37° down), bones
 * without rest orientation. Face only (OnlyFace): any clip with face curves through `writeMorphs`.
 *
 * Records (all little-endian, names Shift_JIS, NUL-padded, exact sizes): 30-byte signature, 20-byte model name,
 * bone keys (111 bytes: name[15], frame u32, position f32×3, quaternion f32×4, interpolation u8[64]), morph keys
 * (23 bytes), camera 0, light 0, self-shadow 0, one IK/visibility frame at frame 0 (9 + 21·4 bytes) that turns
 * 左足ＩＫ, 右足ＩＫ, 左つま先ＩＫ, 右つま先ＩＫ on.
 *
 * What is keyed
 * - Every frame of every bone the RigClip keys (no key reduction: positions are exact), at 30 fps (MMD's fixed
 *   rate; other rates are resampled: translations linearly, rotations by normalised lerp on the shorter arc).
 * - Position = local translation − rest translation (MMD stores offsets from the rest position), rotation = the
 *   local rotation relative to rest (x, y, z, w), linear interpolation (20, 20, 107, 107).
 * - センター carries the horizontal travel and グルーブ the vertical one (the split MMD users edit), when
 *   センター itself does not rotate (true for the mmd rig).
 * - 足ＩＫ/つま先ＩＫ: translation (and rotation) from the foot and toe world transforms, so the legs follow the
 *   motion with IK on, as in dance motions.
 * - Morphs: あ, い, う, え, お, まばたき, ウィンク (left eye), ウィンク右, にこり, 困る, 怒り, びっくり from the ARKit curves
 *   (see `face.ts` for the formulas), plus every ARKit shape name that fits VMD's 15-byte name field under its own
 *   name (for "Perfect Sync" models that carry ARKit morphs, such as Gene); longer ARKit names are left out.
 *   Morph keys are reduced: a key is dropped when linear interpolation of its neighbours reproduces it to 0.002.
 *
 * Scale: the mmd rig is in MMD units of 8 cm (12.5 units per metre, mmd_tools' import scale 0.08). A motion is
 * played on someone else's model, so positions (センター, グルーブ and the IK targets) are then scaled so that the
 * clip's hip-joint height matches a standard Tda-style model's (左足 at 10.5 units ≈ 84 cm; the Gene test model
 * has 10.48): otherwise feet would float or the IK could not reach on a shorter model. `targetHipHeight` sets it
 * for another model; `targetHipHeight: null` keeps plain 8 cm units.
 *
 * - 両目 (both eyes) from the ARKit eyeLook shapes when the clip has them (iris tracking): yaw 25° and pitch 20°
 *   at weight 1, toward the look direction; models whose 左目/右目 inherit 両目 at a lower ratio (Gene: 0.15) move
 *   their eyes less.
 * - A bone whose keys would all be the rest pose is not written (腰, which many models lack, stays out).
 * - 左つま先/右つま先 are not keyed: in standard models they are the toe-IK end points, not joints; the toe flex
 *   of the clip is therefore not carried (the toe IK keeps the toe tips where the clip has them).
 *
 * Limits: no camera, light or shadow keys; 全ての親 is not keyed; twist bones and eyes stay at rest; bone and
 * morph names longer than 15 Shift_JIS bytes cannot be written (an error for bones).
 */

import iconv from 'iconv-lite';
import type { BlendshapeCurves } from '../clip.ts';
import { continuousUnitQ64 } from '../quat64.ts';
import type { RigClip } from '../rigs/types.ts';
import { type Expression, expressionCurves, type FaceSource } from './face.ts';

export const VMD_FPS = 30;
/** 左足 height of a standard Tda-style model, MMD units (Gene: 10.48). */
export const STANDARD_HIP_HEIGHT = 10.5;

const SIGNATURE = 'Vocaloid Motion Data 0002';
export const BONE_RECORD = 111;
export const MORPH_RECORD = 23;
const IK_BONES = ['左足ＩＫ', '右足ＩＫ', '左つま先ＩＫ', '右つま先ＩＫ'];
/** Never keyed: in standard models つま先 is the toe-IK end point, not a joint (toe flex bones are named
 *  differently per model: 足先EX, つま先EX). */
const NOT_KEYED = new Set(['左つま先', '右つま先']);

/** MMD morph ← expression (VRM preset names, computed in `face.ts`). */
export const MMD_MORPHS: readonly [string, Expression][] = [
  ['あ', 'aa'],
  ['い', 'ih'],
  ['う', 'ou'],
  ['え', 'ee'],
  ['お', 'oh'],
  ['まばたき', 'blink'],
  ['ウィンク', 'blinkLeft'],
  ['ウィンク右', 'blinkRight'],
  ['にこり', 'happy'],
  ['困る', 'sad'],
  ['怒り', 'angry'],
  ['びっくり', 'surprised'],
];

export interface VmdOptions {
  /** Model name in the header (display only; MMD binds by bone name). Default "mocap". */
  modelName?: string;
  /** Hip-joint (左足) height of the target model in MMD units; null = no fitting. Default 10.5. */
  targetHipHeight?: number | null;
  /** Write morph keys when the clip has face curves (default true). */
  morphs?: boolean;
  /** Write bone keys (default true; false = a face-only VMD). */
  bones?: boolean;
  /** Key 両目 from the gaze shapes when they were estimated (default true). */
  gaze?: boolean;
}

/** Shift_JIS bytes of a name; throws when longer than `size`. */
export function sjis(name: string, size: number): Uint8Array {
  const b = iconv.encode(name, 'Shift_JIS');
  if (b.length > size)
    throw new Error(`VMD: "${name}" is ${b.length} Shift_JIS bytes, the field holds ${size}`);
  // iconv-lite maps unencodable characters to "?"; refuse them rather than writing a wrong name.
  if (iconv.decode(b, 'Shift_JIS') !== name) throw new Error(`VMD: "${name}" cannot be encoded in Shift_JIS`);
  return b;
}

const fitsSjis = (name: string, size: number) => {
  const b = iconv.encode(name, 'Shift_JIS');
  return b.length <= size && iconv.decode(b, 'Shift_JIS') === name;
};

/** Linear interpolation block (64 bytes): x1 = y1 = 20, x2 = y2 = 107 for X, Y, Z and rotation. */
const LINEAR_INTERP = (() => {
  const base = [20, 20, 20, 20, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107];
  const out = new Uint8Array(64);
  for (let r = 0; r < 4; r++) for (let i = 0; i < 16; i++) out[r * 16 + i] = base[(i + r) % 16];
  return out;
})();

/**
 * Frame times of the 30 fps timeline for a clip: VMD frame k ↔ source frame position k * fps / 30, i.e. between
 * source frames `i[k]` and `j[k]` at fraction `t[k]` (tables computed once, read in the per-key loops).
 */
function resampleIndex(
  fps: number,
  frameCount: number,
): { count: number; i: Int32Array; j: Int32Array; t: Float64Array } {
  const same = Math.abs(fps - VMD_FPS) < 1e-9;
  const count = same ? frameCount : Math.floor(((frameCount - 1) / fps) * VMD_FPS + 1e-9) + 1;
  const I = new Int32Array(count);
  const J = new Int32Array(count);
  const T = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    if (same) {
      I[k] = k;
      J[k] = k;
      continue;
    }
    const s = (k * fps) / VMD_FPS;
    const i = Math.min(frameCount - 1, Math.floor(s));
    I[k] = i;
    J[k] = Math.min(frameCount - 1, i + 1);
    T[k] = s - i;
  }
  return { count, i: I, j: J, t: T };
}

class Writer {
  private buf: Uint8Array;
  private dv: DataView;
  o = 0;
  constructor(size: number) {
    this.buf = new Uint8Array(size);
    this.dv = new DataView(this.buf.buffer);
  }
  bytes(b: Uint8Array, field: number) {
    this.buf.set(b, this.o);
    this.o += field;
  }
  u8(v: number) {
    this.dv.setUint8(this.o, v);
    this.o += 1;
  }
  u32(v: number) {
    this.dv.setUint32(this.o, v, true);
    this.o += 4;
  }
  f32(v: number) {
    this.dv.setFloat32(this.o, v, true);
    this.o += 4;
  }
  /**
   * `frames` bone records of one bone (name, frame, position, rotation, interpolation): the constant fields are
   * laid down by doubling copies of the first record, then frame numbers and values are written in place.
   */
  boneRecords(b: BoneKeys, frames: number) {
    if (frames === 0) return;
    const start = this.o;
    this.buf.fill(0, start, start + BONE_RECORD);
    this.buf.set(b.name, start);
    this.buf.set(LINEAR_INTERP, start + BONE_RECORD - 64);
    let filled = 1;
    while (filled < frames) {
      const n = Math.min(filled, frames - filled);
      this.buf.copyWithin(start + filled * BONE_RECORD, start, start + n * BONE_RECORD);
      filled += n;
    }
    const dv = this.dv;
    for (let k = 0, o = start + 15; k < frames; k++, o += BONE_RECORD) {
      dv.setUint32(o, k, true);
      dv.setFloat32(o + 4, b.pos[3 * k], true);
      dv.setFloat32(o + 8, b.pos[3 * k + 1], true);
      dv.setFloat32(o + 12, b.pos[3 * k + 2], true);
      dv.setFloat32(o + 16, b.rot[4 * k], true);
      dv.setFloat32(o + 20, b.rot[4 * k + 1], true);
      dv.setFloat32(o + 24, b.rot[4 * k + 2], true);
      dv.setFloat32(o + 28, b.rot[4 * k + 3], true);
    }
    this.o = start + frames * BONE_RECORD;
  }
  done(): Uint8Array {
    if (this.o !== this.buf.length)
      throw new Error(`VMD: wrote ${this.o} bytes, expected ${this.buf.length}`);
    return this.buf;
  }
}

interface BoneKeys {
  label: string;
  name: Uint8Array;
  /** `[count × 3]` position offsets and `[count × 4]` rotations on the 30 fps timeline. */
  pos: Float32Array;
  rot: Float32Array;
}

interface MorphKey {
  name: Uint8Array;
  frame: number;
  weight: number;
}

/**
 * One bone's VMD values at the resampled frames (`atI`/`atJ`/`atT`): position offsets from rest (scaled by `s`) into
 * `pos`, rotations relative to rest (`rq`) into `rot`. `mode` 1: the centre bone of a split centre/groove pair
 * (no height), 2: the groove (only the centre's height). A module-level function on typed arrays and numbers: V8
 * keeps its optimised code from clip to clip (the loop inside `boneKeys` was recompiled, at 80–150 ms, on every
 * export).
 */
function boneKeyValues(
  rotations: Float32Array,
  translations: Float32Array,
  nb: number,
  b: number,
  atI: Int32Array,
  atJ: Int32Array,
  atT: Float64Array,
  count: number,
  translated: boolean,
  s: number,
  rt: ArrayLike<number>,
  mode: number,
  centre: number,
  crt: number,
  rq: ArrayLike<number>,
  pos: Float32Array,
  rot: Float32Array,
): void {
  const ax = -rq[0];
  const ay = -rq[1];
  const az = -rq[2];
  const aw = rq[3];
  const rt0 = rt[0];
  const rt1 = rt[1];
  const rt2 = rt[2];
  const q = new Float64Array(8);
  for (let k = 0; k < count; k++) {
    const i = atI[k];
    const j = atJ[k];
    const t = atT[k];
    // Translation offset from rest, scaled.
    const ti = (i * nb + b) * 3;
    const tj = (j * nb + b) * 3;
    let ox = 0;
    let oy = 0;
    let oz = 0;
    if (translated) {
      ox = (translations[ti] + t * (translations[tj] - translations[ti]) - rt0) * s;
      oy = (translations[ti + 1] + t * (translations[tj + 1] - translations[ti + 1]) - rt1) * s;
      oz = (translations[ti + 2] + t * (translations[tj + 2] - translations[ti + 2]) - rt2) * s;
    }
    if (mode === 1) oy = 0;
    else if (mode === 2) {
      const ci = (i * nb + centre) * 3 + 1;
      const cj = (j * nb + centre) * 3 + 1;
      ox = 0;
      oz = 0;
      oy += (translations[ci] + t * (translations[cj] - translations[ci]) - crt) * s;
    }
    pos[3 * k] = ox;
    pos[3 * k + 1] = oy;
    pos[3 * k + 2] = oz;
    // Rotation relative to rest: conj(rest) · local, nlerp between source frames.
    const ri = (i * nb + b) * 4;
    const rj = (j * nb + b) * 4;
    let x = rotations[ri];
    let y = rotations[ri + 1];
    let z = rotations[ri + 2];
    let w = rotations[ri + 3];
    if (t > 0) {
      const d = x * rotations[rj] + y * rotations[rj + 1] + z * rotations[rj + 2] + w * rotations[rj + 3];
      const sg = d < 0 ? -1 : 1;
      x += t * (sg * rotations[rj] - x);
      y += t * (sg * rotations[rj + 1] - y);
      z += t * (sg * rotations[rj + 2] - z);
      w += t * (sg * rotations[rj + 3] - w);
    }
    q[0] = aw * x + ax * w + ay * z - az * y;
    q[1] = aw * y - ax * z + ay * w + az * x;
    q[2] = aw * z + ax * y - ay * x + az * w;
    q[3] = aw * w - ax * x - ay * y - az * z;
    // Unit, and sign continuity keeps MMD's slerp on the short arc.
    continuousUnitQ64(q, k > 0);
    rot[4 * k] = q[0];
    rot[4 * k + 1] = q[1];
    rot[4 * k + 2] = q[2];
    rot[4 * k + 3] = q[3];
  }
}

/** Bone keys of an mmd RigClip on the 30 fps timeline. */
/** Whether every one of `count` keys is the rest pose (no translation, identity rotation). Module level: see `boneKeyValues`. */
function atRest(pos: Float32Array, rot: Float32Array, count: number): boolean {
  for (let k = 0; k < count; k++) {
    if (Math.abs(pos[3 * k]) + Math.abs(pos[3 * k + 1]) + Math.abs(pos[3 * k + 2]) > 1e-6) return false;
    if (Math.abs(rot[4 * k + 3]) < 1 - 1e-9) return false;
  }
  return true;
}

function boneKeys(rc: RigClip, opts: VmdOptions): { keys: BoneKeys[]; count: number } {
  const { rig } = rc;
  const B = rig.basis;
  const isMmd = rig.axes.handedness === 'left' && rig.axes.up === '+Y' && rig.axes.front === '-Z';
  if (!isMmd || B[8] !== -1)
    throw new Error(`VMD: rig "${rig.id}" is not in MMD space (left-handed, Y up, facing -Z)`);
  const nb = rig.bones.length;
  const idx = new Map(rig.bones.map((b, i) => [b.name, i]));
  const F = rc.frameCount;
  const { count, i: atI, j: atJ, t: atT } = resampleIndex(rc.fps, F);

  // Scale positions to the target model's hip height.
  let s = 1;
  if (opts.targetHipHeight !== null) {
    const thigh = idx.get('左足');
    if (thigh === undefined) throw new Error('VMD: the rig has no 左足 bone to fit the hip height');
    let y = 0;
    for (let b: number = thigh; b >= 0; ) {
      y += rig.bones[b].restTranslation[1];
      const p = rig.bones[b].parent;
      b = p === null ? -1 : (idx.get(p) ?? -1);
    }
    if (!(y > 0)) throw new Error('VMD: the rig hip height is not positive');
    s = (opts.targetHipHeight ?? STANDARD_HIP_HEIGHT) / y;
  }

  const centre = idx.get('センター');
  const groove = idx.get('グルーブ');
  let splitCentre = centre !== undefined && groove !== undefined && rc.keyed[centre] === 1;
  if (splitCentre && centre !== undefined) {
    for (let f = 0; f < F && splitCentre; f++) {
      const w = Math.abs(rc.rotations[(f * nb + centre) * 4 + 3]);
      if (w < 1 - 1e-7) splitCentre = false;
    }
  }

  const keys: BoneKeys[] = [];
  for (let b = 0; b < nb; b++) {
    const keyed = rc.keyed[b] === 1 || (splitCentre && b === groove);
    if (!keyed || NOT_KEYED.has(rig.bones[b].name)) continue;
    const bone = rig.bones[b];
    const rq = bone.restRotation;
    const rt = bone.restTranslation;
    const pos = new Float32Array(count * 3);
    const rot = new Float32Array(count * 4);
    const mode =
      splitCentre && b === centre ? 1 : splitCentre && b === groove && centre !== undefined ? 2 : 0;
    const cb = centre ?? 0;
    boneKeyValues(
      rc.rotations,
      rc.translations,
      nb,
      b,
      atI,
      atJ,
      atT,
      count,
      rc.translated[b] === 1,
      s,
      rt,
      mode,
      cb,
      rig.bones[cb]?.restTranslation[1] ?? 0,
      rq,
      pos,
      rot,
    );
    // A bone whose keys are all the rest pose is left out (a model without that semi-standard bone, such as
    // 腰 on many models, then gets no key it cannot bind).
    const still = atRest(pos, rot, count);
    if (still && !(splitCentre && (b === centre || b === groove))) continue;
    keys.push({ label: bone.name, name: sjis(bone.name, 15), pos, rot });
  }
  // Gaze: 両目 from the ARKit eyeLook shapes (when estimated), as in hand-made MMD motions.
  const bs = rc.blendshapes;
  const eyes = idx.get('両目');
  if (
    opts.gaze !== false &&
    bs?.supported.includes('eyeLookOutLeft') &&
    eyes !== undefined &&
    rc.keyed[eyes] !== 1
  ) {
    // Gaze angles per source frame (shape indices looked up once).
    const K = bs.names.length;
    const w = bs.weights;
    const at = (n: string) => bs.names.indexOf(n as never);
    const [oL, iR, iL, oR] = ['eyeLookOutLeft', 'eyeLookInRight', 'eyeLookInLeft', 'eyeLookOutRight'].map(at);
    const [dL, dR, uL, uR] = ['eyeLookDownLeft', 'eyeLookDownRight', 'eyeLookUpLeft', 'eyeLookUpRight'].map(
      at,
    );
    const yaws = new Float64Array(F);
    const pitches = new Float64Array(F);
    gazeAngles(w, K, F, Int32Array.of(oL, iR, iL, oR, dL, dR, uL, uR), yaws, pitches);
    const pos = new Float32Array(count * 3);
    const rot = new Float32Array(count * 4);
    gazeKeys(yaws, pitches, atI, atJ, atT, count, rot);
    keys.push({ label: '両目', name: sjis('両目', 15), pos, rot });
  }
  return { keys, count };
}

const c01 = (v: number) => Math.min(1, Math.max(0, v));

/**
 * Gaze yaw and pitch (at weight 1) per source frame from the eyeLook weights; `ix`: out-left, in-right, in-left,
 * out-right, down-left, down-right, up-left, up-right. Module level: see `boneKeyValues`.
 */
function gazeAngles(
  w: Float32Array,
  K: number,
  F: number,
  ix: Int32Array,
  yaws: Float64Array,
  pitches: Float64Array,
): void {
  const oL = ix[0];
  const iR = ix[1];
  const iL = ix[2];
  const oR = ix[3];
  const dL = ix[4];
  const dR = ix[5];
  const uL = ix[6];
  const uR = ix[7];
  for (let f = 0; f < F; f++) {
    const o = f * K;
    yaws[f] = 0.5 * (c01(w[o + oL]) + c01(w[o + iR])) - 0.5 * (c01(w[o + iL]) + c01(w[o + oR]));
    pitches[f] = 0.5 * (c01(w[o + dL]) + c01(w[o + dR])) - 0.5 * (c01(w[o + uL]) + c01(w[o + uR]));
  }
}

/** The 両目 rotations at the resampled keys (canonical Ry(yaw) · Rx(pitch), in MMD axes). */
function gazeKeys(
  yaws: Float64Array,
  pitches: Float64Array,
  atI: Int32Array,
  atJ: Int32Array,
  atT: Float64Array,
  count: number,
  rot: Float32Array,
): void {
  for (let k = 0; k < count; k++) {
    const i = atI[k];
    const j = atJ[k];
    const t = atT[k];
    const yaw = GAZE_YAW * (yaws[i] + t * (yaws[j] - yaws[i]));
    const pitch = GAZE_PITCH * (pitches[i] + t * (pitches[j] - pitches[i]));
    // Canonical Ry(yaw) · Rx(pitch) (yaw toward the character's left, pitch down), then to MMD: (−x, −y, z, w).
    const cy = Math.cos(yaw / 2);
    const sy = Math.sin(yaw / 2);
    const cx = Math.cos(pitch / 2);
    const sx = Math.sin(pitch / 2);
    rot[4 * k] = -(cy * sx);
    rot[4 * k + 1] = -(sy * cx);
    rot[4 * k + 2] = -sy * sx;
    rot[4 * k + 3] = cy * cx;
  }
}

/** Gaze angles at shape weight 1 (ARKit's eyeLook shapes span about ±25° sideways, ±20° up/down). */
const GAZE_YAW = (25 * Math.PI) / 180;
const GAZE_PITCH = (20 * Math.PI) / 180;

/** Drops keys that linear interpolation of the kept neighbours reproduces within `tol`. */
function reduce(values: Float32Array, tol: number): number[] {
  const n = values.length;
  if (n <= 2) return Array.from({ length: n }, (_, i) => i);
  const kept = [0];
  let last = 0;
  for (let i = 1; i < n - 1; i++) {
    // Keep i when dropping it would move any frame between `last` and i + 1 by more than tol.
    const a = values[last];
    const b = values[i + 1];
    const span = i + 1 - last;
    let ok = true;
    for (let k = last + 1; k <= i; k++) {
      if (Math.abs(a + ((b - a) * (k - last)) / span - values[k]) > tol) {
        ok = false;
        break;
      }
    }
    if (!ok) {
      kept.push(i);
      last = i;
    }
  }
  kept.push(n - 1);
  return kept;
}

/** Morph keys per face curves and timeline: the VMD of VMD-TDA and the face VMD of OnlyFace share them. */
const MORPH_CACHE = new WeakMap<BlendshapeCurves, Map<string, MorphKey[]>>();

/** Morph keys from face curves on the 30 fps timeline (cached per curves object, fps and frame count). */
function morphKeys(src: FaceSource & { blendshapes: BlendshapeCurves }): MorphKey[] {
  let m = MORPH_CACHE.get(src.blendshapes);
  if (!m) {
    m = new Map();
    MORPH_CACHE.set(src.blendshapes, m);
  }
  const key = `${src.fps}|${src.frameCount}`;
  let keys = m.get(key);
  if (!keys) {
    keys = computeMorphKeys(src);
    m.set(key, keys);
  }
  return keys;
}

function computeMorphKeys(src: FaceSource & { blendshapes: BlendshapeCurves }): MorphKey[] {
  const index = resampleIndex(src.fps, src.frameCount);
  const expr = expressionCurves(src);
  const out: MorphKey[] = [];
  for (const [morph, e] of MMD_MORPHS) addMorph(out, morph, index, expr[e], 1, 0);
  const bs = src.blendshapes;
  const K = bs.names.length;
  for (const name of bs.supported) {
    if (!fitsSjis(name, 15)) continue;
    addMorph(out, name, index, bs.weights, K, bs.names.indexOf(name));
  }
  return out;
}

/**
 * The reduced keys of one morph whose source curve is `curve[f * stride + at]`, on the 30 fps timeline (a
 * module-level function over typed arrays: no closure per curve or per value).
 */
function addMorph(
  out: MorphKey[],
  name: string,
  index: { count: number; i: Int32Array; j: Int32Array; t: Float64Array },
  curve: Float32Array,
  stride: number,
  at: number,
): void {
  const { count, i: atI, j: atJ, t: atT } = index;
  const v = new Float32Array(count);
  for (let k = 0; k < count; k++) {
    const a = curve[atI[k] * stride + at];
    const b = curve[atJ[k] * stride + at];
    v[k] = Math.min(1, Math.max(0, a + atT[k] * (b - a)));
  }
  const nameBytes = sjis(name, 15);
  for (const k of reduce(v, 0.002)) out.push({ name: nameBytes, frame: k, weight: v[k] });
}

function assemble(
  modelName: string,
  bones: BoneKeys[],
  frames: number,
  morphs: MorphKey[],
  ik: boolean,
): Uint8Array {
  const ikSize = ik ? 9 + 21 * IK_BONES.length : 0;
  const size =
    30 + 20 + 4 + bones.length * frames * BONE_RECORD + 4 + morphs.length * MORPH_RECORD + 4 * 4 + ikSize;
  const w = new Writer(size);
  w.bytes(new TextEncoder().encode(SIGNATURE), 30);
  w.bytes(sjis(modelName, 20), 20);
  w.u32(bones.length * frames);
  for (const b of bones) w.boneRecords(b, frames);
  w.u32(morphs.length);
  for (const m of morphs) {
    w.bytes(m.name, 15);
    w.u32(m.frame);
    w.f32(m.weight);
  }
  w.u32(0); // camera
  w.u32(0); // light
  w.u32(0); // self-shadow
  w.u32(ik ? 1 : 0);
  if (ik) {
    w.u32(0);
    w.u8(1);
    w.u32(IK_BONES.length);
    for (const name of IK_BONES) {
      w.bytes(sjis(name, 20), 20);
      w.u8(1);
    }
  }
  return w.done();
}

/** Writes a VMD from a RigClip retargeted to the mmd rig (bones + IK + face morphs). */
export function write(rc: RigClip, options: VmdOptions = {}): Uint8Array {
  if (!(rc.frameCount >= 1)) throw new Error('VMD: the clip has no frames');
  const withBones = options.bones !== false;
  const { keys, count } = withBones ? boneKeys(rc, options) : { keys: [], count: 0 };
  const morphs =
    options.morphs !== false && rc.blendshapes
      ? morphKeys({ fps: rc.fps, frameCount: rc.frameCount, blendshapes: rc.blendshapes })
      : [];
  const ik = keys.some((k) => IK_BONES.includes(k.label));
  return assemble(options.modelName ?? 'mocap', keys, count, morphs, ik);
}

/** A face-only VMD (morph keys, no bones) from any clip with face curves (OnlyFace). */
export function writeMorphs(src: FaceSource, options: Pick<VmdOptions, 'modelName'> = {}): Uint8Array {
  const bs = src.blendshapes;
  if (!bs) throw new Error('VMD: the clip has no face blendshape curves (no face was tracked)');
  return assemble(options.modelName ?? 'mocap', [], 0, morphKeys({ ...src, blendshapes: bs }), false);
}
