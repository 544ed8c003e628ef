/**
 * BVH (Biovision Hierarchy) writer and reader.
 *
 * Writer, `write(clip, options) → string` (pure):
 * - One hierarchy, one root: the clip's root joint, written with `OFFSET 0 0 0` and the channels
 *   `Xposition Yposition Zposition Zrotation Xrotation Yrotation`; its position channels hold the root's
 *   absolute world position (Blender reads root positions as absolute, three.js adds them to the offset: with
 *   a zero offset both agree).
 * - Every other joint: `OFFSET` = its rest offset, `CHANNELS 3 Zrotation Xrotation Yrotation`, i.e. the local
 *   rotation matrix is `Rz · Rx · Ry` (ZXY, channels applied left to right), in degrees.
 *   `options.rotationOrder` picks another order; the channel lines always state the order used.
 * - Joints without children get an `End Site` at the skeleton's tip offset (zero when unknown).
 * - Axes are the clip's: right-handed, Y up, character facing +Z. Units: centimetres by default
 *   (`unit: 'm'` for metres): offsets and root positions are scaled, angles are not.
 * - `Frame Time` is written with 10 decimals (e.g. 0.0333333333 for 30 fps) so Blender derives the frame rate
 *   exactly (0.033333 would give it 30.0003 fps).
 *
 * Limits (BVH cannot carry them): the skeleton's rest *orientations* (BVH's rest pose is the pose with all
 * rotation channels zero; the written rotations are the clip's absolute local rotations, so the animation is
 * exact but a non-identity rest orientation is not recorded — the canonical skeleton has none), per-joint
 * translation other than the root, scale, face blendshapes, foot contacts, and variable frame timing. Euler
 * angles are unwrapped frame to frame (no ±180° jumps) where the order allows.
 *
 * Per-rig BVH, `writeRig(rigClip, options)`: the rig's bone names and hierarchy from its hips bone down (a ground
 * root and IK bones are left out: BVH has one root carrying the travel), offsets from the rig's T-pose in the
 * canonical axes (Y up, facing +Z; BVH has no rest orientation, so the rest pose is the T-pose with all rotations
 * zero), rotations = each bone's world rotation relative to its T-pose orientation, made local. A bone whose
 * translation is keyed in the rig (Biped thighs and clavicles) is re-parented in the BVH to the bone of the
 * canonical joint it hangs from, so every joint stays rigid and positions stay exact in every reader.
 *
 * Reader, `read(text) → BvhDocument`: any channel order and any joint with 3 or 6 channels (positions on a
 * non-root joint replace its offset, as Blender does), End Sites, `Frames:` and `Frame Time:`. `bvhWorld`
 * evaluates a frame's world joint transforms; `toClip` turns a document into a MotionClip.
 */

import type { MotionClip, Skeleton } from '../clip.ts';
import {
  DEG,
  type EulerOrder,
  type Quat,
  qFromEuler,
  qMul,
  qRotate,
  qToEuler,
  readQuat,
  readVec3,
  unwrapEulerInto,
  type Vec3,
  writeQuat,
} from '../math.ts';
import { eulerQ64, mulQ64, rotateQ64 } from '../quat64.ts';
import { rigInternals } from '../rigs/build.ts';
import type { RigClip } from '../rigs/types.ts';
import { formatFixed, TextSink } from './bytes.ts';

export interface BvhWriteOptions {
  /** Length unit of offsets and root positions (default `'cm'`). */
  unit?: 'cm' | 'm';
  /** Rotation channel order of every joint (default `'ZXY'`). */
  rotationOrder?: EulerOrder;
  /** Decimals for angles (default 4) and lengths (default 4). */
  angleDecimals?: number;
  lengthDecimals?: number;
}

const fmt = formatFixed;

const AXIS_INDEX: Record<string, number> = { X: 0, Y: 1, Z: 2 };

/** Serialises a clip as BVH text (see the file header for the conventions). */
export function write(clip: MotionClip, options: BvhWriteOptions = {}): string {
  return build(clip, options).text();
}

/** The same BVH as UTF-8 bytes (no intermediate string: for zips). */
export function writeBytes(clip: MotionClip, options: BvhWriteOptions = {}): Uint8Array {
  return build(clip, options).bytes();
}

/**
 * The MOTION rows: per frame the root position, then every joint's Euler angles in degrees, unwrapped against the
 * previous frame (two rows of angles, no per-value allocation), written as bytes. A module-level function on typed
 * arrays and numbers: V8 keeps its optimised code from clip to clip (inside `build` the loop was recompiled on
 * every file).
 */
function frameRows(
  out: TextSink,
  rot: Float32Array,
  rootPositions: Float32Array,
  frameCount: number,
  n: number,
  unitScale: number,
  ai: number,
  aj: number,
  ak: number,
  ld: number,
  ad: number,
): void {
  const cur = new Float64Array(6 * n); // [prev frame | this frame] per joint
  // One frame's values (root position, then the angles in degrees), written as one space-separated row.
  const row = new Float64Array(3 + 3 * n);
  for (let f = 0; f < frameCount; f++) {
    row[0] = rootPositions[3 * f] * unitScale;
    row[1] = rootPositions[3 * f + 1] * unitScale;
    row[2] = rootPositions[3 * f + 2] * unitScale;
    for (let j = 0; j < n; j++) {
      const q = (f * n + j) * 4;
      const o = 6 * j + 3;
      eulerQ64(rot, q, ai, aj, ak, cur, o);
      if (f > 0) unwrapEulerInto(cur, o, 6 * j, Math.PI);
      cur[6 * j] = cur[o];
      cur[6 * j + 1] = cur[o + 1];
      cur[6 * j + 2] = cur[o + 2];
      row[3 + 3 * j] = cur[o] / DEG;
      row[4 + 3 * j] = cur[o + 1] / DEG;
      row[5 + 3 * j] = cur[o + 2] / DEG;
    }
    out.fixedJoined(row, 0, 3, ld);
    if (n > 0) out.byte(32).fixedJoined(row, 3, 3 + 3 * n, ad);
    out.byte(10);
  }
}

function build(clip: MotionClip, options: BvhWriteOptions): TextSink {
  const sk = clip.skeleton;
  const n = sk.names.length;
  const unitScale = (options.unit ?? 'cm') === 'cm' ? 100 : 1;
  const order = options.rotationOrder ?? 'ZXY';
  const ad = options.angleDecimals ?? 4;
  const ld = options.lengthDecimals ?? 4;
  const children: number[][] = sk.names.map(() => []);
  sk.parents.forEach((p, j) => {
    if (p >= 0) children[p].push(j);
  });
  const rotChannels = order
    .split('')
    .map((a) => `${a}rotation`)
    .join(' ');
  const lines: string[] = ['HIERARCHY'];
  const writeJoint = (j: number, depth: number): void => {
    const ind = '  '.repeat(depth);
    const isRoot = sk.parents[j] < 0;
    lines.push(`${ind}${isRoot ? 'ROOT' : 'JOINT'} ${sk.names[j].replace(/\s+/g, '_')}`);
    lines.push(`${ind}{`);
    const off = isRoot ? [0, 0, 0] : Array.from(readVec3(sk.offsets, j), (v) => v * unitScale);
    lines.push(`${ind}  OFFSET ${off.map((v) => fmt(v, ld)).join(' ')}`);
    lines.push(
      isRoot
        ? `${ind}  CHANNELS 6 Xposition Yposition Zposition ${rotChannels}`
        : `${ind}  CHANNELS 3 ${rotChannels}`,
    );
    if (children[j].length === 0) {
      const tip = Array.from(readVec3(sk.tips, j), (v) => v * unitScale);
      lines.push(`${ind}  End Site`, `${ind}  {`, `${ind}    OFFSET ${tip.map((v) => fmt(v, ld)).join(' ')}`);
      lines.push(`${ind}  }`);
    }
    for (const c of children[j]) writeJoint(c, depth + 1);
    lines.push(`${ind}}`);
  };
  writeJoint(0, 0);
  lines.push('MOTION', `Frames: ${clip.frameCount}`, `Frame Time: ${(1 / clip.fps).toFixed(10)}`, '');
  // Euler angles per joint, unwrapped against the previous frame (two rows of angles, no per-value allocation);
  // the frame rows are written as bytes.
  const ai = AXIS_INDEX[order[0]];
  const aj = AXIS_INDEX[order[1]];
  const ak = AXIS_INDEX[order[2]];
  const rot = clip.rotations;
  const out = new TextSink(clip.frameCount * (3 + 3 * n) * 10 + 4096);
  out.str(lines.join('\n'));
  frameRows(out, rot, clip.rootPositions, clip.frameCount, n, unitScale, ai, aj, ak, ld, ad);
  return out;
}

/** Serialises a retargeted clip as BVH with the rig's bone names (see the file header). */
export function writeRig(rc: RigClip, options: BvhWriteOptions = {}): string {
  return write(rigClipToBvhClip(rc), options);
}

/** `writeRig` as UTF-8 bytes. */
export function writeRigBytes(rc: RigClip, options: BvhWriteOptions = {}): Uint8Array {
  return writeBytes(rigClipToBvhClip(rc), options);
}

/** What `bvhFrames` reads (one object, built in one order). */
interface BvhFrameCtx {
  R: Float32Array;
  T: Float32Array;
  parent: Int32Array;
  needW: Uint8Array;
  needP: Uint8Array;
  keep: Uint8Array;
  bqc: Float64Array;
  bqa: Float64Array;
  tInv: Float64Array;
  order: Int32Array;
  bvhParent: Int32Array;
  B: ArrayLike<number>;
  u: number;
}

/**
 * The per-frame loop of `rigClipToBvhClip`: BVH local rotations of the kept bones and the root position, frames
 * 0..F-1. A module-level function: run whole in optimised code and kept from rig to rig and clip to clip.
 */
function bvhFrames(
  c: BvhFrameCtx,
  F: number,
  nb: number,
  hips: number,
  rotations: Float32Array,
  rootPositions: Float32Array,
): void {
  const { R, T, needW, needP, keep, bqc, bqa, tInv, order, bvhParent, B, u } = c;
  const parent = c.parent;
  const n = order.length;
  const Wr = new Float64Array(4 * nb);
  const Pr = new Float64Array(3 * nb);
  const Dq = new Float64Array(4 * nb);
  const tmp = new Float64Array(4);
  const tmp2 = new Float64Array(4);
  for (let f = 0; f < F; f++) {
    for (let b = 0; b < nb; b++) {
      if (!needW[b]) continue;
      const ro = (f * nb + b) * 4;
      const to = (f * nb + b) * 3;
      const p = parent[b];
      if (!needP[b]) mulQ64(Wr, 4 * b, Wr, 4 * p, R, ro);
      else if (p < 0) {
        Wr[4 * b] = R[ro];
        Wr[4 * b + 1] = R[ro + 1];
        Wr[4 * b + 2] = R[ro + 2];
        Wr[4 * b + 3] = R[ro + 3];
        Pr[3 * b] = T[to];
        Pr[3 * b + 1] = T[to + 1];
        Pr[3 * b + 2] = T[to + 2];
      } else {
        mulQ64(Wr, 4 * b, Wr, 4 * p, R, ro);
        rotateQ64(tmp, Wr, 4 * p, T[to], T[to + 1], T[to + 2]);
        Pr[3 * b] = Pr[3 * p] + tmp[0];
        Pr[3 * b + 1] = Pr[3 * p + 1] + tmp[1];
        Pr[3 * b + 2] = Pr[3 * p + 2] + tmp[2];
      }
      if (!keep[b]) continue;
      mulQ64(tmp, 0, bqc, 0, Wr, 4 * b);
      mulQ64(tmp2, 0, tmp, 0, bqa, 0);
      mulQ64(Dq, 4 * b, tmp2, 0, tInv, 4 * b);
    }
    for (let i = 0; i < n; i++) {
      const b = order[i];
      const p = bvhParent[b];
      const o = (f * n + i) * 4;
      if (p < 0) {
        rotations[o] = Dq[4 * b];
        rotations[o + 1] = Dq[4 * b + 1];
        rotations[o + 2] = Dq[4 * b + 2];
        rotations[o + 3] = Dq[4 * b + 3];
      } else {
        tmp[0] = -Dq[4 * p];
        tmp[1] = -Dq[4 * p + 1];
        tmp[2] = -Dq[4 * p + 2];
        tmp[3] = Dq[4 * p + 3];
        mulQ64(tmp2, 0, tmp, 0, Dq, 4 * b);
        rotations[o] = tmp2[0];
        rotations[o + 1] = tmp2[1];
        rotations[o + 2] = tmp2[2];
        rotations[o + 3] = tmp2[3];
      }
    }
    const hx = Pr[3 * hips];
    const hy = Pr[3 * hips + 1];
    const hz = Pr[3 * hips + 2];
    rootPositions[3 * f] = (B[0] * hx + B[3] * hy + B[6] * hz) / u;
    rootPositions[3 * f + 1] = (B[1] * hx + B[4] * hy + B[7] * hz) / u;
    rootPositions[3 * f + 2] = (B[2] * hx + B[5] * hy + B[8] * hz) / u;
  }
}

/** The MotionClip that `writeRig` serialises: rig names, T-pose offsets (metres, canonical axes), BVH rotations. */
export function rigClipToBvhClip(rc: RigClip): MotionClip {
  const rig = rc.rig;
  const I = rigInternals(rig);
  const bones = rig.bones;
  const nb = bones.length;
  const hips = bones.findIndex((b) => b.name === rig.hipsBone);
  // Bones kept: the hips and its descendants, without IK bones.
  const keep = new Uint8Array(nb);
  keep[hips] = 1;
  for (let b = 0; b < nb; b++) {
    const p = I.parent[b];
    if (p >= 0 && keep[p] && bones[b].role !== 'ik') keep[b] = 1;
  }
  // BVH parent: the rig parent, or for translated bones the bone mapped to the carrier's canonical parent.
  const canonParents = I.canonParents;
  const bySource = new Map<number, number>();
  for (let b = 0; b < nb; b++)
    if (keep[b] && I.source[b] >= 0 && !bySource.has(I.source[b])) bySource.set(I.source[b], b);
  const bvhParent = new Int32Array(nb).fill(-1);
  for (let b = 0; b < nb; b++) {
    if (!keep[b] || b === hips) continue;
    bvhParent[b] = I.parent[b];
    if (rc.translated[b] && I.carrier[b] >= 0) {
      let c = canonParents[I.carrier[b]];
      while (c >= 0 && !bySource.has(c)) c = canonParents[c];
      if (c >= 0) bvhParent[b] = bySource.get(c) as number;
    }
  }
  // Order: depth-first from the hips so parents come first.
  const order: number[] = [];
  const kids: number[][] = bones.map(() => []);
  for (let b = 0; b < nb; b++) if (keep[b] && b !== hips) kids[bvhParent[b]].push(b);
  const visit = (b: number) => {
    order.push(b);
    for (const k of kids[b]) visit(k);
  };
  visit(hips);
  const index = new Int32Array(nb).fill(-1);
  order.forEach((b, i) => {
    index[b] = i;
  });
  const n = order.length;
  // T-pose world positions (canonical, metres) by FK of the T-equivalent local rotations.
  const tPos = I.tPosePositions;
  const offsets = new Float32Array(3 * n);
  order.forEach((b, i) => {
    const p = bvhParent[b];
    if (p < 0) offsets.set([tPos[3 * b], tPos[3 * b + 1], tPos[3 * b + 2]], 3 * i);
    else
      offsets.set(
        [tPos[3 * b] - tPos[3 * p], tPos[3 * b + 1] - tPos[3 * p + 1], tPos[3 * b + 2] - tPos[3 * p + 2]],
        3 * i,
      );
  });
  const restRotations = new Float32Array(4 * n);
  for (let i = 0; i < n; i++) restRotations[4 * i + 3] = 1;
  // Namespaces ("mixamorig:Hips") are dropped: BVH readers such as three.js cannot bind names with ':'.
  const skeleton: Skeleton = {
    names: order.map((b) => bones[b].name.replace(/^[^:]*:/, '')),
    parents: order.map((b) => (bvhParent[b] < 0 ? -1 : index[bvhParent[b]])),
    offsets,
    restRotations,
    tips: new Float32Array(3 * n),
  };
  const F = rc.frameCount;
  const rotations = new Float32Array(F * n * 4);
  const rootPositions = new Float32Array(F * 3);
  const bq = I.basisQuat;
  const B = rig.basis;
  const u = rig.unitsPerMetre;
  // Per frame: rig world rotations (Wr) and positions (Pr), then D = bq⁻¹ · Wr · bq · T⁻¹ (world rotation
  // relative to the T-pose, canonical axes); BVH local = D[parent]⁻¹ · D. Flat arrays, no per-bone allocation.
  const tInv = new Float64Array(4 * nb);
  for (let b = 0; b < nb; b++) {
    tInv[4 * b] = -I.tWorld[4 * b];
    tInv[4 * b + 1] = -I.tWorld[4 * b + 1];
    tInv[4 * b + 2] = -I.tWorld[4 * b + 2];
    tInv[4 * b + 3] = I.tWorld[4 * b + 3];
  }
  const bqc = new Float64Array([-bq[0], -bq[1], -bq[2], bq[3]]);
  const bqa = new Float64Array(bq);
  const R = rc.rotations;
  const T = rc.translations;
  // Only what the BVH reads is computed: world rotations of the kept bones and their rig ancestors, positions
  // along the hips' chain (the root channel), D of the kept bones. IK bones and other positions are skipped.
  const needW = new Uint8Array(nb);
  const needP = new Uint8Array(nb);
  for (let b = 0; b < nb; b++)
    if (keep[b]) for (let a = b; a >= 0 && !needW[a]; a = I.parent[a]) needW[a] = 1;
  for (let a = hips; a >= 0; a = I.parent[a]) needP[a] = 1;
  bvhFrames(
    {
      R,
      T,
      parent: I.parent,
      needW,
      needP,
      keep,
      bqc,
      bqa,
      tInv,
      order: Int32Array.from(order),
      bvhParent,
      B,
      u,
    },
    F,
    nb,
    hips,
    rotations,
    rootPositions,
  );
  return {
    skeleton,
    fps: rc.fps,
    frameCount: F,
    rotations,
    rootPositions,
    metadata: { generator: `@mocap/motion bvh.writeRig (${rig.id})` },
  };
}

// ---------------------------------------------------------------- reader

export interface BvhJoint {
  name: string;
  /** Parent index, -1 for a root. */
  parent: number;
  offset: Vec3;
  /** Channel names in file order, e.g. `['Xposition', ..., 'Zrotation', 'Xrotation', 'Yrotation']`. */
  channels: string[];
  /** Index of this joint's first channel in a frame row. */
  channelOffset: number;
  /** End Site offset, when the joint has one. */
  endSite?: Vec3;
}

export interface BvhDocument {
  joints: BvhJoint[];
  frameCount: number;
  frameTime: number;
  /** Values per frame row. */
  channelCount: number;
  /** Frame rows, `frameCount × channelCount`. */
  motion: Float32Array;
}

/** Parses BVH text. Throws on malformed input, with the line number. */
export function read(text: string): BvhDocument {
  const tokens: { t: string; line: number }[] = [];
  const lines = text.split(/\r?\n/);
  let motionLine = -1;
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*MOTION\s*$/.test(lines[i])) {
      motionLine = i;
      break;
    }
    for (const t of lines[i].trim().split(/\s+/)) if (t) tokens.push({ t, line: i + 1 });
  }
  if (motionLine < 0) throw new Error('BVH: no MOTION section');
  let k = 0;
  const next = (): string => {
    if (k >= tokens.length) throw new Error('BVH: unexpected end of HIERARCHY');
    return tokens[k++].t;
  };
  const expectTok = (s: string) => {
    const line = tokens[k]?.line;
    const t = next();
    if (t.toUpperCase() !== s.toUpperCase()) throw new Error(`BVH line ${line}: expected ${s}, got ${t}`);
  };
  const num = (): number => {
    const line = tokens[k]?.line;
    const v = Number(next());
    if (!Number.isFinite(v)) throw new Error(`BVH line ${line}: expected a number`);
    return v;
  };
  expectTok('HIERARCHY');
  const joints: BvhJoint[] = [];
  let channelCount = 0;
  const parseJoint = (parent: number): void => {
    const name = next();
    expectTok('{');
    const idx = joints.length;
    const joint: BvhJoint = { name, parent, offset: [0, 0, 0], channels: [], channelOffset: channelCount };
    joints.push(joint);
    for (;;) {
      const line = tokens[k]?.line;
      const t = next();
      const u = t.toUpperCase();
      if (u === 'OFFSET') joint.offset = [num(), num(), num()];
      else if (u === 'CHANNELS') {
        const c = num();
        for (let i = 0; i < c; i++) joint.channels.push(next());
        channelCount += c;
      } else if (u === 'JOINT') parseJoint(idx);
      else if (u === 'END') {
        expectTok('Site');
        expectTok('{');
        expectTok('OFFSET');
        joint.endSite = [num(), num(), num()];
        expectTok('}');
      } else if (u === '}') break;
      else throw new Error(`BVH line ${line}: unexpected '${t}'`);
    }
  };
  while (k < tokens.length) {
    const t = next().toUpperCase();
    if (t !== 'ROOT') throw new Error(`BVH: expected ROOT, got ${t}`);
    parseJoint(-1);
  }
  if (joints.length === 0) throw new Error('BVH: no joints');
  let i = motionLine + 1;
  const header = (label: RegExp): string => {
    while (i < lines.length && lines[i].trim() === '') i++;
    const m = label.exec(lines[i] ?? '');
    if (!m) throw new Error(`BVH line ${i + 1}: expected ${label.source}`);
    i++;
    return m[1];
  };
  const frameCount = Number(header(/^\s*Frames:\s*(\d+)/i));
  const frameTime = Number(header(/^\s*Frame Time:\s*([0-9.eE+-]+)/i));
  if (!(frameTime > 0)) throw new Error('BVH: bad Frame Time');
  const motion = new Float32Array(frameCount * channelCount);
  let f = 0;
  for (; i < lines.length && f < frameCount; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    const vals = line.split(/\s+/);
    if (vals.length !== channelCount) {
      throw new Error(`BVH line ${i + 1}: ${vals.length} values, expected ${channelCount}`);
    }
    for (let c = 0; c < channelCount; c++) motion[f * channelCount + c] = Number(vals[c]);
    f++;
  }
  if (f !== frameCount) throw new Error(`BVH: ${f} frame rows, header says ${frameCount}`);
  return { joints, frameCount, frameTime, channelCount, motion };
}

/** Local transform of a joint at a frame: translation (offset, or position channels) and rotation. */
export function jointLocal(doc: BvhDocument, frame: number, j: number): { t: Vec3; q: Quat } {
  const jt = doc.joints[j];
  const row = frame * doc.channelCount + jt.channelOffset;
  const t: Vec3 = [...jt.offset];
  let q: Quat = [0, 0, 0, 1];
  const axis: Record<string, Vec3> = { X: [1, 0, 0], Y: [0, 1, 0], Z: [0, 0, 1] };
  jt.channels.forEach((c, i) => {
    const v = doc.motion[row + i];
    const a = c[0].toUpperCase();
    if (/position$/i.test(c)) t['XYZ'.indexOf(a)] = v;
    else if (/rotation$/i.test(c)) {
      const h = (v * DEG) / 2;
      const s = Math.sin(h);
      const ax = axis[a];
      q = qMul(q, [ax[0] * s, ax[1] * s, ax[2] * s, Math.cos(h)]);
    }
  });
  return { t, q };
}

/** World positions `[3n]` and rotations `[4n]` of every joint at a frame (position channels replace offsets). */
export function bvhWorld(
  doc: BvhDocument,
  frame: number,
): { positions: Float64Array; rotations: Float64Array } {
  const n = doc.joints.length;
  const positions = new Float64Array(3 * n);
  const rotations = new Float64Array(4 * n);
  for (let j = 0; j < n; j++) {
    const { t, q } = jointLocal(doc, frame, j);
    const p = doc.joints[j].parent;
    if (p < 0) {
      positions.set(t, 3 * j);
      writeQuat(rotations, j, q);
    } else {
      const pq = readQuat(rotations, p);
      const o = qRotate(pq, t);
      const pp = readVec3(positions, p);
      positions.set([pp[0] + o[0], pp[1] + o[1], pp[2] + o[2]], 3 * j);
      writeQuat(rotations, j, qMul(pq, q));
    }
  }
  return { positions, rotations };
}

/**
 * A BVH document as a MotionClip (lengths multiplied by `scale`, e.g. 0.01 for centimetres). The document
 * must have one root; position channels on other joints are folded into fixed offsets (their first-frame
 * values), so it is exact for files that only translate the root.
 */
export function toClip(doc: BvhDocument, scale = 0.01): MotionClip {
  const roots = doc.joints.filter((j) => j.parent < 0).length;
  if (roots !== 1) throw new Error(`BVH: ${roots} roots; a MotionClip has one`);
  const n = doc.joints.length;
  const offsets = new Float32Array(3 * n);
  const tips = new Float32Array(3 * n);
  const restRotations = new Float32Array(4 * n);
  doc.joints.forEach((jt, j) => {
    const t = doc.frameCount > 0 ? jointLocal(doc, 0, j).t : jt.offset;
    offsets.set(
      (j === 0 ? jt.offset : t).map((v) => v * scale),
      3 * j,
    );
    if (jt.endSite)
      tips.set(
        jt.endSite.map((v) => v * scale),
        3 * j,
      );
    restRotations[4 * j + 3] = 1;
  });
  const skeleton: Skeleton = {
    names: doc.joints.map((j) => j.name),
    parents: doc.joints.map((j) => j.parent),
    offsets,
    restRotations,
    tips,
  };
  const rotations = new Float32Array(doc.frameCount * n * 4);
  const rootPositions = new Float32Array(doc.frameCount * 3);
  for (let f = 0; f < doc.frameCount; f++) {
    for (let j = 0; j < n; j++) {
      const { t, q } = jointLocal(doc, f, j);
      writeQuat(rotations, f * n + j, q);
      if (j === 0)
        rootPositions.set(
          t.map((v) => v * scale),
          f * 3,
        );
    }
  }
  return {
    skeleton,
    fps: 1 / doc.frameTime,
    frameCount: doc.frameCount,
    rotations,
    rootPositions,
    metadata: { generator: '@mocap/motion bvh.toClip' },
  };
}

/** Euler angles in degrees of a quaternion, for tests and tools. */
export function eulerDegrees(q: Quat, order: EulerOrder = 'ZXY'): [number, number, number] {
  const e = qToEuler(q, order);
  return [e[0] / DEG, e[1] / DEG, e[2] / DEG];
}

/** Quaternion from Euler angles in degrees. */
export function fromEulerDegrees(e: [number, number, number], order: EulerOrder = 'ZXY'): Quat {
  return qFromEuler([e[0] * DEG, e[1] * DEG, e[2] * DEG], order);
}
