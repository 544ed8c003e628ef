/**
 * Binary FBX 7.4 writer: a rig's skeleton with its animation, optionally skinned textured meshes with morph
 * targets (characters) and face morph animation.
 *
 * Written (order and conventions of Blender's exporter, formats.md §b):
 * - header `Kaydara FBX Binary  \0\x1a\0` + version 7400; 32-bit records; 13-byte NULL records closing every nested
 *   list, every node without properties, and always `AnimationStack`/`AnimationLayer` (assimp drops animations
 *   otherwise); Blender's fixed FileId / CreationTime / footer code so FBX-SDK tools accept the file; the footer
 *   (padding to 16, version, 120 zeros, magic) that three.js needs to find the end;
 * - `GlobalSettings` with the rig's axis system (Y up: Up Y, Front +Z, Coord +X; Z up: Up Z, Front −Y, Coord +X),
 *   `UnitScaleFactor` = centimetres per rig unit, `TimeMode` from the fps (custom rate otherwise), time span;
 * - one `Model` (`LimbNode`) + `NodeAttribute` (`Skeleton`) per rig bone, hierarchy by `OO` connections, the rest pose
 *   in `Lcl Translation` / `Lcl Rotation` (Euler XYZ degrees, `RotationOrder` 0, `RotationActive` 1, no
 *   Pre/PostRotation: the bone orientation is baked in the local rotation, the most portable choice);
 * - one `AnimationStack` (named after the take) + `BaseLayer`; per keyed bone an `R` curve node (3 linear Euler
 *   curves, unwrapped frame to frame so there are no ±360° jumps) and, for bones whose translation moves, a `T`
 *   curve node; key times in KTime ticks (46 186 158 000 per second) on every frame;
 * - meshes (`SkinnedMesh`): `Geometry` (vertices in rig units and axes, polygon indices, per-vertex (ByVertice) normals,
 *   per-polygon-vertex UVs, material layer), a `Mesh` model, `Material` (Phong, diffuse colour) + `Texture` + `Video` with the PNG
 *   embedded (`Content`) and referenced by relative file name (the zip carries the PNG next to the FBX), a `Skin`
 *   deformer with one `Cluster` per influencing bone (`Transform` = mesh bind matrix, `TransformLink` = bone bind
 *   matrix), a `BindPose`; morph targets as `BlendShape` / `BlendShapeChannel` deformers with `Shape` geometries
 *   (sparse indices + deltas), animated through `DeformPercent` (0–100) from the clip's ARKit curves.
 *
 * Limits: FBX 7.4 binary only (no ASCII, no 7.5 64-bit records); right-handed rigs only (FBX scenes are
 * right-handed: left-handed rigs such as MMD and Unity are rejected with an error); linear keys on every frame (no
 * key reduction, no tangents); one take; up to 4 influences per vertex; one UV set; materials are Phong with a
 * diffuse texture (no PBR extensions); no cameras or lights; arrays are zlib-compressed above 4 KiB (unless
 * `compressArrays: false`, used inside zips, where `writeWithHints` also returns the file's deflate hints).
 */

import { deflateSync } from 'node:zlib';
import { type Quat, qMul, qRotate, unwrapEulerInto, type Vec3 } from '../math.ts';
import type { Rig, RigClip, SkinnedMesh } from '../rigs/types.ts';
import { ByteWriter, encodeUtf8, encodeUtf8Cached } from './bytes.ts';
import type { DeflateHint } from './deflate.ts';

export type { DeflateHint };

// ------------------------------------------------------------------ low-level node writer

type Prop =
  | { t: 'I'; v: number }
  | { t: 'D'; v: number }
  | { t: 'L'; v: number | bigint }
  | { t: 'S'; v: string | Uint8Array }
  | { t: 'C'; v: boolean }
  | { t: 'F'; v: number }
  | { t: 'R'; v: Uint8Array }
  | { t: 'd'; v: ArrayLike<number> }
  | { t: 'f'; v: ArrayLike<number> }
  | { t: 'i'; v: ArrayLike<number> }
  | { t: 'l'; v: ArrayLike<number> | BigInt64Array }
  | { t: 'raw'; code: string; bytes: Uint8Array };

// Every property object is made at this one site, so its `v` field holds numbers, strings, bigints and arrays
// from the start: one stable object shape (per-kind literals kept changing the field's representation, Smi →
// double → any, and V8 threw away and recompiled the FBX writer's code dozens of times per file).
const prop = (t: string, v: unknown): Prop => ({ t, v }) as Prop;
const I = (v: number): Prop => prop('I', v);
const D = (v: number): Prop => prop('D', v);
const L = (v: number | bigint): Prop => prop('L', v);
const S = (v: string | Uint8Array): Prop => prop('S', v);
const C = (v: boolean): Prop => prop('C', v);
const Rw = (v: Uint8Array): Prop => prop('R', v);
const Ad = (v: ArrayLike<number>): Prop => prop('d', v);
const Af = (v: ArrayLike<number>): Prop => prop('f', v);
const Ai = (v: ArrayLike<number>): Prop => prop('i', v);

/** One row of a Properties70 block: name, type, label, flags, values. */
type Prop70 = [string, string, string, string, ...Prop[]];

/** A model's local transform rows: translation `t`, rotation `r` (Euler degrees), scaling 1. */
const lclRows = (t: ArrayLike<number>, r: ArrayLike<number>): Prop70[] => [
  ['Lcl Translation', 'Lcl Translation', '', 'A', D(t[0]), D(t[1]), D(t[2])],
  ['Lcl Rotation', 'Lcl Rotation', '', 'A', D(r[0]), D(r[1]), D(r[2])],
  ['Lcl Scaling', 'Lcl Scaling', '', 'A', D(1), D(1), D(1)],
];
const ZERO3 = [0, 0, 0] as const;

const OBJ_NAMES = new Map<string, Uint8Array>();

/**
 * Object name as stored in binary FBX: `Name\0\x01Class`. Memoised (every animation curve and curve node has one
 * of a few names); the result is shared and must not be modified (properties copy it into the file).
 */
const objName = (name: string, cls: string): Uint8Array => {
  const key = `${cls}\u0000${name}`;
  let b = OBJ_NAMES.get(key);
  if (!b) {
    b = makeObjName(name, cls);
    if (OBJ_NAMES.size >= 4096) OBJ_NAMES.clear();
    OBJ_NAMES.set(key, b);
  }
  return b;
};

const makeObjName = (name: string, cls: string): Uint8Array => {
  const a = encodeUtf8(name);
  const b = encodeUtf8(cls);
  const out = new Uint8Array(a.length + 2 + b.length);
  out.set(a, 0);
  out[a.length] = 0;
  out[a.length + 1] = 1;
  out.set(b, a.length + 2);
  return out;
};

const COMPRESS_ABOVE = 4096;
/** Smallest array worth a deflate hint. */
const HINT_MIN = 1024;

/**
 * Encodes a typed array property payload (`ArrayLength, Encoding, CompressedLength, data`); arrays above
 * COMPRESS_ABOVE bytes are zlib-compressed when the write asks for it (`compress`, per write).
 */
function arrayPayload(
  code: 'd' | 'f' | 'i' | 'l',
  v: ArrayLike<number> | BigInt64Array,
  compress: boolean,
): Uint8Array {
  const n = v.length;
  let raw: Uint8Array;
  if (code === 'd') raw = new Uint8Array(Float64Array.from(v as ArrayLike<number>).buffer);
  else if (code === 'f') raw = new Uint8Array(Float32Array.from(v as ArrayLike<number>).buffer);
  else if (code === 'i') raw = new Uint8Array(Int32Array.from(v as ArrayLike<number>).buffer);
  else {
    const a =
      v instanceof BigInt64Array
        ? v
        : BigInt64Array.from(Array.from(v as ArrayLike<number>, (x) => BigInt(x)));
    raw = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  }
  let enc = 0;
  let data = raw;
  if (compress && raw.length > COMPRESS_ABOVE) {
    const z = deflateSync(raw, { level: 1 });
    enc = 1;
    data = new Uint8Array(z.buffer, z.byteOffset, z.length);
  }
  const out = new Uint8Array(12 + data.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, n, true);
  dv.setUint32(4, enc, true);
  dv.setUint32(8, data.length, true);
  out.set(data, 12);
  return out;
}

/** The node writer of one write: its buffer, whether it compresses arrays, and the deflate hints it collects. */
class NodeWriter {
  readonly w: ByteWriter;
  constructor(
    capacity: number,
    /** zlib-compress arrays above COMPRESS_ABOVE bytes (this write's `compressArrays`). */
    readonly compressArrays: boolean,
  ) {
    this.w = new ByteWriter(capacity);
  }
  /** Deflate hints of the output (uncompressed files only): float arrays stored, repeated shared arrays copied. */
  readonly hints: DeflateHint[] = [];
  private readonly lastAt = new Map<Uint8Array, number>();
  private readonly stack: { start: number; children: boolean; forceNull: boolean; noProps: boolean }[] = [];

  begin(name: string, props: Prop[] = [], forceNull = false): void {
    if (this.stack.length) this.stack[this.stack.length - 1].children = true;
    const w = this.w;
    const start = w.length;
    w.u32(0); // end offset
    w.u32(props.length);
    w.u32(0); // property list length
    const nb = encodeUtf8Cached(name);
    w.u8(nb.length);
    w.bytes(nb);
    const propStart = w.length;
    for (const p of props) this.prop(p);
    w.patchU32(start + 8, w.length - propStart);
    this.stack.push({ start, children: false, forceNull, noProps: props.length === 0 });
  }

  end(): void {
    const top = this.stack.pop();
    if (!top) throw new Error('FBX writer: end() without begin()');
    if (top.children || top.forceNull || top.noProps) this.w.zeros(13);
    this.w.patchU32(top.start, this.w.length);
  }

  /** A node with properties and no children. */
  leaf(name: string, ...props: Prop[]): void {
    this.begin(name, props);
    this.end();
  }

  private prop(p: Prop): void {
    const w = this.w;
    // The type code: the property's letter (I, D, L, F, C, S, R, d, f, i, l) or a raw array's.
    w.u8(p.t === 'raw' ? p.code.charCodeAt(0) : p.t.charCodeAt(0));
    if (p.t === 'I') w.i32(p.v);
    else if (p.t === 'D') w.f64(p.v);
    else if (p.t === 'L') w.i64(p.v);
    else if (p.t === 'F') w.f32(p.v);
    else if (p.t === 'C') w.u8(p.v ? 1 : 0);
    else if (p.t === 'S') {
      const b = typeof p.v === 'string' ? encodeUtf8Cached(p.v) : p.v;
      w.u32(b.length);
      w.bytes(b);
    } else if (p.t === 'R') {
      w.u32(p.v.length);
      const at = w.length;
      w.bytes(p.v);
      // Embedded files (the PNG textures) are already compressed: stored in the zip.
      if (!this.compressArrays && p.v.length >= HINT_MIN)
        this.hints.push({ kind: 'store', start: at, end: w.length });
    } else if (p.t === 'raw') {
      const at = w.length;
      w.bytes(p.bytes);
      // Shared arrays (the key times of every curve) repeat: the zip's deflate copies them from the last one.
      if (!this.compressArrays && p.bytes.length >= HINT_MIN) {
        const prev = this.lastAt.get(p.bytes);
        if (prev !== undefined) this.hints.push({ kind: 'copy', start: at, end: w.length, from: prev });
        this.lastAt.set(p.bytes, at);
      }
    } else {
      const size = p.t === 'd' || p.t === 'l' ? 8 : 4;
      const n = p.v.length;
      if (p.t !== 'l' && !(this.compressArrays && n * size > COMPRESS_ABOVE)) {
        // Uncompressed: written in place (no intermediate typed array and payload copies).
        w.u32(n);
        w.u32(0);
        w.u32(n * size);
        const at = w.length;
        if (p.t === 'f') w.f32s(p.v);
        else if (p.t === 'd') w.f64s(p.v);
        else w.i32s(p.v);
        // Raw float32 samples (key values) barely compress: stored in the zip rather than searched by zlib.
        if (p.t === 'f' && !this.compressArrays && 12 + n * size >= HINT_MIN)
          this.hints.push({ kind: 'store', start: at, end: w.length });
      } else w.bytes(arrayPayload(p.t, p.v, this.compressArrays));
    }
  }

  /** `Properties70` with `P` records. */
  props70(records: Prop70[]): void {
    this.begin('Properties70');
    for (const [name, type, label, flags, ...vals] of records)
      this.leaf('P', S(name), S(type), S(label), S(flags), ...vals);
    this.end();
  }
}

// ------------------------------------------------------------------ constants

export const FBX_VERSION = 7400;
/** KTime ticks per second (FBX ≤ 7.7). */
export const KTIME_PER_SECOND = 46186158000;
const FILE_ID = Uint8Array.from([
  0x28, 0xb3, 0x2a, 0xeb, 0xb6, 0x24, 0xcc, 0xc2, 0xbf, 0xc8, 0xb0, 0x2a, 0xa9, 0x2b, 0xfc, 0xf1,
]);
const FOOTER_CODE = Uint8Array.from([
  0xfa, 0xbc, 0xab, 0x09, 0xd0, 0xc8, 0xd4, 0x66, 0xb1, 0x76, 0xfb, 0x83, 0x1c, 0xf7, 0x26, 0x7e,
]);
const FOOTER_MAGIC = Uint8Array.from([
  0xf8, 0x5a, 0x8c, 0x6a, 0xde, 0xf5, 0xd9, 0x7e, 0xec, 0xe9, 0x0c, 0xe3, 0x75, 0x8f, 0x29, 0x0b,
]);
const CREATION_TIME = '1970-01-01 10:00:00:000';

const TIME_MODES: [number, number][] = [
  [120, 1],
  [100, 2],
  [60, 3],
  [50, 4],
  [48, 5],
  [30, 6],
  [25, 10],
  [24, 11],
  [1000, 12],
  [96, 15],
  [72, 16],
];

/** FBX TimeMode for a frame rate (14 = custom). */
export function timeModeOf(fps: number): number {
  for (const [r, m] of TIME_MODES) if (Math.abs(fps - r) < 1e-6) return m;
  return 14;
}

/** KTime of frame f at fps. */
export const ktimeOf = (f: number, fps: number): number => Math.round((f * KTIME_PER_SECOND) / fps);

// ------------------------------------------------------------------ maths helpers

const RAD2DEG = 180 / Math.PI;

/**
 * FBX eEulerXYZ angles (degrees) of a quaternion: R = Rz(c) · Ry(b) · Rx(a) (X applied first).
 * Writes [a, b, c] to out at o. At gimbal lock (b within 0.006° of ±90°, where only a − c or a + c is defined)
 * c is `cHint` (the previous frame's c, degrees; 0 when NaN) and a is solved exactly for it, so the curves stay
 * continuous through the pole: splitting the angle as c = 0 there made a key whose a and c jumped by up to 180°
 * against its neighbours, and readers interpolating (or re-deriving) the Euler curves swung the bone around
 * (a UE4 pelvis passing the pole threw the hands 1.2 m in Blender).
 */
function quatToFbxEuler(q: ArrayLike<number>, qo: number, out: Float64Array, o: number, cHint: number): void {
  // Read from the array here (four double arguments would be boxed on every call of the per-frame loop).
  const x = q[qo];
  const y = q[qo + 1];
  const z = q[qo + 2];
  const w = q[qo + 3];
  // Rotation matrix entries.
  const m20 = 2 * (x * z - w * y);
  const m21 = 2 * (y * z + w * x);
  const m22 = 1 - 2 * (x * x + y * y);
  const m10 = 2 * (x * y + w * z);
  const m00 = 1 - 2 * (y * y + z * z);
  // cos(b) from the first column (robust near the poles, where asin(-m20) loses half the digits).
  const cb = Math.sqrt(m00 * m00 + m10 * m10);
  const b = Math.atan2(-m20, cb);
  let a: number;
  let c: number;
  if (cb > 1e-4) {
    a = Math.atan2(m21, m22);
    c = Math.atan2(m10, m00);
  } else {
    // Gimbal lock: take c, then Rx(a) = Ry(-b) · Rz(-c) · R, whose middle row is -sin(c)·R0 + cos(c)·R1.
    c = Number.isNaN(cHint) ? 0 : cHint / RAD2DEG;
    const sc = Math.sin(c);
    const cc = Math.cos(c);
    const m01 = 2 * (x * y - w * z);
    const m02 = 2 * (x * z + w * y);
    const m11 = 1 - 2 * (x * x + z * z);
    const m12 = 2 * (y * z - w * x);
    a = Math.atan2(-(-sc * m02 + cc * m12), -sc * m01 + cc * m11);
  }
  out[o] = a * RAD2DEG;
  out[o + 1] = b * RAD2DEG;
  out[o + 2] = c * RAD2DEG;
}

/** Column-major 4×4 (FBX matrices: translation in elements 12..14) from a quaternion, translation, uniform scale. */
function matrixTRS(q: ArrayLike<number>, t: ArrayLike<number>, s = 1): number[] {
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]];
  return [
    (1 - 2 * (y * y + z * z)) * s,
    2 * (x * y + w * z) * s,
    2 * (x * z - w * y) * s,
    0,
    2 * (x * y - w * z) * s,
    (1 - 2 * (x * x + z * z)) * s,
    2 * (y * z + w * x) * s,
    0,
    2 * (x * z + w * y) * s,
    2 * (y * z - w * x) * s,
    (1 - 2 * (x * x + y * y)) * s,
    0,
    t[0],
    t[1],
    t[2],
    1,
  ];
}

/** Rest world rotation and position of every bone (rig space). */
export function restWorld(rig: Rig): { rot: Quat[]; pos: Vec3[] } {
  const rot: Quat[] = [];
  const pos: Vec3[] = [];
  const idx = new Map(rig.bones.map((b, i) => [b.name, i]));
  rig.bones.forEach((b, i) => {
    const p = b.parent === null ? -1 : (idx.get(b.parent) as number);
    if (p < 0) {
      rot[i] = [...b.restRotation] as Quat;
      pos[i] = [...b.restTranslation] as Vec3;
    } else {
      rot[i] = qMul(rot[p], b.restRotation);
      const o = qRotate(rot[p], b.restTranslation);
      pos[i] = [pos[p][0] + o[0], pos[p][1] + o[1], pos[p][2] + o[2]];
    }
  });
  return { rot, pos };
}

// ------------------------------------------------------------------ the writer

export interface FbxWriteOptions {
  /** Name of the take / AnimationStack (default: the clip's name). */
  takeName?: string;
  /** Skinned meshes bound to the rig (characters, a face mesh). */
  meshes?: readonly SkinnedMesh[];
  /** Write the skeleton and meshes without animation (a bind-pose file). */
  noAnimation?: boolean;
  /** Key the bones (default true); false keeps only the morph (blendshape) animation, e.g. a face-only file. */
  boneAnimation?: boolean;
  /** Folder prefix of texture file names as referenced by the FBX (e.g. `textures/`; the PNGs are also embedded). */
  texturePath?: string;
  /** Application name written in the header (default `@mocap/motion`). */
  creator?: string;
  /**
   * zlib-compress arrays above 4 KiB (default true). Turn it off when the file goes into a deflated zip: the zip
   * then copies the repeated key-time arrays itself, which per-array compression hides (about 2.5× smaller zips);
   * with `writeWithHints` it also skips searching the incompressible float arrays (`deflate.ts`).
   */
  compressArrays?: boolean;
  /**
   * Keep each bone's Euler curves with the RigClip's rotation array and reuse them when the same RigClip is
   * written again (the exporter writes the Mixamo animation into three files of one clip). Only for RigClips
   * whose arrays are not changed afterwards (default false).
   */
  reuseCurves?: boolean;
}

/** Canonical metres → rig space and units, for mesh data. */
function meshToRig(rig: Rig, v: Float32Array, scaleUnits: boolean): Float64Array {
  const B = rig.basis;
  const u = scaleUnits ? rig.unitsPerMetre : 1;
  const out = new Float64Array(v.length);
  for (let i = 0; i < v.length; i += 3) {
    out[i] = (B[0] * v[i] + B[1] * v[i + 1] + B[2] * v[i + 2]) * u;
    out[i + 1] = (B[3] * v[i] + B[4] * v[i + 1] + B[5] * v[i + 2]) * u;
    out[i + 2] = (B[6] * v[i] + B[7] * v[i + 1] + B[8] * v[i + 2]) * u;
  }
  return out;
}

/**
 * The vertices a morph target moves: those whose offset, in rig space and units (`meshToRig`), exceeds 1e-7 in
 * the sum of its absolute components (vertex 0 when none does: FBX shapes need an index).
 */
function movedVertices(rig: Rig, d: Float32Array, nv: number): Int32Array {
  const B = rig.basis;
  const u = rig.unitsPerMetre;
  const idx: number[] = [];
  for (let v = 0; v < nv; v++) {
    const i = 3 * v;
    const x = d[i];
    const y = d[i + 1];
    const z = d[i + 2];
    if (x === 0 && y === 0 && z === 0) continue;
    const a = (B[0] * x + B[1] * y + B[2] * z) * u;
    const b = (B[3] * x + B[4] * y + B[5] * z) * u;
    const c = (B[6] * x + B[7] * y + B[8] * z) * u;
    if (Math.abs(a) + Math.abs(b) + Math.abs(c) > 1e-7) idx.push(v);
  }
  if (idx.length === 0) idx.push(0);
  return Int32Array.from(idx);
}

/** `meshToRig` of the vertices `idx` only (the same arithmetic), packed. */
function meshToRigAt(rig: Rig, v: Float32Array, idx: Int32Array, scaleUnits: boolean): Float64Array {
  const B = rig.basis;
  const u = scaleUnits ? rig.unitsPerMetre : 1;
  const out = new Float64Array(3 * idx.length);
  for (let k = 0; k < idx.length; k++) {
    const i = 3 * idx[k];
    const o = 3 * k;
    out[o] = (B[0] * v[i] + B[1] * v[i + 1] + B[2] * v[i + 2]) * u;
    out[o + 1] = (B[3] * v[i] + B[4] * v[i + 1] + B[5] * v[i + 2]) * u;
    out[o + 2] = (B[6] * v[i] + B[7] * v[i + 1] + B[8] * v[i + 2]) * u;
  }
  return out;
}

/** Serialises a retargeted clip (and optional meshes) as a binary FBX 7.4 file. */
export function write(rc: RigClip, options: FbxWriteOptions = {}): Uint8Array {
  return writeWithHints(rc, options).bytes;
}

/**
 * `write`, plus the file's deflate hints when its arrays are not compressed (`compressArrays: false`): the key
 * value arrays to store and the repeated key-time arrays to copy (`deflate.ts`; the zip writer takes them).
 */
export function writeWithHints(
  rc: RigClip,
  options: FbxWriteOptions = {},
): { bytes: Uint8Array; hints: DeflateHint[] } {
  const rig = rc.rig;
  if (rig.axes.handedness !== 'right')
    throw new Error(
      `FBX: rig ${rig.id} is left-handed; FBX scenes are right-handed (export its VMD/.anim instead)`,
    );
  return writeFbx(rc, options);
}

/** About the size of the file (uncompressed arrays), so the writer's buffer rarely grows and is not copied. */
function sizeEstimate(rc: RigClip, meshes: readonly SkinnedMesh[], animate: boolean, bones: boolean): number {
  const nb = rc.rig.bones.length;
  let size = 64 * 1024 + nb * 1500;
  const curveBytes = 12 * rc.frameCount + 450;
  if (animate && bones)
    for (let b = 0; b < nb; b++) size += (rc.keyed[b] + rc.translated[b]) * (3 * curveBytes + 400);
  for (const m of meshes) {
    const V = m.positions.length / 3;
    size += 32 * V + 40 * m.indices.length + 20 * 1024;
    size += (m.morphTargets?.length ?? 0) * (2 * V + (animate ? curveBytes + 600 : 600));
    for (const mat of m.materials) size += (mat.texture?.png.length ?? 0) + 2048;
  }
  return size;
}

/** What every section of one write shares: the clip, its options, the node writer, object ids, connections. */
interface FbxWrite {
  rc: RigClip;
  rig: Rig;
  options: FbxWriteOptions;
  nw: NodeWriter;
  /** Frames, frame rate, bones. */
  F: number;
  fps: number;
  nb: number;
  take: string;
  /** Last key time (KTime). */
  stop: number;
  meshes: readonly SkinnedMesh[];
  animate: boolean;
  newId(): number;
  boneIds: number[];
  attrIds: number[];
  boneIndex: Map<string, number>;
  connections: Prop[][];
  /** Object-object and object-property connections. */
  oo(child: number, parent: number): void;
  op(child: number, parent: number, prop: string): void;
}

/** Which bones get rotation / translation curves and how many morph channels are animated. */
interface AnimationPlan {
  rotKeyed: number[];
  posKeyed: number[];
  morphAnim: boolean;
  curveNodeCount: number;
  curveCount: number;
}

// The object ids and connections of the write in progress, and their functions: module-level (not closures made
// per file, which V8 optimised again for every FBX).
let nextId = 1000000;
let openConnections: Prop[][] = [];
function newId(): number {
  return nextId++;
}
function oo(child: number, parent: number): void {
  openConnections.push([S('OO'), L(child), L(parent)]);
}
function op(child: number, parent: number, prop: string): void {
  openConnections.push([S('OP'), L(child), L(parent), S(prop)]);
}

function writeFbx(rc: RigClip, options: FbxWriteOptions): { bytes: Uint8Array; hints: DeflateHint[] } {
  const rig = rc.rig;
  const F = rc.frameCount;
  const meshes = options.meshes ?? [];
  const animate = !options.noAnimation && F > 0;
  const nw = new NodeWriter(
    sizeEstimate(rc, meshes, animate, options.boneAnimation !== false),
    options.compressArrays !== false,
  );
  // Ids and connections of this write (module state: writes are synchronous and never nested).
  nextId = 1000000;
  const connections: Prop[][] = [];
  openConnections = connections;
  const x: FbxWrite = {
    rc,
    rig,
    options,
    nw,
    F,
    fps: rc.fps,
    nb: rig.bones.length,
    take: options.takeName ?? rc.name ?? 'Take 001',
    stop: ktimeOf(Math.max(0, F - 1), rc.fps),
    meshes,
    animate,
    newId,
    boneIds: [],
    attrIds: [],
    boneIndex: new Map(rig.bones.map((b, i) => [b.name, i])),
    connections,
    oo,
    op,
  };
  writeFileHeader(x);
  writeHeaderExtension(x);
  writeGlobalSettings(x);
  // Object ids: the document first, then each bone's model and attribute.
  const docId = newId();
  x.boneIds = rig.bones.map(() => newId());
  x.attrIds = rig.bones.map(() => newId());
  writeDocuments(x, docId);
  const meshData = meshes.map((m) => prepareMesh(rig, m, x.boneIndex));
  const plan = planAnimation(x);
  writeDefinitions(x, meshData, plan);
  nw.begin('Objects');
  const rest = restWorld(rig);
  writeSkeleton(x);
  const { meshModelIds, channelTargets } = writeMeshes(x, meshData, rest);
  if (meshes.length) writeBindPose(x, meshModelIds, rest);
  if (animate) writeAnimation(x, plan, channelTargets);
  nw.end(); // Objects
  return writeConnectionsTakesFooter(x);
}

/** The binary header: magic, version. */
function writeFileHeader({ nw }: FbxWrite): void {
  const w = nw.w;
  w.bytes(encodeUtf8('Kaydara FBX Binary  '));
  w.u8(0);
  w.u8(0x1a);
  w.u8(0);
  w.u32(FBX_VERSION);
}

/** FBXHeaderExtension (fixed creation time: the same clip gives the same bytes), FileId, CreationTime, Creator. */
function writeHeaderExtension({ nw, options, take, rig }: FbxWrite): void {
  nw.begin('FBXHeaderExtension');
  nw.leaf('FBXHeaderVersion', I(1003));
  nw.leaf('FBXVersion', I(FBX_VERSION));
  nw.leaf('EncryptionType', I(0));
  nw.begin('CreationTimeStamp');
  nw.leaf('Version', I(1000));
  for (const [k, v] of [
    ['Year', 1970],
    ['Month', 1],
    ['Day', 1],
    ['Hour', 10],
    ['Minute', 0],
    ['Second', 0],
    ['Millisecond', 0],
  ] as const)
    nw.leaf(k, I(v));
  nw.end();
  nw.leaf('Creator', S(options.creator ?? '@mocap/motion FBX writer'));
  nw.begin('SceneInfo', [S(objName('GlobalInfo', 'SceneInfo')), S('UserData')]);
  nw.leaf('Type', S('UserData'));
  nw.leaf('Version', I(100));
  nw.begin('MetaData');
  nw.leaf('Version', I(100));
  nw.leaf('Title', S(take));
  nw.leaf('Subject', S(''));
  nw.leaf('Author', S(''));
  nw.leaf('Keywords', S(''));
  nw.leaf('Revision', S(''));
  nw.leaf('Comment', S(`rig ${rig.displayName}`));
  nw.end();
  nw.props70([
    ['DocumentUrl', 'KString', 'Url', '', S(`${take}.fbx`)],
    ['SrcDocumentUrl', 'KString', 'Url', '', S(`${take}.fbx`)],
    ['Original', 'Compound', '', ''],
    ['Original|ApplicationVendor', 'KString', '', '', S('mocap')],
    ['Original|ApplicationName', 'KString', '', '', S('@mocap/motion')],
    ['Original|ApplicationVersion', 'KString', '', '', S('1.0')],
    ['Original|DateTime_GMT', 'DateTime', '', '', S('01/01/1970 00:00:00.000')],
    ['Original|FileName', 'KString', '', '', S(`${take}.fbx`)],
  ]);
  nw.end();
  nw.end();
  nw.leaf('FileId', Rw(FILE_ID));
  nw.leaf('CreationTime', S(CREATION_TIME));
  nw.leaf('Creator', S(options.creator ?? '@mocap/motion FBX writer'));
}

/** GlobalSettings: the rig's axis system and unit, time mode and span. */
function writeGlobalSettings({ nw, rig, fps, stop }: FbxWrite): void {
  const zUp = rig.axes.up === '+Z';
  if (!(rig.axes.up === '+Y' && rig.axes.front === '+Z') && !(zUp && rig.axes.front === '-Y'))
    throw new Error(`FBX: unsupported axis system for rig ${rig.id} (Y up/+Z front or Z up/−Y front)`);
  const timeMode = timeModeOf(fps);
  nw.begin('GlobalSettings');
  nw.leaf('Version', I(1000));
  nw.props70([
    ['UpAxis', 'int', 'Integer', '', I(zUp ? 2 : 1)],
    ['UpAxisSign', 'int', 'Integer', '', I(1)],
    ['FrontAxis', 'int', 'Integer', '', I(zUp ? 1 : 2)],
    ['FrontAxisSign', 'int', 'Integer', '', I(zUp ? -1 : 1)],
    ['CoordAxis', 'int', 'Integer', '', I(0)],
    ['CoordAxisSign', 'int', 'Integer', '', I(1)],
    ['OriginalUpAxis', 'int', 'Integer', '', I(zUp ? 2 : 1)],
    ['OriginalUpAxisSign', 'int', 'Integer', '', I(1)],
    ['UnitScaleFactor', 'double', 'Number', '', D(100 / rig.unitsPerMetre)],
    ['OriginalUnitScaleFactor', 'double', 'Number', '', D(100 / rig.unitsPerMetre)],
    ['AmbientColor', 'ColorRGB', 'Color', '', D(0), D(0), D(0)],
    ['DefaultCamera', 'KString', '', '', S('Producer Perspective')],
    ['TimeMode', 'enum', '', '', I(timeMode)],
    ['TimeProtocol', 'enum', '', '', I(2)],
    ['SnapOnFrameMode', 'enum', '', '', I(0)],
    ['TimeSpanStart', 'KTime', 'Time', '', L(0)],
    ['TimeSpanStop', 'KTime', 'Time', '', L(stop)],
    ['CustomFrameRate', 'double', 'Number', '', D(fps)],
    ['TimeMarker', 'Compound', '', ''],
    ['CurrentTimeMarker', 'int', 'Integer', '', I(-1)],
  ]);
  nw.end();
}

/** Documents (the scene, its active take) and the empty References. */
function writeDocuments({ nw, take }: FbxWrite, docId: number): void {
  nw.begin('Documents');
  nw.leaf('Count', I(1));
  nw.begin('Document', [L(docId), S(''), S('Scene')]);
  nw.props70([
    ['SourceObject', 'object', '', ''],
    ['ActiveAnimStackName', 'KString', '', '', S(take)],
  ]);
  nw.leaf('RootNode', L(0));
  nw.end();
  nw.end();
  nw.begin('References');
  nw.end();
}

/** Which bones and morph channels get curves. */
function planAnimation({ rc, meshes, animate, options, nb }: FbxWrite): AnimationPlan {
  const rotKeyed: number[] = [];
  const posKeyed: number[] = [];
  if (animate && options.boneAnimation !== false)
    for (let b = 0; b < nb; b++) {
      if (rc.keyed[b]) rotKeyed.push(b);
      if (rc.keyed[b] && rc.translated[b]) posKeyed.push(b);
    }
  const morphAnim = animate && rc.blendshapes ? meshes.some((m) => m.morphTargets?.length) : false;
  const morphChannelsAnimated = morphAnim
    ? meshes.reduce(
        (s, m) =>
          s + (m.morphTargets ?? []).filter((t) => rc.blendshapes?.names.includes(t.name as never)).length,
        0,
      )
    : 0;
  const curveNodeCount = rotKeyed.length + posKeyed.length + morphChannelsAnimated;
  const curveCount = 3 * (rotKeyed.length + posKeyed.length) + morphChannelsAnimated;

  return { rotKeyed, posKeyed, morphAnim, curveNodeCount, curveCount };
}

/** Definitions: object counts per type, with property templates. */
function writeDefinitions(
  { nw, meshes, nb, animate }: FbxWrite,
  meshData: readonly PreparedMesh[],
  { curveNodeCount, curveCount }: AnimationPlan,
): void {
  const materialCount = meshes.reduce((s, m) => s + m.materials.length, 0);
  const textureCount = meshes.reduce((s, m) => s + m.materials.filter((x) => x.texture).length, 0);
  const clusterCount = meshData.reduce((s, m) => s + m.clusters.length, 0);
  const morphCount = meshes.reduce((s, m) => s + (m.morphTargets?.length ?? 0), 0);
  const deformerCount =
    meshes.length + clusterCount + meshes.filter((m) => m.morphTargets?.length).length + morphCount;

  const defs: [string, number, string | null][] = [
    ['GlobalSettings', 1, null],
    ['Model', nb + meshes.length, 'FbxNode'],
    ['NodeAttribute', nb, 'FbxSkeleton'],
  ];
  if (meshes.length) {
    defs.push(['Geometry', meshes.length + morphCount, 'FbxMesh']);
    defs.push(['Material', materialCount, 'FbxSurfacePhong']);
    if (textureCount) {
      defs.push(['Texture', textureCount, 'FbxFileTexture']);
      defs.push(['Video', textureCount, 'FbxVideo']);
    }
    defs.push(['Deformer', deformerCount, null]);
    defs.push(['Pose', 1, null]);
  }
  if (animate) {
    defs.push(['AnimationStack', 1, 'FbxAnimStack']);
    defs.push(['AnimationLayer', 1, 'FbxAnimLayer']);
    if (curveNodeCount) {
      defs.push(['AnimationCurveNode', curveNodeCount, 'FbxAnimCurveNode']);
      defs.push(['AnimationCurve', curveCount, null]);
    }
  }
  nw.begin('Definitions');
  nw.leaf('Version', I(100));
  nw.leaf('Count', I(defs.reduce((s, d) => s + d[1], 0)));
  for (const [type, count, template] of defs) {
    nw.begin('ObjectType', [S(type)]);
    nw.leaf('Count', I(count));
    if (template) {
      nw.begin('PropertyTemplate', [S(template)]);
      nw.props70(templateProps(template));
      nw.end();
    }
    nw.end();
  }
  nw.end();
}

/** The skeleton: one LimbNode attribute and model per bone, in rest pose, parented. */
function writeSkeleton({ nw, rig, boneIds, attrIds, boneIndex, oo }: FbxWrite): void {
  rig.bones.forEach((b, i) => {
    nw.begin('NodeAttribute', [L(attrIds[i]), S(objName(b.name, 'NodeAttribute')), S('LimbNode')]);
    nw.props70([['Size', 'double', 'Number', '', D(b.role === 'end' ? 1 : 3)]]);
    nw.leaf('TypeFlags', S('Skeleton'));
    nw.end();
    const e = new Float64Array(3);
    const q = b.restRotation;
    quatToFbxEuler(q, 0, e, 0, Number.NaN);
    nw.begin('Model', [L(boneIds[i]), S(objName(b.name, 'Model')), S('LimbNode')]);
    nw.leaf('Version', I(232));
    nw.props70([
      ['RotationActive', 'bool', '', '', I(1)],
      ['InheritType', 'enum', '', '', I(1)],
      ['ScalingMax', 'Vector3D', 'Vector', '', D(0), D(0), D(0)],
      ['DefaultAttributeIndex', 'int', 'Integer', '', I(0)],
      ...lclRows(b.restTranslation, e),
    ]);
    endModel(nw);
    oo(attrIds[i], boneIds[i]);
    const p = b.parent === null ? -1 : (boneIndex.get(b.parent) as number);
    oo(boneIds[i], p < 0 ? 0 : boneIds[p]);
  });
}

/** Meshes: geometry, model, materials and textures, skin clusters, morph targets (blendshape channels). */
function writeMeshes(
  x: FbxWrite,
  meshData: readonly PreparedMesh[],
  rest: { rot: Quat[]; pos: Vec3[] },
): { meshModelIds: number[]; channelTargets: { channelId: number; shape: string }[] } {
  const { nw, rig, meshes, options, boneIds, newId, oo, op } = x;
  const meshModelIds: number[] = [];
  const channelTargets: { channelId: number; shape: string }[] = [];
  meshData.forEach((md, mi) => {
    const m = meshes[mi];
    const geomId = newId();
    const modelId = newId();
    meshModelIds.push(modelId);
    writeGeometry(nw, geomId, m.name, md);
    nw.begin('Model', [L(modelId), S(objName(m.name, 'Model')), S('Mesh')]);
    nw.leaf('Version', I(232));
    nw.props70([
      ['RotationActive', 'bool', '', '', I(1)],
      ['InheritType', 'enum', '', '', I(1)],
      ['DefaultAttributeIndex', 'int', 'Integer', '', I(0)],
      ...lclRows(ZERO3, ZERO3),
    ]);
    endModel(nw);
    oo(geomId, modelId);
    oo(modelId, 0);
    // Materials and textures.
    m.materials.forEach((mat) => {
      const matId = newId();
      nw.begin('Material', [L(matId), S(objName(mat.name, 'Material')), S('')]);
      nw.leaf('Version', I(102));
      nw.leaf('ShadingModel', S('phong'));
      nw.leaf('MultiLayer', I(0));
      const [r, g, bl, a] = mat.baseColor;
      nw.props70([
        ['DiffuseColor', 'Color', '', 'A', D(r), D(g), D(bl)],
        ['DiffuseFactor', 'Number', '', 'A', D(1)],
        ['TransparencyFactor', 'Number', '', 'A', D(1 - a)],
        ['SpecularColor', 'Color', '', 'A', D(0.2), D(0.2), D(0.2)],
        ['SpecularFactor', 'Number', '', 'A', D(0.25)],
        ['ShininessExponent', 'Number', '', 'A', D(20)],
        ['Emissive', 'Vector3D', 'Vector', '', D(0), D(0), D(0)],
        ['Ambient', 'Vector3D', 'Vector', '', D(0), D(0), D(0)],
        ['Diffuse', 'Vector3D', 'Vector', '', D(r), D(g), D(bl)],
        ['Opacity', 'double', 'Number', '', D(a)],
      ]);
      nw.end();
      oo(matId, modelId);
      if (mat.texture) {
        const texId = newId();
        const vidId = newId();
        const file = `${options.texturePath ?? ''}${mat.texture.fileName}`;
        nw.begin('Video', [L(vidId), S(objName(file, 'Video')), S('Clip')]);
        nw.leaf('Type', S('Clip'));
        nw.props70([['Path', 'KString', 'XRefUrl', '', S(file)]]);
        nw.leaf('UseMipMap', I(0));
        nw.leaf('Filename', S(file));
        nw.leaf('RelativeFilename', S(file));
        nw.leaf('Content', Rw(mat.texture.png));
        nw.end();
        nw.begin('Texture', [L(texId), S(objName(file, 'Texture')), S('')]);
        nw.leaf('Type', S('TextureVideoClip'));
        nw.leaf('Version', I(202));
        nw.leaf('TextureName', S(objName(file, 'Texture')));
        nw.props70([
          ['UVSet', 'KString', '', '', S('UVMap')],
          ['UseMaterial', 'bool', '', '', I(1)],
        ]);
        nw.leaf('Media', S(objName(file, 'Video')));
        nw.leaf('FileName', S(file));
        nw.leaf('RelativeFilename', S(file));
        nw.leaf('ModelUVTranslation', D(0), D(0));
        nw.leaf('ModelUVScaling', D(1), D(1));
        nw.leaf('Texture_Alpha_Source', S('None'));
        nw.leaf('Cropping', I(0), I(0), I(0), I(0));
        nw.end();
        oo(vidId, texId);
        op(texId, matId, 'DiffuseColor');
      }
    });
    // Skin.
    const skinId = newId();
    nw.begin('Deformer', [L(skinId), S(objName(m.name, 'Deformer')), S('Skin')]);
    nw.leaf('Version', I(101));
    nw.leaf('Link_DeformAcuracy', D(50));
    nw.end();
    oo(skinId, geomId);
    for (const cl of md.clusters) {
      const clId = newId();
      const bi = cl.bone;
      const link = matrixTRS(rest.rot[bi], rest.pos[bi]);
      nw.begin('Deformer', [L(clId), S(objName(rig.bones[bi].name, 'SubDeformer')), S('Cluster')]);
      nw.leaf('Version', I(100));
      nw.leaf('UserData', S(''), S(''));
      nw.leaf('Indexes', Ai(cl.indexes));
      nw.leaf('Weights', Ad(cl.weights));
      nw.leaf('Transform', Ad(invertRigid(link)));
      nw.leaf('TransformLink', Ad(link));
      nw.end();
      oo(clId, skinId);
      oo(boneIds[bi], clId);
    }
    // Morph targets.
    if (m.morphTargets?.length) {
      const bsId = newId();
      nw.begin('Deformer', [L(bsId), S(objName(m.name, 'Deformer')), S('BlendShape')]);
      nw.leaf('Version', I(100));
      nw.end();
      oo(bsId, geomId);
      md.shapes.forEach((sh) => {
        const chId = newId();
        const shapeId = newId();
        nw.begin('Deformer', [L(chId), S(objName(sh.name, 'SubDeformer')), S('BlendShapeChannel')]);
        nw.leaf('Version', I(100));
        nw.leaf('DeformPercent', D(0));
        nw.leaf('FullWeights', Ad([100]));
        nw.props70([['DeformPercent', 'Number', '', 'A', D(0)]]);
        nw.end();
        nw.begin('Geometry', [L(shapeId), S(objName(sh.name, 'Geometry')), S('Shape')]);
        nw.leaf('Version', I(100));
        nw.leaf('Indexes', Ai(sh.indexes));
        nw.leaf('Vertices', Ad(sh.vertices));
        nw.leaf('Normals', Ad(sh.normals));
        nw.end();
        oo(chId, bsId);
        oo(shapeId, chId);
        channelTargets.push({ channelId: chId, shape: sh.name });
      });
    }
  });
  return { meshModelIds, channelTargets };
}

/** The bind pose: every mesh at the origin, every bone at its rest world transform. */
function writeBindPose(
  { nw, rig, nb, meshes, boneIds, newId }: FbxWrite,
  meshModelIds: number[],
  rest: { rot: Quat[]; pos: Vec3[] },
): void {
  const poseId = newId();
  nw.begin('Pose', [L(poseId), S(objName('BindPose', 'Pose')), S('BindPose')]);
  nw.leaf('Type', S('BindPose'));
  nw.leaf('Version', I(100));
  nw.leaf('NbPoseNodes', I(nb + meshes.length));
  for (const id of meshModelIds) {
    nw.begin('PoseNode');
    nw.leaf('Node', L(id));
    nw.leaf('Matrix', Ad(matrixTRS([0, 0, 0, 1], [0, 0, 0])));
    nw.end();
  }
  rig.bones.forEach((_, i) => {
    nw.begin('PoseNode');
    nw.leaf('Node', L(boneIds[i]));
    nw.leaf('Matrix', Ad(matrixTRS(rest.rot[i], rest.pos[i])));
    nw.end();
  });
  nw.end();
}

/** The animation: stack, layer, one curve node per keyed channel with three (or one morph) curves. */
/** FBX Euler curves (degrees, unwrapped) of a RigClip's bones, by its rotation array (see `writeAnimation`). */
const EULER_CACHE = new WeakMap<Float32Array, { nb: number; F: number; curves: Map<number, Float64Array> }>();

/**
 * Bone b's rotations over the F frames as unwrapped FBX Euler angles (degrees, x y z per frame). A module-level
 * function on typed arrays: V8 keeps its optimised code from file to file (inside `writeAnimation` the loop was
 * compiled on stack on every file).
 */
function boneEulers(rotations: Float32Array, nb: number, b: number, F: number): Float64Array {
  const euler = new Float64Array(3 * F);
  for (let f = 0; f < F; f++) {
    const o = (f * nb + b) * 4;
    quatToFbxEuler(rotations, o, euler, 3 * f, f > 0 ? euler[3 * f - 1] : Number.NaN);
    if (f > 0) unwrapEulerInto(euler, 3 * f, 3 * f - 3, 180);
  }
  return euler;
}

// The per-curve loops of `writeAnimation`, as module-level functions on typed arrays: inside the big function V8
// compiled them on stack and deoptimised after them on every file.

/** The key arrays every curve of a file shares (encoded once). */
interface CurveProps {
  timesProp: Prop;
  flagsProp: Prop;
  dataProp: Prop;
  refProp: Prop;
}

/** One AnimationCurve: the shared key times and attributes, `vals` as its values. */
function writeCurve(nw: NodeWriter, id: number, vals: Float32Array, c: CurveProps): void {
  nw.begin('AnimationCurve', [L(id), S(objName('', 'AnimCurve')), S('')]);
  nw.leaf('Default', D(vals[0] ?? 0));
  nw.leaf('KeyVer', I(4008));
  nw.leaf('KeyTime', c.timesProp);
  nw.leaf('KeyValueFloat', Af(vals));
  nw.leaf('KeyAttrFlags', c.flagsProp);
  nw.leaf('KeyAttrDataFloat', c.dataProp);
  nw.leaf('KeyAttrRefCount', c.refProp);
  nw.end();
}

/** Key times of frames 0..F-1 in KTime. */
function keyTimes(F: number, fps: number): BigInt64Array {
  const times = new BigInt64Array(F);
  for (let f = 0; f < F; f++) times[f] = BigInt(ktimeOf(f, fps));
  return times;
}

/** `out[f] = a[f * stride + offset]` for f < F. */
function strided(
  out: Float32Array,
  a: Float32Array | Float64Array,
  stride: number,
  offset: number,
  F: number,
): void {
  for (let f = 0; f < F; f++) out[f] = a[f * stride + offset];
}

/** Column k of K face weights, clamped to 0..1, in percent. */
function percents(out: Float32Array, weights: Float32Array, K: number, k: number, F: number): void {
  for (let f = 0; f < F; f++) out[f] = Math.min(1, Math.max(0, weights[f * K + k])) * 100;
}

function writeAnimation(
  x: FbxWrite,
  { rotKeyed, posKeyed, morphAnim }: AnimationPlan,
  channelTargets: { channelId: number; shape: string }[],
): void {
  const { nw, rc, F, fps, nb, take, stop, newId, boneIds, oo, op, options } = x;
  const stackId = newId();
  const layerId = newId();
  nw.begin('AnimationStack', [L(stackId), S(objName(take, 'AnimStack')), S('')], true);
  nw.props70([
    ['LocalStart', 'KTime', 'Time', '', L(0)],
    ['LocalStop', 'KTime', 'Time', '', L(stop)],
    ['ReferenceStart', 'KTime', 'Time', '', L(0)],
    ['ReferenceStop', 'KTime', 'Time', '', L(stop)],
  ]);
  nw.end();
  nw.begin('AnimationLayer', [L(layerId), S(objName('BaseLayer', 'AnimLayer')), S('')], true);
  nw.end();
  oo(layerId, stackId);
  // Shared key data: times and attribute arrays, encoded once.
  const times = keyTimes(F, fps);
  const timesProp: Prop = { t: 'raw', code: 'l', bytes: arrayPayload('l', times, nw.compressArrays) };
  const flagsProp: Prop = { t: 'raw', code: 'i', bytes: arrayPayload('i', [0x4], nw.compressArrays) };
  const dataProp: Prop = { t: 'raw', code: 'f', bytes: arrayPayload('f', [0, 0, 0, 0], nw.compressArrays) };
  const refProp: Prop = { t: 'raw', code: 'i', bytes: arrayPayload('i', [F], nw.compressArrays) };
  const values = new Float32Array(F);
  const shared: CurveProps = { timesProp, flagsProp, dataProp, refProp };
  // Euler curves per bone, with `reuseCurves` cached per rotation array: the Mixamo, UnityAnim and GirlFBX files
  // of one clip write the same animation (with different characters), so each bone's curves are converted once.
  let eulers = options.reuseCurves ? EULER_CACHE.get(rc.rotations) : undefined;
  if (!eulers || eulers.nb !== nb || eulers.F !== F) {
    eulers = { nb, F, curves: new Map() };
    if (options.reuseCurves) EULER_CACHE.set(rc.rotations, eulers);
  }
  for (const b of rotKeyed) {
    let euler = eulers.curves.get(b);
    if (!euler) {
      euler = boneEulers(rc.rotations, nb, b, F);
      eulers.curves.set(b, euler);
    }
    const cnId = newId();
    nw.begin('AnimationCurveNode', [L(cnId), S(objName('R', 'AnimCurveNode')), S('')]);
    nw.props70([
      ['d|X', 'Number', '', 'A', D(euler[0])],
      ['d|Y', 'Number', '', 'A', D(euler[1])],
      ['d|Z', 'Number', '', 'A', D(euler[2])],
    ]);
    nw.end();
    oo(cnId, layerId);
    op(cnId, boneIds[b], 'Lcl Rotation');
    for (let k = 0; k < 3; k++) {
      strided(values, euler, 3, k, F);
      const cid = newId();
      writeCurve(nw, cid, values, shared);
      op(cid, cnId, `d|${'XYZ'[k]}`);
    }
  }
  for (const b of posKeyed) {
    const cnId = newId();
    const o0 = b * 3;
    nw.begin('AnimationCurveNode', [L(cnId), S(objName('T', 'AnimCurveNode')), S('')]);
    nw.props70([
      ['d|X', 'Number', '', 'A', D(rc.translations[o0])],
      ['d|Y', 'Number', '', 'A', D(rc.translations[o0 + 1])],
      ['d|Z', 'Number', '', 'A', D(rc.translations[o0 + 2])],
    ]);
    nw.end();
    oo(cnId, layerId);
    op(cnId, boneIds[b], 'Lcl Translation');
    for (let k = 0; k < 3; k++) {
      strided(values, rc.translations, nb * 3, b * 3 + k, F);
      const cid = newId();
      writeCurve(nw, cid, values, shared);
      op(cid, cnId, `d|${'XYZ'[k]}`);
    }
  }
  if (morphAnim && rc.blendshapes) {
    const bs = rc.blendshapes;
    const K = bs.names.length;
    for (const { channelId, shape } of channelTargets) {
      const k = bs.names.indexOf(shape as never);
      if (k < 0) continue;
      percents(values, bs.weights, K, k, F);
      const cnId = newId();
      nw.begin('AnimationCurveNode', [L(cnId), S(objName('DeformPercent', 'AnimCurveNode')), S('')]);
      nw.props70([['d|DeformPercent', 'Number', '', 'A', D(values[0])]]);
      nw.end();
      oo(cnId, layerId);
      op(cnId, channelId, 'DeformPercent');
      const cid = newId();
      writeCurve(nw, cid, values, shared);
      op(cid, cnId, 'd|DeformPercent');
    }
  }
}

/** Connections, Takes, the top-level NULL record and the footer. */
function writeConnectionsTakesFooter({ nw, connections, animate, take, stop }: FbxWrite): {
  bytes: Uint8Array;
  hints: DeflateHint[];
} {
  const w = nw.w;
  // Connections.
  nw.begin('Connections');
  for (const c of connections) nw.leaf('C', ...c);
  nw.end();

  // Takes.
  if (animate) {
    nw.begin('Takes');
    nw.leaf('Current', S(take));
    nw.begin('Take', [S(take)]);
    nw.leaf('FileName', S(`${take.replace(/[^\w-]+/g, '_')}.tak`));
    nw.leaf('LocalTime', L(0), L(stop));
    nw.leaf('ReferenceTime', L(0), L(stop));
    nw.end();
    nw.end();
  }

  // Top-level NULL record and footer.
  w.zeros(13);
  w.bytes(FOOTER_CODE);
  w.zeros(4);
  const pad = (16 - (w.length % 16)) % 16;
  w.zeros(pad === 0 ? 16 : pad);
  w.u32(FBX_VERSION);
  w.zeros(120);
  w.bytes(FOOTER_MAGIC);
  return { bytes: w.finish(), hints: nw.hints };
}

/** Inverse of a rigid column-major 4×4 (rotation + translation, possibly uniform scale 1). */
function invertRigid(m: number[]): number[] {
  // R^T and -R^T t
  const r = [m[0], m[4], m[8], 0, m[1], m[5], m[9], 0, m[2], m[6], m[10], 0];
  const t = [m[12], m[13], m[14]];
  return [
    r[0],
    r[1],
    r[2],
    0,
    r[4],
    r[5],
    r[6],
    0,
    r[8],
    r[9],
    r[10],
    0,
    -(r[0] * t[0] + r[4] * t[1] + r[8] * t[2]),
    -(r[1] * t[0] + r[5] * t[1] + r[9] * t[2]),
    -(r[2] * t[0] + r[6] * t[1] + r[10] * t[2]),
    1,
  ];
}

function templateProps(template: string): Prop70[] {
  switch (template) {
    case 'FbxNode':
      return [
        ['RotationOrder', 'enum', '', '', I(0)],
        ['RotationActive', 'bool', '', '', I(0)],
        ['InheritType', 'enum', '', '', I(0)],
        ...lclRows(ZERO3, ZERO3),
        ['Visibility', 'Visibility', '', 'A', D(1)],
      ];
    case 'FbxSkeleton':
      return [
        ['Color', 'ColorRGB', 'Color', '', D(0.8), D(0.8), D(0.8)],
        ['Size', 'double', 'Number', '', D(100)],
        ['LimbLength', 'double', 'Number', 'H', D(1)],
      ];
    case 'FbxAnimStack':
      return [
        ['Description', 'KString', '', '', S('')],
        ['LocalStart', 'KTime', 'Time', '', L(0)],
        ['LocalStop', 'KTime', 'Time', '', L(0)],
        ['ReferenceStart', 'KTime', 'Time', '', L(0)],
        ['ReferenceStop', 'KTime', 'Time', '', L(0)],
      ];
    case 'FbxAnimLayer':
      return [
        ['Weight', 'Number', '', 'A', D(100)],
        ['Mute', 'bool', '', '', I(0)],
        ['Solo', 'bool', '', '', I(0)],
        ['Lock', 'bool', '', '', I(0)],
      ];
    case 'FbxAnimCurveNode':
      return [['d', 'Compound', '', '']];
    case 'FbxMesh':
      return [
        ['Color', 'ColorRGB', 'Color', '', D(0.8), D(0.8), D(0.8)],
        ['Primary Visibility', 'bool', '', '', I(1)],
        ['Casts Shadows', 'bool', '', '', I(1)],
        ['Receive Shadows', 'bool', '', '', I(1)],
      ];
    case 'FbxSurfacePhong':
      return [
        ['ShadingModel', 'KString', '', '', S('Phong')],
        ['DiffuseColor', 'Color', '', 'A', D(0.8), D(0.8), D(0.8)],
        ['DiffuseFactor', 'Number', '', 'A', D(1)],
      ];
    case 'FbxFileTexture':
      return [
        ['TextureTypeUse', 'enum', '', '', I(0)],
        ['AlphaSource', 'enum', '', '', I(2)],
        ['UVSet', 'KString', '', '', S('default')],
        ['UseMaterial', 'bool', '', '', I(0)],
      ];
    case 'FbxVideo':
      return [
        ['Path', 'KString', 'XRefUrl', '', S('')],
        ['UseMipMap', 'bool', '', '', I(0)],
      ];
    default:
      return [];
  }
}

// ------------------------------------------------------------------ meshes

interface PreparedMesh {
  vertices: Float64Array;
  polygonIndex: Int32Array;
  normals: Float64Array;
  uvs: Float64Array;
  uvIndex: Int32Array;
  materials: Int32Array;
  clusters: { bone: number; indexes: Int32Array; weights: Float64Array }[];
  shapes: { name: string; indexes: Int32Array; vertices: Float64Array; normals: Float64Array }[];
}

function prepareMesh(rig: Rig, m: SkinnedMesh, boneIndex: Map<string, number>): PreparedMesh {
  const nv = m.positions.length / 3;
  if (
    m.normals.length !== 3 * nv ||
    m.uvs.length !== 2 * nv ||
    m.joints.length !== 4 * nv ||
    m.weights.length !== 4 * nv
  )
    throw new Error(`FBX: mesh ${m.name}: attribute lengths do not match ${nv} vertices`);
  if (m.indices.length % 3 !== 0) throw new Error(`FBX: mesh ${m.name}: index count is not a multiple of 3`);
  const vertices = meshToRig(rig, m.positions, true);
  // Normals per vertex (ByVertice): the mesh's vertices already carry one normal each (seams are split), so
  // per-polygon-vertex normals would only repeat them (3.4× the data to write and deflate).
  const normals = meshToRig(rig, m.normals, false);
  const nt = m.indices.length / 3;
  const polygonIndex = new Int32Array(m.indices.length);
  for (let t = 0; t < nt; t++) {
    for (let k = 0; k < 3; k++) {
      const v = m.indices[3 * t + k];
      if (v >= nv) throw new Error(`FBX: mesh ${m.name}: index ${v} out of range`);
      polygonIndex[3 * t + k] = k === 2 ? -(v + 1) : v;
    }
  }
  // UVs: FBX has v up from the bottom of the image; SkinnedMesh uses glTF's v down.
  const uvs = new Float64Array(2 * nv);
  for (let i = 0; i < nv; i++) {
    uvs[2 * i] = m.uvs[2 * i];
    uvs[2 * i + 1] = 1 - m.uvs[2 * i + 1];
  }
  const uvIndex = Int32Array.from(m.indices);
  const materials = new Int32Array(nt);
  for (const g of m.groups)
    for (let t = g.start / 3; t < (g.start + g.count) / 3; t++) materials[t] = g.material;
  // Clusters: one per bone with weight.
  const perBone = new Map<number, { idx: number[]; w: number[] }>();
  for (let v = 0; v < nv; v++) {
    for (let k = 0; k < 4; k++) {
      const wgt = m.weights[4 * v + k];
      if (!(wgt > 0)) continue;
      const name = m.jointNames[m.joints[4 * v + k]];
      const bi = boneIndex.get(name);
      if (bi === undefined)
        throw new Error(`FBX: mesh ${m.name} is weighted to ${name}, which rig ${rig.id} lacks`);
      let e = perBone.get(bi);
      if (!e) {
        e = { idx: [], w: [] };
        perBone.set(bi, e);
      }
      e.idx.push(v);
      e.w.push(wgt);
    }
  }
  const clusters = [...perBone.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([bone, e]) => ({ bone, indexes: Int32Array.from(e.idx), weights: Float64Array.from(e.w) }));
  // Sparse: only the vertices a shape moves are converted (the face's 52 shapes each move a few hundred of its
  // thousands of vertices; converting every vertex of every shape was most of the face FBX's time).
  const shapes = (m.morphTargets ?? []).map((t) => {
    const idx = movedVertices(rig, t.positions, nv);
    return {
      name: t.name,
      indexes: idx,
      vertices: meshToRigAt(rig, t.positions, idx, true),
      normals: t.normals ? meshToRigAt(rig, t.normals, idx, false) : new Float64Array(3 * idx.length),
    };
  });
  return { vertices, polygonIndex, normals, uvs, uvIndex, materials, clusters, shapes };
}

/** Closes a Model node with its common trailing leaves (one layer, one take, shaded, no culling). */
function endModel(nw: NodeWriter): void {
  nw.leaf('MultiLayer', I(0));
  nw.leaf('MultiTake', I(0));
  nw.leaf('Shading', C(true));
  nw.leaf('Culling', S('CullingOff'));
  nw.end();
}

/** Opens `LayerElement<kind>` of layer 0 and writes its header; the caller writes its arrays and ends it. */
function beginLayerElement(
  nw: NodeWriter,
  kind: string,
  name: string,
  mapping: string,
  reference: string,
): void {
  nw.begin(`LayerElement${kind}`, [I(0)]);
  nw.leaf('Version', I(101));
  nw.leaf('Name', S(name));
  nw.leaf('MappingInformationType', S(mapping));
  nw.leaf('ReferenceInformationType', S(reference));
}

function writeGeometry(nw: NodeWriter, id: number, name: string, md: PreparedMesh): void {
  nw.begin('Geometry', [L(id), S(objName(name, 'Geometry')), S('Mesh')]);
  nw.leaf('GeometryVersion', I(124));
  nw.leaf('Vertices', Ad(md.vertices));
  nw.leaf('PolygonVertexIndex', Ai(md.polygonIndex));
  beginLayerElement(nw, 'Normal', '', 'ByVertice', 'Direct');
  nw.leaf('Normals', Ad(md.normals));
  nw.end();
  beginLayerElement(nw, 'UV', 'UVMap', 'ByPolygonVertex', 'IndexToDirect');
  nw.leaf('UV', Ad(md.uvs));
  nw.leaf('UVIndex', Ai(md.uvIndex));
  nw.end();
  beginLayerElement(nw, 'Material', '', 'ByPolygon', 'IndexToDirect');
  nw.leaf('Materials', Ai(md.materials));
  nw.end();
  nw.begin('Layer', [I(0)]);
  nw.leaf('Version', I(100));
  for (const [type] of [['LayerElementNormal'], ['LayerElementUV'], ['LayerElementMaterial']]) {
    nw.begin('LayerElement');
    nw.leaf('Type', S(type));
    nw.leaf('TypedIndex', I(0));
    nw.end();
  }
  nw.end();
  nw.end();
}
