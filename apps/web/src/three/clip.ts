/**
 * The solved clip as the viewer needs it, read from `mocap-motion` v1 JSON (packages/motion formats/json.ts):
 * joints with parent, offset and tip; per frame the root position and local rotations (absolute, canonical
 * skeleton with identity rest rotations; right-handed, Y up, metres, facing +Z). Pure, no three.js.
 */

export interface ViewerClip {
  fps: number;
  frameCount: number;
  names: string[];
  parents: number[];
  offsets: Float32Array;
  tips: Float32Array;
  /** frameCount × joints × 4 */
  rotations: Float32Array;
  /** frameCount × 3 */
  rootPositions: Float32Array;
  /** Per frame, the height of the raised ground under the feet (a box, a stage), when the solve found one. */
  support?: Float32Array;
  duration: number;
}

type Rec = Record<string, unknown>;

export function parseClip(doc: unknown): ViewerClip {
  const d = (typeof doc === 'string' ? JSON.parse(doc) : doc) as Rec;
  if (d?.format !== 'mocap-motion') throw new Error('not a mocap-motion clip');
  const joints = d.joints as { name: string; parent: string | null; offset: number[]; tip?: number[] }[];
  const frames = d.frames as { rootPosition: number[]; rotations: number[]; support?: number }[];
  const fps = Number(d.fps);
  if (!Array.isArray(joints) || !Array.isArray(frames) || !(fps > 0)) throw new Error('malformed clip');
  const names = joints.map((j) => j.name);
  const n = names.length;
  const rotations = new Float32Array(frames.length * n * 4);
  const rootPositions = new Float32Array(frames.length * 3);
  frames.forEach((fr, f) => {
    rotations.set(fr.rotations.slice(0, n * 4), f * n * 4);
    rootPositions.set(fr.rootPosition.slice(0, 3), f * 3);
  });
  return {
    fps,
    frameCount: frames.length,
    names,
    parents: joints.map((j) => (j.parent === null ? -1 : names.indexOf(j.parent))),
    offsets: Float32Array.from(joints.flatMap((j) => j.offset)),
    tips: Float32Array.from(joints.flatMap((j) => j.tip ?? [0, 0, 0])),
    rotations,
    rootPositions,
    ...(frames.length && frames.every((fr) => typeof fr.support === 'number')
      ? { support: Float32Array.from(frames, (fr) => fr.support as number) }
      : {}),
    duration: frames.length / fps,
  };
}

/** A block of raised ground to draw under the character: its top height and its extent on the floor. */
export interface Platform {
  height: number;
  x0: number;
  x1: number;
  z0: number;
  z1: number;
}

/**
 * The raised ground of a clip (`support`) as blocks: one per stretch of frames on the same level above the
 * floor, covering where the hips went during it, with `margin` metres around.
 */
export function supportPlatforms(clip: ViewerClip, margin = 0.45): Platform[] {
  const s = clip.support;
  if (!s) return [];
  const out: Platform[] = [];
  let f = 0;
  while (f < clip.frameCount) {
    const h = s[f];
    let g = f;
    while (g + 1 < clip.frameCount && Math.abs(s[g + 1] - h) < 1e-3) g++;
    if (h > 0.02) {
      let x0 = Number.POSITIVE_INFINITY;
      let x1 = Number.NEGATIVE_INFINITY;
      let z0 = Number.POSITIVE_INFINITY;
      let z1 = Number.NEGATIVE_INFINITY;
      for (let k = f; k <= g; k++) {
        x0 = Math.min(x0, clip.rootPositions[k * 3]);
        x1 = Math.max(x1, clip.rootPositions[k * 3]);
        z0 = Math.min(z0, clip.rootPositions[k * 3 + 2]);
        z1 = Math.max(z1, clip.rootPositions[k * 3 + 2]);
      }
      out.push({ height: h, x0: x0 - margin, x1: x1 + margin, z0: z0 - margin, z1: z1 + margin });
    }
    f = g + 1;
  }
  return out;
}

/** Frame index and blend factor for a time (clamped to the clip). */
export function frameAt(clip: ViewerClip, time: number): { f0: number; f1: number; a: number } {
  if (clip.frameCount <= 1) return { f0: 0, f1: 0, a: 0 };
  const x = Math.max(0, Math.min(clip.frameCount - 1, time * clip.fps));
  const f0 = Math.floor(x);
  const f1 = Math.min(clip.frameCount - 1, f0 + 1);
  return { f0, f1, a: x - f0 };
}

/** Spherical interpolation of the local rotation of joint j at a time, written into out[0..3]. */
export function sampleRotation(clip: ViewerClip, j: number, time: number, out: number[]): number[] {
  const n = clip.names.length;
  const { f0, f1, a } = frameAt(clip, time);
  const i0 = (f0 * n + j) * 4;
  const i1 = (f1 * n + j) * 4;
  const r = clip.rotations;
  let [bx, by, bz, bw] = [r[i1], r[i1 + 1], r[i1 + 2], r[i1 + 3]];
  const ax = r[i0];
  const ay = r[i0 + 1];
  const az = r[i0 + 2];
  const aw = r[i0 + 3];
  let dot = ax * bx + ay * by + az * bz + aw * bw;
  if (dot < 0) {
    bx = -bx;
    by = -by;
    bz = -bz;
    bw = -bw;
    dot = -dot;
  }
  let s0 = 1 - a;
  let s1 = a;
  if (dot < 0.9995) {
    const th = Math.acos(Math.min(1, dot));
    const sn = Math.sin(th);
    s0 = Math.sin((1 - a) * th) / sn;
    s1 = Math.sin(a * th) / sn;
  }
  const x = s0 * ax + s1 * bx;
  const y = s0 * ay + s1 * by;
  const z = s0 * az + s1 * bz;
  const w = s0 * aw + s1 * bw;
  const l = Math.hypot(x, y, z, w) || 1;
  out[0] = x / l;
  out[1] = y / l;
  out[2] = z / l;
  out[3] = w / l;
  return out;
}

export function sampleRoot(clip: ViewerClip, time: number, out: number[]): number[] {
  const { f0, f1, a } = frameAt(clip, time);
  for (let k = 0; k < 3; k++)
    out[k] = clip.rootPositions[f0 * 3 + k] * (1 - a) + clip.rootPositions[f1 * 3 + k] * a;
  return out;
}
