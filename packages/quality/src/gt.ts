/**
 * Ground truth of a rendered clip, and the render cache.
 *
 * `gt.json` (format `mocap-quality-gt` v1), per clip:
 * - `joints`: `RECORDED_JOINTS` names; `world[f]`: their positions at frame f, `[J × 3]` flat, metres,
 *   right-handed, Y up, floor at y = 0;
 * - `intrinsics`: pinhole `fx, fy, cx, cy` in pixels (square pixels, principal point at the centre, no
 *   distortion), image `width × height`;
 * - `extrinsics[f]`: `R` (3×3 row-major) and `t` with `p_cam = R · p_world + t`, camera axes x right, y up,
 *   z towards the viewer (the camera looks down −z; OpenGL/three.js convention): a point projects to
 *   `u = cx + fx · x / −z`, `v = cy − fy · y / −z`;
 * - `camera[f]`: the joints in camera space (same axes);
 * - `contacts.left/right[f]`: 0 = foot in the air, 1 = planted on the ankle/heel, 2 = planted on the toe.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jointIndexOf, RECORDED_JOINTS } from './correspondence.ts';
import type { PageSpec, RenderedFrames, Renderer, SetupInfo } from './render.ts';
import { PAGE_DIR } from './server.ts';

export interface GroundTruth {
  format: 'mocap-quality-gt';
  version: 1;
  id: string;
  fps: number;
  frames: number;
  joints: string[];
  world: number[][];
  camera: number[][];
  intrinsics: { fx: number; fy: number; cx: number; cy: number; width: number; height: number };
  extrinsics: { R: number[]; t: number[] }[];
  contacts: { left: number[]; right: number[] };
  setup: SetupInfo;
  spec: PageSpec;
}

/** Rigid transform from a three.js view matrix (column-major 4×4). */
export function viewToExtrinsics(m: ArrayLike<number>): { R: number[]; t: number[] } {
  return {
    R: [m[0], m[4], m[8], m[1], m[5], m[9], m[2], m[6], m[10]],
    t: [m[12], m[13], m[14]],
  };
}

export function applyRt(R: ArrayLike<number>, t: ArrayLike<number>, p: ArrayLike<number>, o = 0): number[] {
  const x = p[o];
  const y = p[o + 1];
  const z = p[o + 2];
  return [
    R[0] * x + R[1] * y + R[2] * z + t[0],
    R[3] * x + R[4] * y + R[5] * z + t[1],
    R[6] * x + R[7] * y + R[8] * z + t[2],
  ];
}

/**
 * Foot contacts from a trajectory (Y up): a foot is planted when its ankle or toe point is within `height`
 * of that point's lowest level in the clip and moves slower than `speed` horizontally (central difference);
 * the value says which point (1 ankle, 2 toe; the lower one when both qualify).
 */
export function footContacts(
  world: number[][],
  fps: number,
  { height = 0.03, speed = 0.3 } = {},
): { left: number[]; right: number[] } {
  const N = world.length;
  const sides = [
    ['leftFoot', 'leftToes'],
    ['rightFoot', 'rightToes'],
  ] as const;
  const out = { left: new Array<number>(N).fill(0), right: new Array<number>(N).fill(0) };
  sides.forEach(([ankle, toe], s) => {
    const pts = [jointIndexOf(ankle), jointIndexOf(toe)];
    const floor = pts.map((j) => Math.min(...world.map((w) => w[j * 3 + 1])));
    for (let f = 0; f < N; f++) {
      const a = Math.max(0, f - 1);
      const b = Math.min(N - 1, f + 1);
      let best = 0;
      let bestH = Number.POSITIVE_INFINITY;
      pts.forEach((j, k) => {
        const h = world[f][j * 3 + 1] - floor[k];
        const v =
          (Math.hypot(world[b][j * 3] - world[a][j * 3], world[b][j * 3 + 2] - world[a][j * 3 + 2]) * fps) /
          Math.max(1, b - a);
        if (h < height && v < speed && h < bestH) {
          best = k + 1;
          bestH = h;
        }
      });
      (s === 0 ? out.left : out.right)[f] = best;
    }
  });
  return out;
}

/** Builds the ground-truth record from the page's output (adds the pelvis: midpoint of the hip joints). */
export function groundTruth(id: string, spec: PageSpec, r: RenderedFrames): GroundTruth {
  const l = jointIndexOf('leftThigh') - 1;
  const rr = jointIndexOf('rightThigh') - 1;
  const world = r.joints.map((j) => {
    const hips = [0, 1, 2].map((k) => (j[l * 3 + k] + j[rr * 3 + k]) / 2);
    return [...hips, ...j];
  });
  const extrinsics = r.views.map(viewToExtrinsics);
  const camera = world.map((w, f) => {
    const out: number[] = [];
    for (let j = 0; j < RECORDED_JOINTS.length; j++)
      out.push(...applyRt(extrinsics[f].R, extrinsics[f].t, w, j * 3));
    return out;
  });
  return {
    format: 'mocap-quality-gt',
    version: 1,
    id,
    fps: spec.fps,
    frames: spec.frames,
    joints: [...RECORDED_JOINTS],
    world,
    camera,
    intrinsics: r.info.intrinsics,
    extrinsics,
    contacts: footContacts(world, spec.fps),
    setup: r.info,
    spec,
  };
}

/** Bump when the node side changes what a render produces (the page's source is hashed anyway). */
const RENDER_VERSION = 1;

/** Cache key of a clip: its spec, the page's script and the renderer version. */
export function renderKey(spec: PageSpec): string {
  const h = createHash('sha256');
  h.update(`${RENDER_VERSION}\n${JSON.stringify(spec)}`);
  h.update(readFileSync(join(PAGE_DIR, 'render.js')));
  return h.digest('hex').slice(0, 16);
}

export interface RenderedClip {
  dir: string;
  video: string;
  gt: GroundTruth;
  cached: boolean;
  renderSeconds: number;
}

/**
 * Renders a clip into `<cacheDir>/<id>/` (video.mp4, frames.json = the page's raw output, gt.json, key) unless a render with the same key is
 * there already. `renderer` is opened lazily by `open` (one Chromium for many clips).
 */
export async function ensureRendered(
  id: string,
  spec: PageSpec,
  cacheDir: string,
  open: () => Promise<Renderer>,
  onProgress?: (done: number, total: number) => void,
): Promise<RenderedClip> {
  const dir = join(cacheDir, id);
  const video = join(dir, 'video.mp4');
  const gtFile = join(dir, 'gt.json');
  const rawFile = join(dir, 'frames.json');
  const keyFile = join(dir, 'key');
  const key = renderKey(spec);
  if (
    existsSync(keyFile) &&
    readFileSync(keyFile, 'utf8') === key &&
    existsSync(video) &&
    statSync(video).size > 0 &&
    existsSync(rawFile)
  ) {
    // The ground truth is re-derived from the page's raw output (cheap), so its code can change freely.
    const gt = groundTruth(id, spec, JSON.parse(readFileSync(rawFile, 'utf8')));
    writeFileSync(gtFile, JSON.stringify(gt));
    return { dir, video, gt, cached: true, renderSeconds: 0 };
  }
  mkdirSync(dir, { recursive: true });
  const t0 = performance.now();
  const renderer = await open();
  const frames = await renderer.render(spec, video, onProgress);
  const gt = groundTruth(id, spec, frames);
  writeFileSync(rawFile, JSON.stringify(frames));
  writeFileSync(gtFile, JSON.stringify(gt));
  writeFileSync(keyFile, key);
  return { dir, video, gt, cached: false, renderSeconds: (performance.now() - t0) / 1000 };
}
