/**
 * Unity `.anim` writer (YAML AnimationClip, formats.md d), for a `RigClip` on the `unity` rig (Humanoid bone
 * names, Unity axes: Y up, left-handed, the character facing +Z, metres).
 *
 * Why a Generic clip with transform curves, not Humanoid muscle curves: a Humanoid .anim stores muscle values
 * that only Unity's muscle model (`HumanPoseHandler`, per-avatar ranges and pre-rotations) can compute; values
 * computed elsewhere would play wrong. Transform curves (`m_RotationCurves` quaternions on every bone,
 * `m_PositionCurves` on the hips) play exactly on the hierarchy they name: the exported rig (our FBX imported as
 * Generic, or any model whose bones carry the same names and nesting). For a Humanoid avatar, import the FBX of
 * the same export as Humanoid; Unity then builds the muscle clip itself. The layout is the Unity 2019+ one of the
 * sample in testdata (serializedVersion 6, same keys in the same order), with `m_ClipBindingConstant`
 * filled in as Unity does (path = CRC32 of the path string, attribute 1 position / 2 rotation, typeID 4).
 *
 * Paths are relative to the GameObject holding the Animator, the top bone first (`Hips/Spine/Chest/...`), which is
 * how a Generic import of the exported FBX nests them; `rootPath` prefixes another parent ("Armature").
 *
 * `asUnityImport(rc)` turns a RigClip of a right-handed, Y-up, +Z-facing rig (the Mixamo rig of the UnityAnim
 * zip's character FBX) into what Unity's FBX importer makes of that FBX: X mirrored (positions (−x, y, z),
 * rotations (x, −y, −z, w)), units converted to metres by the writer. A clip written from it binds to the FBX's
 * own hierarchy (`mixamorig:Hips/mixamorig:Spine/...`, our FBX has no extra armature node), so the `.anim` plays on
 * the character imported as Generic.
 *
 * Keys: reduced per curve the way Unity's own keyframe reduction writes them (the sample in testdata has the same
 * shape): free tangents (tangentMode 0, inSlope = outSlope = the sampled slope, central differences) and only the
 * keys needed for the cubic Hermite curve Unity plays between them to reproduce every frame within 2e-4
 * (quaternion components, ≈ 0.02°), 0.1 mm (positions) or 0.05 (blendshape weights, 0–100). A 30 fps capture
 * keeps roughly one key in four; a still stretch collapses to its two ends.
 * Face: with `blendShapePath` (the SkinnedMeshRenderer's path), ARKit curves become `blendShape.<name>` float
 * curves (classID 137, 0–100).
 *
 * Limits: no scale curves, no events, no humanoid muscles, no root-motion settings beyond loop time off.
 */

import { ARKIT_BLENDSHAPES } from '../clip.ts';
import type { RigClip } from '../rigs/types.ts';
import { crc32, DIGITS4, TextSink } from './bytes.ts';

export interface AnimOptions {
  /** Clip name (default: the RigClip's name). */
  name?: string;
  /** Path prefix of the top bone (default none: paths start at the top bone). */
  rootPath?: string;
  /** Path of the SkinnedMeshRenderer carrying ARKit blendshapes; curves are written only when given. */
  blendShapePath?: string;
  /** Key reduction tolerance for quaternion components (default 2e-4); 0 keeps every frame. */
  rotationTolerance?: number;
  /** Key reduction tolerance for positions, metres (default 1e-4). */
  positionTolerance?: number;
}

/**
 * A RigClip of a right-handed, Y-up, +Z-facing rig as Unity imports its FBX: X mirrored, the rig marked
 * left-handed (same names, nesting and units; the writer converts units to metres). Throws for other axes (Unity
 * bakes a root rotation into Z-up files, which a clip of local transforms cannot express).
 */
export function asUnityImport(rc: RigClip): RigClip {
  const { rig } = rc;
  if (rig.axes.handedness === 'left' && rig.axes.up === '+Y' && rig.axes.front === '+Z') return rc;
  if (rig.axes.up !== '+Y' || rig.axes.front !== '+Z' || rig.axes.handedness !== 'right')
    throw new Error(`.anim: rig "${rig.id}" is not Y up and facing +Z; use a Mixamo-named or the Unity rig`);
  const rotations = new Float32Array(rc.rotations);
  for (let i = 0; i < rotations.length; i += 4) {
    rotations[i + 1] = -rotations[i + 1];
    rotations[i + 2] = -rotations[i + 2];
  }
  const translations = new Float32Array(rc.translations);
  for (let i = 0; i < translations.length; i += 3) translations[i] = -translations[i];
  return {
    ...rc,
    rig: {
      ...rig,
      axes: { up: '+Y', front: '+Z', handedness: 'left' },
      basis: rig.basis.map((v, i) => (i < 3 ? -v : v)),
      // Object.assign onto a literal, not a spread: the same hidden classes for the bones of every call (a
      // spread gave each call's bones new ones, and the writer's loops were deoptimised per clip).
      bones: rig.bones.map((b) =>
        Object.assign({}, b, {
          restTranslation: [-b.restTranslation[0], b.restTranslation[1], b.restTranslation[2]],
          restRotation: [b.restRotation[0], -b.restRotation[1], -b.restRotation[2], b.restRotation[3]],
        }),
      ),
    },
    rotations,
    translations,
  };
}

/** Float formatting: 7 decimals (quaternions, metres and slopes need no more), never an exponent; integer
 *  arithmetic instead of `String(double)` (5× faster on the ~10⁶ numbers of a long clip). */
function num(v: number): string {
  let i = Math.round(v * 1e7);
  if (i === 0 || !Number.isFinite(i)) return '0';
  const neg = i < 0;
  if (neg) i = -i;
  const ip = Math.floor(i / 1e7);
  let fp = i - ip * 1e7;
  let out = String(ip);
  if (fp > 0) {
    let digits = 7;
    while (fp % 10 === 0) {
      fp /= 10;
      digits--;
    }
    const f = String(fp);
    out += `.${'000000'.slice(0, digits - f.length)}${f}`;
  }
  return neg ? `-${out}` : out;
}

/** The clip text's byte buffer (not millions of small strings: GC): a `TextSink` with lines and Unity's numbers. */
class Sink extends TextSink {
  line(s: string): this {
    this.str(s);
    this.buf[this.len++] = 10;
    return this;
  }
  /** `num(v)` without allocating: 7 decimals, no exponent. */
  num(v: number): this {
    // Small enough to be inlined: the value reaches numAt through a scratch array (a double argument of a
    // non-inlined call is boxed, ~10⁶ times per clip).
    this.scratch[0] = v;
    return this.numAt(this.scratch, 0);
  }
  /** `num(a[k])`. */
  numAt(a: Float64Array, k: number): this {
    this.ensure(32);
    let i = Math.round(a[k] * 1e7);
    if (i === 0 || !Number.isFinite(i)) {
      this.buf[this.len++] = 48;
      return this;
    }
    if (i < 0) {
      this.buf[this.len++] = 45;
      i = -i;
    }
    let ip = Math.floor(i / 1e7);
    const fp = i - ip * 1e7;
    const buf = this.buf;
    if (ip < 10000) {
      // Integer digits from the 4-digit table (no leading zeros).
      const o = 4 * ip;
      if (ip >= 1000) buf[this.len++] = DIGITS4[o];
      if (ip >= 100) buf[this.len++] = DIGITS4[o + 1];
      if (ip >= 10) buf[this.len++] = DIGITS4[o + 2];
      buf[this.len++] = DIGITS4[o + 3];
    } else {
      let n = 0;
      do {
        this.digits[n++] = 48 + (ip % 10);
        ip = Math.floor(ip / 10);
      } while (ip > 0);
      while (n > 0) buf[this.len++] = this.digits[--n];
    }
    if (fp > 0) {
      // fp < 10^7, a whole number: its 7 digits zero-padded (3 + 4 from the table), without the trailing zeros.
      let f = fp | 0;
      let d = 7;
      while (f - ((f / 10) | 0) * 10 === 0) {
        f = (f / 10) | 0;
        d--;
      }
      const hi = (fp / 10000) | 0;
      const lo = (fp | 0) - hi * 10000;
      const digits = this.digits;
      for (let k = 0; k < 3; k++) digits[k] = DIGITS4[4 * hi + 1 + k];
      for (let k = 0; k < 4; k++) digits[3 + k] = DIGITS4[4 * lo + k];
      buf[this.len++] = 46;
      for (let k = 0; k < d; k++) buf[this.len++] = digits[k];
    }
    return this;
  }
}

/**
 * Slopes (units per second) of a `dim`-component curve `[frames × dim]` sampled at `fps`: central differences
 * inside, one-sided at the ends (the derivative of the parabola through three samples).
 */
function slopesOf(values: Float64Array, dim: number, frames: number, fps: number): Float64Array {
  const m = new Float64Array(values.length);
  if (frames < 2) return m;
  for (let f = 0; f < frames; f++) {
    const a = f > 0 ? f - 1 : 0;
    const b = f + 1 < frames ? f + 1 : frames - 1;
    const k = fps / (b - a);
    for (let c = 0; c < dim; c++) m[f * dim + c] = (values[b * dim + c] - values[a * dim + c]) * k;
  }
  return m;
}

/**
 * Whether the cubic Hermite segment between keys `a` and `b` (values and slopes at both ends, the curve Unity
 * plays for free tangents) reproduces every sample strictly between them within `tol`.
 */
function hermiteFits(
  v: Float64Array,
  m: Float64Array,
  dim: number,
  fps: number,
  a: number,
  b: number,
  tol: number,
): boolean {
  const span = b - a;
  const dt = span / fps;
  for (let k = a + 1; k < b; k++) {
    const s = (k - a) / span;
    const s2 = s * s;
    const s3 = s2 * s;
    const h00 = 2 * s3 - 3 * s2 + 1;
    const h10 = (s3 - 2 * s2 + s) * dt;
    const h01 = -2 * s3 + 3 * s2;
    const h11 = (s3 - s2) * dt;
    for (let c = 0; c < dim; c++) {
      const p = h00 * v[a * dim + c] + h10 * m[a * dim + c] + h01 * v[b * dim + c] + h11 * m[b * dim + c];
      if (Math.abs(p - v[k * dim + c]) > tol) return false;
    }
  }
  return true;
}

/**
 * Frames to keep for a `dim`-component curve so that the Hermite curve through the kept keys (with `slopes`)
 * reproduces every frame within `tol`: greedy from the first frame, each segment as long as it still fits
 * (grown by doubling, then bisected; every accepted segment is checked against all the frames it spans).
 */
function reduceKeys(
  values: Float64Array,
  slopes: Float64Array,
  dim: number,
  frames: number,
  fps: number,
  tol: number,
): number[] {
  if (frames <= 2 || tol <= 0) return Array.from({ length: frames }, (_, i) => i);
  const kept = [0];
  let a = 0;
  const last = frames - 1;
  while (a < last) {
    let good = a + 1;
    let len = 2;
    while (a + len <= last && hermiteFits(values, slopes, dim, fps, a, a + len, tol)) {
      good = a + len;
      len *= 2;
    }
    let bad = Math.min(a + len, frames);
    while (bad - good > 1) {
      const mid = (good + bad) >> 1;
      if (hermiteFits(values, slopes, dim, fps, a, mid, tol)) good = mid;
      else bad = mid;
    }
    kept.push(good);
    a = good;
  }
  return kept;
}

const utf8 = new TextEncoder();
const WEIGHT4 = '{x: 0.33333334, y: 0.33333334, z: 0.33333334, w: 0.33333334}';
const WEIGHT3 = '{x: 0.33333334, y: 0.33333334, z: 0.33333334}';
// Fixed pieces of a vector key, encoded once.
const KEY_HEAD = utf8.encode('      - serializedVersion: 3\n        time: ');
const KEY_VALUE = utf8.encode('\n        value: {x: ');
const KEY_IN = utf8.encode('}\n        inSlope: {x: ');
const KEY_OUT = utf8.encode('}\n        outSlope: {x: ');
const KEY_SEP = [utf8.encode(', y: '), utf8.encode(', z: '), utf8.encode(', w: ')];
const keyTail = (w: string) =>
  utf8.encode(
    `}\n        tangentMode: 0\n        weightedMode: 0\n        inWeight: ${w}\n        outWeight: ${w}\n`,
  );
const KEY_TAIL4 = keyTail(WEIGHT4);
const KEY_TAIL3 = keyTail(WEIGHT3);

/** YAML lines of one vector curve (`m_RotationCurves`/`m_PositionCurves` entry). */
function vectorCurve(
  out: Sink,
  values: Float64Array,
  dim: 3 | 4,
  fps: number,
  frames: number,
  tol: number,
  path: string,
) {
  const slopes = slopesOf(values, dim, frames, fps);
  const keys = reduceKeys(values, slopes, dim, frames, fps, tol);
  out.line('  - curve:').line('      serializedVersion: 2').line('      m_Curve:');
  for (let i = 0; i < keys.length; i++) {
    const o = keys[i] * dim;
    out
      .raw(KEY_HEAD)
      .num(keys[i] / fps)
      .raw(KEY_VALUE);
    for (let c = 0; c < dim; c++) {
      if (c > 0) out.raw(KEY_SEP[c - 1]);
      out.numAt(values, o + c);
    }
    // Free tangents: in = out = the sampled slope (Unity's own keyframe reduction writes the same); the out
    // slope's text is copied from the in slope's within the buffer.
    const slopeStart = out.len + KEY_IN.length;
    out.raw(KEY_IN);
    for (let c = 0; c < dim; c++) {
      if (c > 0) out.raw(KEY_SEP[c - 1]);
      out.numAt(slopes, o + c);
    }
    const slopeEnd = out.len;
    out.raw(KEY_OUT);
    out.ensure(slopeEnd - slopeStart);
    out.buf.copyWithin(out.len, slopeStart, slopeEnd);
    out.len += slopeEnd - slopeStart;
    out.raw(dim === 4 ? KEY_TAIL4 : KEY_TAIL3);
  }
  out.line('      m_PreInfinity: 2').line('      m_PostInfinity: 2').line('      m_RotationOrder: 4');
  out.str('    path: ').line(path);
}

function floatCurve(
  out: Sink,
  values: Float64Array,
  fps: number,
  frames: number,
  tol: number,
  attribute: string,
  path: string,
) {
  const slopes = slopesOf(values, 1, frames, fps);
  const keys = reduceKeys(values, slopes, 1, frames, fps, tol);
  out.line('  - curve:').line('      serializedVersion: 2').line('      m_Curve:');
  for (const f of keys) {
    out
      .raw(KEY_HEAD)
      .num(f / fps)
      .line('');
    out.str('        value: ').num(values[f]).line('');
    out.str('        inSlope: ').num(slopes[f]).line('');
    out.str('        outSlope: ').num(slopes[f]).line('');
    out.line('        tangentMode: 0').line('        weightedMode: 0');
    out.line('        inWeight: 0.33333334').line('        outWeight: 0.33333334');
  }
  out.line('      m_PreInfinity: 2').line('      m_PostInfinity: 2').line('      m_RotationOrder: 4');
  out.str('    attribute: ').line(attribute).str('    path: ').line(path);
  out.line('    classID: 137').line('    script: {fileID: 0}');
}

/** Quotes a YAML plain scalar when needed (paths with ':' like `mixamorig:Hips` stay plain, as Unity writes). */
const yamlName = (s: string) =>
  /^[\w:./ -]+$/.test(s) && !/^[-: ]|[: ]$|: /.test(s) ? s : JSON.stringify(s);

/** Bone b's translations over the F frames, scaled by `s` (x, y, z per frame). */
function boneTranslations(
  translations: Float32Array,
  nb: number,
  b: number,
  F: number,
  s: number,
): Float64Array {
  const v = new Float64Array(3 * F);
  for (let f = 0; f < F; f++)
    for (let c = 0; c < 3; c++) v[3 * f + c] = translations[(f * nb + b) * 3 + c] * s;
  return v;
}

/**
 * Bone b's rotations over the F frames, each on the hemisphere of the one before. Module-level functions on typed
 * arrays (as `boneTranslations`): V8 keeps their optimised code from clip to clip (the loops inside `build` were
 * recompiled on every file).
 */
function boneRotations(rotations: Float32Array, nb: number, b: number, F: number): Float64Array {
  const q = new Float64Array(4 * F);
  for (let f = 0; f < F; f++) {
    const o = (f * nb + b) * 4;
    let sign = 1;
    if (f > 0) {
      const d =
        q[4 * f - 4] * rotations[o] +
        q[4 * f - 3] * rotations[o + 1] +
        q[4 * f - 2] * rotations[o + 2] +
        q[4 * f - 1] * rotations[o + 3];
      if (d < 0) sign = -1;
    }
    for (let c = 0; c < 4; c++) q[4 * f + c] = sign * rotations[o + c];
  }
  return q;
}

/**
 * The sections (rotation, position, binding and float curves) are written into sinks kept from file to file and
 * copied into the file's own buffer at the end: a 60 s clip's rotation section alone is ~9 MB, and fresh buffers
 * per file (grown by doubling when the size guess was short) were ~35 MB of allocation per .anim.
 */
const SECTIONS: Sink[] = [];
function sectionSink(i: number, capacity = 1 << 16): Sink {
  let s = SECTIONS[i];
  if (!s) {
    s = new Sink(capacity);
    SECTIONS[i] = s;
  }
  s.len = 0;
  s.ensure(capacity);
  return s;
}

function build(rc: RigClip, options: AnimOptions): Sink {
  const { rig } = rc;
  if (rig.axes.up !== '+Y' || rig.axes.front !== '+Z' || rig.axes.handedness !== 'left')
    throw new Error(`.anim: rig "${rig.id}" is not in Unity axes (Y up, facing +Z, left-handed)`);
  if (rc.frameCount < 1) throw new Error('.anim: the clip has no frames');
  const nb = rig.bones.length;
  const F = rc.frameCount;
  const fps = rc.fps;
  const s = 1 / rig.unitsPerMetre;
  const idx = new Map(rig.bones.map((b, i) => [b.name, i]));
  const paths: string[] = [];
  rig.bones.forEach((b) => {
    const p = b.parent === null ? -1 : (idx.get(b.parent) ?? -1);
    const own =
      p < 0 ? (options.rootPath ? `${options.rootPath}/${b.name}` : b.name) : `${paths[p]}/${b.name}`;
    paths.push(own);
  });
  const rotTol = options.rotationTolerance ?? 2e-4;
  const posTol = options.positionTolerance ?? 1e-4;

  // About 330 bytes per key and one key in four frames kept (reduceKeys) on a moving clip: sized up front.
  let keyedBones = 0;
  for (let b = 0; b < nb; b++) if (rc.keyed[b] === 1) keyedBones++;
  const rotation = sectionSink(0, Math.min(1 << 28, 90 * F * keyedBones + (1 << 16)));
  const position = sectionSink(1);
  const bindings = sectionSink(2);
  const bind = (path: string, attribute: number, typeID: number, customType: number) =>
    bindings
      .line('    - serializedVersion: 2')
      .line(`      path: ${crc32(new TextEncoder().encode(path))}`)
      .line(`      attribute: ${attribute}`)
      .line('      script: {fileID: 0}')
      .line(`      typeID: ${typeID}`)
      .line(`      customType: ${customType}`)
      .line('      isPPtrCurve: 0');
  for (let b = 0; b < nb; b++) {
    if (rc.keyed[b] !== 1) continue;
    const path = yamlName(paths[b]);
    if (rc.translated[b] === 1) {
      vectorCurve(position, boneTranslations(rc.translations, nb, b, F, s), 3, fps, F, posTol, path);
      bind(paths[b], 1, 4, 0);
    }
    vectorCurve(rotation, boneRotations(rc.rotations, nb, b, F), 4, fps, F, rotTol, path);
    bind(paths[b], 2, 4, 0);
  }
  const floats = sectionSink(3);
  if (options.blendShapePath && rc.blendshapes) {
    const bs = rc.blendshapes;
    const K = bs.names.length;
    for (const name of bs.supported) {
      const k = bs.names.indexOf(name);
      if (k < 0 || !ARKIT_BLENDSHAPES.includes(name)) continue;
      const v = new Float64Array(F);
      for (let f = 0; f < F; f++) v[f] = Math.min(1, Math.max(0, bs.weights[f * K + k])) * 100;
      const attribute = `blendShape.${name}`;
      floatCurve(floats, v, fps, F, 0.05, attribute, yamlName(options.blendShapePath));
      bindings
        .line('    - serializedVersion: 2')
        .line(`      path: ${crc32(new TextEncoder().encode(options.blendShapePath))}`)
        .line(`      attribute: ${crc32(new TextEncoder().encode(attribute))}`)
        .line('      script: {fileID: 0}')
        .line('      typeID: 137')
        .line('      customType: 20')
        .line('      isPPtrCurve: 0');
    }
  }
  const stop = num((F - 1) / fps);
  // The sections are known now: the whole file fits without growing.
  const out = new Sink(rotation.len + position.len + floats.len + bindings.len + (1 << 14));
  const list = (key: string, sec: Sink) => {
    if (sec.len) {
      out.line(`  ${key}:`);
      out.raw(sec.bytes());
    } else out.line(`  ${key}: []`);
  };
  const lines = (...ls: string[]) => {
    for (const l of ls) out.line(l);
  };
  lines(
    '%YAML 1.1',
    '%TAG !u! tag:unity3d.com,2011:',
    '--- !u!74 &7400000',
    'AnimationClip:',
    '  m_ObjectHideFlags: 0',
    '  m_CorrespondingSourceObject: {fileID: 0}',
    '  m_PrefabInstance: {fileID: 0}',
    '  m_PrefabAsset: {fileID: 0}',
    `  m_Name: ${yamlName(options.name ?? rc.name)}`,
    '  serializedVersion: 6',
    '  m_Legacy: 0',
    '  m_Compressed: 0',
    '  m_UseHighQualityCurve: 1',
  );
  list('m_RotationCurves', rotation);
  lines('  m_CompressedRotationCurves: []', '  m_EulerCurves: []');
  list('m_PositionCurves', position);
  lines('  m_ScaleCurves: []');
  list('m_FloatCurves', floats);
  lines(
    '  m_PPtrCurves: []',
    `  m_SampleRate: ${num(fps)}`,
    '  m_WrapMode: 0',
    '  m_Bounds:',
    '    m_Center: {x: 0, y: 0, z: 0}',
    '    m_Extent: {x: 0, y: 0, z: 0}',
    '  m_ClipBindingConstant:',
  );
  if (bindings.len) {
    out.line('    genericBindings:');
    out.raw(bindings.bytes());
  } else out.line('    genericBindings: []');
  lines(
    '    pptrCurveMapping: []',
    '  m_AnimationClipSettings:',
    '    serializedVersion: 2',
    '    m_AdditiveReferencePoseClip: {fileID: 0}',
    '    m_AdditiveReferencePoseTime: 0',
    '    m_StartTime: 0',
    `    m_StopTime: ${stop}`,
    '    m_OrientationOffsetY: 0',
    '    m_Level: 0',
    '    m_CycleOffset: 0',
    '    m_HasAdditiveReferencePose: 0',
    '    m_LoopTime: 0',
    '    m_LoopBlend: 0',
    '    m_LoopBlendOrientation: 0',
    '    m_LoopBlendPositionY: 0',
    '    m_LoopBlendPositionXZ: 0',
    '    m_KeepOriginalOrientation: 0',
    '    m_KeepOriginalPositionY: 1',
    '    m_KeepOriginalPositionXZ: 0',
    '    m_HeightFromFeet: 0',
    '    m_Mirror: 0',
    '  m_EditorCurves: []',
    '  m_EulerEditorCurves: []',
    '  m_HasGenericRootTransform: 0',
    '  m_HasMotionFloatCurves: 0',
    '  m_Events: []',
  );
  return out;
}

/** Writes a Unity `.anim` (text) for a RigClip. */
export function write(rc: RigClip, options: AnimOptions = {}): string {
  return build(rc, options).text();
}

/** The same `.anim` as UTF-8 bytes (no intermediate string: for zips). */
export function writeBytes(rc: RigClip, options: AnimOptions = {}): Uint8Array {
  return build(rc, options).bytes();
}
