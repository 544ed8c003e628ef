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
  type Vec3,
  writeQuat,
} from '../math.ts';

export interface BvhWriteOptions {
  /** Length unit of offsets and root positions (default `'cm'`). */
  unit?: 'cm' | 'm';
  /** Rotation channel order of every joint (default `'ZXY'`). */
  rotationOrder?: EulerOrder;
  /** Decimals for angles (default 4) and lengths (default 4). */
  angleDecimals?: number;
  lengthDecimals?: number;
}

const fmt = (x: number, d: number): string => {
  const s = x.toFixed(d);
  // Avoid "-0.0000".
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
};

/** Serialises a clip as BVH text (see the file header for the conventions). */
export function write(clip: MotionClip, options: BvhWriteOptions = {}): string {
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
  lines.push('MOTION', `Frames: ${clip.frameCount}`, `Frame Time: ${(1 / clip.fps).toFixed(10)}`);
  // Euler angles per joint, unwrapped against the previous frame.
  const prev: [number, number, number][] = sk.names.map(() => [0, 0, 0]);
  const row: string[] = [];
  for (let f = 0; f < clip.frameCount; f++) {
    row.length = 0;
    const rp = readVec3(clip.rootPositions, f);
    for (const v of rp) row.push(fmt(v * unitScale, ld));
    for (let j = 0; j < n; j++) {
      const q = readQuat(clip.rotations, f * n + j);
      let e = qToEuler(q, order);
      if (f > 0) e = unwrapEuler(e, prev[j]);
      prev[j] = e;
      for (const a of e) row.push(fmt(a / DEG, ad));
    }
    lines.push(row.join(' '));
  }
  return `${lines.join('\n')}\n`;
}

const wrapPi = (a: number): number => a - 2 * Math.PI * Math.round(a / (2 * Math.PI));

/** Of the two Euler triples that give the same rotation, the one nearest `prev` (each angle unwrapped). */
function unwrapEuler(e: [number, number, number], prev: [number, number, number]): [number, number, number] {
  const near = (a: number, p: number) => p + wrapPi(a - p);
  const a: [number, number, number] = [near(e[0], prev[0]), near(e[1], prev[1]), near(e[2], prev[2])];
  // Equivalent solution: (a0 + π, π - a1, a2 + π).
  const b: [number, number, number] = [
    near(e[0] + Math.PI, prev[0]),
    near(Math.PI - e[1], prev[1]),
    near(e[2] + Math.PI, prev[2]),
  ];
  const d = (x: [number, number, number]) =>
    Math.abs(x[0] - prev[0]) + Math.abs(x[1] - prev[1]) + Math.abs(x[2] - prev[2]);
  return d(b) < d(a) ? b : a;
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
