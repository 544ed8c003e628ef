/**
 * CSM (Character Studio Marker) writer: the "CS" bone type.
 *
 * What CS is: the product sells "CS" next to "BIP" (3ds Max Biped). Character Studio is the 3ds Max component that
 * owns Biped, and its documented text interchange format for motion capture is the marker file `.csm`
 * (Biped → Motion Capture → Load Motion Capture File accepts .bvh and .csm; "CSM.rtf" on the 3ds Max disc is its
 * specification, and 3ds Max's reference glossary describes it as an ASCII format of positional markers from which
 * Character Studio extracts limb rotations to pose the biped). No other 3D tool uses "CS" as an export type, so
 * CS = a `.csm` marker file for Biped. Reasoning and sources are also in docs/exporters.md.
 *
 * Layout written (keywords as in the CSM specification):
 * ```
 * $Comments <free text>
 * $Filename <name>.csm
 * $Date M/D/YYYY
 * $Time H:MM:SS AM
 * $Actor 1
 * $FirstFrame 1
 * $LastFrame <n>
 * $Spinelevels 4
 * $Rate <fps>
 * $Order
 * <marker names, tab separated>
 * $Points
 * <frame>\t<x y z per marker> …
 * ```
 * Markers (the Character Studio / Vicon body set): head LFHD RFHD LBHD RBHD; spine C7 T10 CLAV STRN; arms LSHO LELB
 * LWRA LWRB LFIN (and R…); pelvis LFWT RFWT LBWT RBWT; legs LKNE LANK LHEE LTOE LMT5 (and R…). Each marker is a
 * fixed point on a canonical joint's frame (scaled with the skeleton's height), so it moves rigidly with that joint.
 * Coordinates: 3ds Max axes (Z up, the actor facing −Y, right-handed), millimetres; frames numbered from 1.
 *
 * Limits: marker positions only (Biped solves rotations from them; fingers and face are not carried); no
 * DROPOUT entries (every marker is known every frame); one actor.
 */

import type { MotionClip } from '../clip.ts';
import { canonicalWorld } from '../retarget/index.ts';
import { TextSink } from './bytes.ts';

type Vec3 = [number, number, number];

/** Marker: name, canonical joint, point in the joint's frame (metres for a 1.75 m body, canonical axes). */
const MARKERS: readonly [string, string, Vec3][] = [
  ['LFHD', 'head', [0.07, 0.1, 0.08]],
  ['RFHD', 'head', [-0.07, 0.1, 0.08]],
  ['LBHD', 'head', [0.06, 0.08, -0.08]],
  ['RBHD', 'head', [-0.06, 0.08, -0.08]],
  ['C7', 'neck', [0, 0.0, -0.06]],
  ['T10', 'spine1', [0, 0.02, -0.1]],
  ['CLAV', 'spine2', [0, 0.17, 0.06]],
  ['STRN', 'spine1', [0, 0.08, 0.11]],
  ['LSHO', 'leftUpperArm', [0, 0.04, 0]],
  ['LELB', 'leftForearm', [0, 0, -0.04]],
  ['LWRA', 'leftHand', [0, 0, 0.03]],
  ['LWRB', 'leftHand', [0, 0, -0.03]],
  ['LFIN', 'leftHand', [0.08, 0.01, 0]],
  ['RSHO', 'rightUpperArm', [0, 0.04, 0]],
  ['RELB', 'rightForearm', [0, 0, -0.04]],
  ['RWRA', 'rightHand', [0, 0, 0.03]],
  ['RWRB', 'rightHand', [0, 0, -0.03]],
  ['RFIN', 'rightHand', [-0.08, 0.01, 0]],
  ['LFWT', 'hips', [0.11, 0.06, 0.1]],
  ['RFWT', 'hips', [-0.11, 0.06, 0.1]],
  ['LBWT', 'hips', [0.07, 0.08, -0.11]],
  ['RBWT', 'hips', [-0.07, 0.08, -0.11]],
  ['LKNE', 'leftShin', [0.05, 0, 0]],
  ['LANK', 'leftFoot', [0.035, 0, 0]],
  ['LHEE', 'leftFoot', [0, -0.04, -0.06]],
  ['LTOE', 'leftToes', [0, 0, 0.04]],
  ['LMT5', 'leftToes', [0.04, 0, -0.03]],
  ['RKNE', 'rightShin', [-0.05, 0, 0]],
  ['RANK', 'rightFoot', [-0.035, 0, 0]],
  ['RHEE', 'rightFoot', [0, -0.04, -0.06]],
  ['RTOE', 'rightToes', [0, 0, 0.04]],
  ['RMT5', 'rightToes', [-0.04, 0, -0.03]],
];

export const CSM_MARKERS: readonly string[] = MARKERS.map((m) => m[0]);

export interface CsmWriteOptions {
  /** Keep the upper body at rest (spine and above follow the hips only). */
  lowerBodyOnly?: boolean;
  /** Name written in $Filename (default `motion.csm`). */
  fileName?: string;
  /** Date written in $Date/$Time (default 2000-01-01 00:00, so output is reproducible). */
  date?: Date;
}

const UPPER = new Set(['spine']);

/** A copy of the clip whose spine-and-above joints keep their rest rotations. */
function lowerBodyClip(clip: MotionClip): MotionClip {
  const sk = clip.skeleton;
  const n = sk.names.length;
  const upper = new Uint8Array(n);
  sk.names.forEach((nm, j) => {
    const p = sk.parents[j];
    upper[j] = UPPER.has(nm) || (p >= 0 && upper[p]) ? 1 : 0;
  });
  const rotations = clip.rotations.slice();
  for (let f = 0; f < clip.frameCount; f++)
    for (let j = 0; j < n; j++)
      if (upper[j]) rotations.set(sk.restRotations.subarray(4 * j, 4 * j + 4), (f * n + j) * 4);
  return { ...clip, rotations };
}

/** World marker positions `[f][marker][3]` in canonical metres. */
export function markerPositions(clip: MotionClip): Float64Array {
  const sk = clip.skeleton;
  const n = sk.names.length;
  const idx = MARKERS.map(([name, joint]) => {
    const j = sk.names.indexOf(joint);
    if (j < 0) throw new Error(`CSM: marker ${name} needs joint ${joint}, absent from the skeleton`);
    return j;
  });
  const head = sk.names.indexOf('head');
  const height = head >= 0 ? headTopHeight(clip) : 1.75;
  const s = height / 1.75;
  const cw = canonicalWorld(clip);
  const M = MARKERS.length;
  const joint = Int32Array.from(idx);
  // Each marker's offset from its joint, scaled to the body (the same products as before, made once).
  const off = new Float64Array(3 * M);
  for (let m = 0; m < M; m++) {
    const o = MARKERS[m][2];
    off[3 * m] = o[0] * s;
    off[3 * m + 1] = o[1] * s;
    off[3 * m + 2] = o[2] * s;
  }
  const out = new Float64Array(clip.frameCount * M * 3);
  markerFrames(cw.rot, cw.pos, joint, off, n, clip.frameCount, out);
  return out;
}

/**
 * The markers at frames 0..F-1: each joint's world rotation applied to its markers' offsets, plus the joint's
 * position. A module-level function on typed arrays only (V8 keeps its optimised code from clip to clip).
 */
function markerFrames(
  rot: Float64Array,
  pos: Float64Array,
  joint: Int32Array,
  off: Float64Array,
  n: number,
  F: number,
  out: Float64Array,
): void {
  const M = joint.length;
  for (let f = 0; f < F; f++) {
    for (let m = 0; m < M; m++) {
      const j = joint[m];
      const ro = (f * n + j) * 4;
      // rotate(world · restInv, point): canonical rest rotations are the identity.
      const qx = rot[ro];
      const qy = rot[ro + 1];
      const qz = rot[ro + 2];
      const qw = rot[ro + 3];
      const vx = off[3 * m];
      const vy = off[3 * m + 1];
      const vz = off[3 * m + 2];
      const tx = 2 * (qy * vz - qz * vy);
      const ty = 2 * (qz * vx - qx * vz);
      const tz = 2 * (qx * vy - qy * vx);
      const po = (f * n + j) * 3;
      const w = (f * M + m) * 3;
      out[w] = pos[po] + vx + qw * tx + (qy * tz - qz * ty);
      out[w + 1] = pos[po + 1] + vy + qw * ty + (qz * tx - qx * tz);
      out[w + 2] = pos[po + 2] + vz + qw * tz + (qx * ty - qy * tx);
    }
  }
}

function headTopHeight(clip: MotionClip): number {
  if (clip.metadata.height) return clip.metadata.height;
  const sk = clip.skeleton;
  let y = 0;
  let j = sk.names.indexOf('head');
  const tip = sk.tips[3 * j + 1];
  while (j >= 0) {
    y += sk.offsets[3 * j + 1];
    j = sk.parents[j];
  }
  return y + tip;
}

/** Serialises a clip as a Character Studio marker file (see the header). */
export function write(clip: MotionClip, options: CsmWriteOptions = {}): string {
  return build(clip, options).text();
}

/** The same file as UTF-8 bytes (no intermediate string: for zips). */
export function writeBytes(clip: MotionClip, options: CsmWriteOptions = {}): Uint8Array {
  return build(clip, options).bytes();
}

function build(clip: MotionClip, options: CsmWriteOptions): TextSink {
  if (clip.frameCount < 1) throw new Error('CSM: the clip has no frames');
  const c = options.lowerBodyOnly ? lowerBodyClip(clip) : clip;
  const pos = markerPositions(c);
  const d = options.date ?? new Date(2000, 0, 1, 0, 0, 0);
  const h12 = d.getHours() % 12 === 0 ? 12 : d.getHours() % 12;
  const pad = (v: number) => String(v).padStart(2, '0');
  const lines = [
    '$Comments Exported by @mocap/motion (markers from the solved skeleton; millimetres, Z up, facing -Y)',
    `$Filename ${options.fileName ?? 'motion.csm'}`,
    `$Date ${d.getMonth() + 1}/${d.getDate()}/${d.getFullYear()}`,
    `$Time ${h12}:${pad(d.getMinutes())}:${pad(d.getSeconds())} ${d.getHours() < 12 ? 'AM' : 'PM'}`,
    '$Actor 1',
    '$FirstFrame 1',
    `$LastFrame ${clip.frameCount}`,
    '$Spinelevels 4',
    `$Rate ${Math.round(clip.fps * 1000) / 1000}`,
    '$Order',
    CSM_MARKERS.join('\t'),
    '$Points',
    '',
  ];
  const M = MARKERS.length;
  const out = new TextSink(clip.frameCount * (8 + M * 3 * 9) + 4096);
  out.str(lines.join('\n'));
  // One frame's marker coordinates, written as one tab-separated row.
  const row = new Float64Array(3 * M);
  for (let f = 0; f < clip.frameCount; f++) {
    out.str(String(f + 1));
    for (let m = 0; m < M; m++) {
      const o = (f * M + m) * 3;
      // Canonical (Y up, facing +Z, left +X) → 3ds Max (Z up, facing −Y, left +X), metres → millimetres.
      row[3 * m] = pos[o] * 1000;
      row[3 * m + 1] = -pos[o + 2] * 1000;
      row[3 * m + 2] = pos[o + 1] * 1000;
    }
    if (M > 0) out.byte(9).fixedJoined(row, 0, 3 * M, 2, 9);
    out.byte(10);
  }
  return out;
}

/** Parses a CSM file (for tests and tools): marker names, rate and `[f][marker][3]` positions. */
export function read(text: string): {
  markers: string[];
  rate: number;
  frames: number;
  positions: Float64Array;
} {
  const lines = text.split(/\r?\n/);
  let rate = 0;
  let markers: string[] = [];
  let i = 0;
  for (; i < lines.length; i++) {
    const l = lines[i].trim();
    if (l.startsWith('$Rate')) rate = Number(l.split(/\s+/)[1]);
    else if (l === '$Order') markers = lines[++i].trim().split(/\s+/);
    else if (l === '$Points') {
      i++;
      break;
    }
  }
  if (!markers.length) throw new Error('CSM: no $Order section');
  if (!(rate > 0)) throw new Error('CSM: no $Rate');
  const rows = lines.slice(i).filter((l) => l.trim() && !l.startsWith('Frame#'));
  const M = markers.length;
  const positions = new Float64Array(rows.length * M * 3);
  rows.forEach((l, f) => {
    const v = l.trim().split(/\s+/);
    if (v.length !== 1 + 3 * M)
      throw new Error(`CSM: frame row ${f + 1} has ${v.length} values, expected ${1 + 3 * M}`);
    for (let k = 0; k < 3 * M; k++) positions[f * M * 3 + k] = Number(v[k + 1]);
  });
  return { markers, rate, frames: rows.length, positions };
}
