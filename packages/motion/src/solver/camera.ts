/**
 * Camera model and root translation from the image.
 *
 * A pinhole camera with the principal point at the image centre and square pixels. The focal length comes
 * from, in order: the `focalLengthPx` or `fovDeg` option, the focal length the video file states
 * (`tracks.video.focalLengthPx`, from a phone's 35 mm-equivalent tag), or the stated guess
 * `DEFAULT_FOV_DEG` = 60° horizontal (between a phone's main camera in landscape, about 65-70°, and a
 * webcam, about 55-65°). A wrong guess mostly rescales depth: the body shape comes from the world
 * landmarks, and distance × focal is what the image fixes.
 *
 * Coordinates: body space / camera space with Y up and Z towards the viewer (see `input.ts`): a point q in
 * front of the camera has q.z < 0 and projects to u = cx + f q.x / -q.z, v = cy + f q.y / q.z.
 */

import type { Vec3 } from '../math.ts';

export const DEFAULT_FOV_DEG = 60;

export interface CameraModel {
  f: number;
  cx: number;
  cy: number;
  width: number;
  height: number;
  horizontalFovDeg: number;
  source: 'metadata' | 'option' | 'fov-guess';
}

export function cameraModel(
  width: number,
  height: number,
  opts: { focalLengthPx?: number; fovDeg?: number; focalFromMetadata?: boolean },
): CameraModel {
  let f: number;
  let source: CameraModel['source'];
  if (opts.focalLengthPx && opts.focalLengthPx > 0) {
    f = opts.focalLengthPx;
    source = opts.focalFromMetadata ? 'metadata' : 'option';
  } else {
    const fov = opts.fovDeg && opts.fovDeg > 1 && opts.fovDeg < 179 ? opts.fovDeg : DEFAULT_FOV_DEG;
    f = width / 2 / Math.tan(((fov / 2) * Math.PI) / 180);
    source = opts.fovDeg ? 'option' : 'fov-guess';
  }
  const horizontalFovDeg = (2 * Math.atan(width / 2 / f) * 180) / Math.PI;
  return { f, cx: width / 2, cy: height / 2, width, height, horizontalFovDeg, source };
}

/** Projects a camera-space point (Y up, Z towards the viewer) to pixels. */
export function project(cam: CameraModel, q: Vec3): [number, number] {
  const depth = -q[2];
  return [cam.cx + (cam.f * q[0]) / depth, cam.cy - (cam.f * q[1]) / depth];
}

/**
 * Camera-space translation T that places body-space points `p` (relative positions, `[M × 3]`) so they
 * project onto the image points `uv` (`[M × 2]`), weighted: weighted linear least squares on the projection
 * equations, reweighted by 1/depth so residuals are in pixels, then with a Huber weight on the pixel error.
 * Returns null when fewer than 3 points carry weight or the result is behind the camera.
 */
export function solveTranslation(
  cam: CameraModel,
  p: ArrayLike<number>,
  uv: ArrayLike<number>,
  weights: ArrayLike<number>,
  M: number,
  initialDepth?: number,
): Vec3 | null {
  let used = 0;
  for (let i = 0; i < M; i++) if (weights[i] > 0.05) used++;
  if (used < 3) return null;
  let T: Vec3 | null = null;
  const rw = new Float64Array(M).fill(1);
  for (let iter = 0; iter < 4; iter++) {
    // Normal equations A^T W A x = A^T W b for x = (Tx, Ty, Tz).
    const ata = new Float64Array(9);
    const atb = new Float64Array(3);
    for (let i = 0; i < M; i++) {
      const wi = weights[i] * rw[i];
      if (!(wi > 0)) continue;
      const px = p[i * 3];
      const py = p[i * 3 + 1];
      const pz = p[i * 3 + 2];
      const du = uv[i * 2] - cam.cx;
      const dv = uv[i * 2 + 1] - cam.cy;
      const depth = T ? Math.max(0.1, -(T[2] + pz)) : (initialDepth ?? 1);
      const s = wi / (depth * depth);
      // u: f Tx + du Tz = -du pz - f px
      const r1: Vec3 = [cam.f, 0, du];
      const b1 = -du * pz - cam.f * px;
      // v: -f Ty + ... from (v - cy) = f (Ty + py) / (Tz + pz):  f Ty - dv Tz = dv pz - f py
      const r2: Vec3 = [0, cam.f, -dv];
      const b2 = dv * pz - cam.f * py;
      for (let a = 0; a < 3; a++) {
        atb[a] += s * (r1[a] * b1 + r2[a] * b2);
        for (let b = 0; b < 3; b++) ata[a * 3 + b] += s * (r1[a] * r1[b] + r2[a] * r2[b]);
      }
    }
    const x = solve3(ata, atb);
    if (!x || !(x[2] < 0)) return T;
    T = x;
    // Huber weights on pixel residuals.
    const res: number[] = [];
    for (let i = 0; i < M; i++) {
      const q: Vec3 = [T[0] + p[i * 3], T[1] + p[i * 3 + 1], T[2] + p[i * 3 + 2]];
      const [u, v] = project(cam, q);
      res.push(Math.hypot(u - uv[i * 2], v - uv[i * 2 + 1]));
    }
    const sorted = res.filter((_, i) => weights[i] > 0.05).sort((a, b) => a - b);
    const med = sorted[sorted.length >> 1] ?? 1;
    const k = Math.max(2, 2.5 * med);
    for (let i = 0; i < M; i++) rw[i] = res[i] > k ? k / res[i] : 1;
  }
  return T;
}

/** Solves a 3×3 linear system (row-major) by Cramer's rule; null when singular. */
export function solve3(a: ArrayLike<number>, b: ArrayLike<number>): Vec3 | null {
  const det =
    a[0] * (a[4] * a[8] - a[5] * a[7]) -
    a[1] * (a[3] * a[8] - a[5] * a[6]) +
    a[2] * (a[3] * a[7] - a[4] * a[6]);
  if (!(Math.abs(det) > 1e-300)) return null;
  const dx =
    b[0] * (a[4] * a[8] - a[5] * a[7]) -
    a[1] * (b[1] * a[8] - a[5] * b[2]) +
    a[2] * (b[1] * a[7] - a[4] * b[2]);
  const dy =
    a[0] * (b[1] * a[8] - a[5] * b[2]) -
    b[0] * (a[3] * a[8] - a[5] * a[6]) +
    a[2] * (a[3] * b[2] - b[1] * a[6]);
  const dz =
    a[0] * (a[4] * b[2] - b[1] * a[7]) -
    a[1] * (a[3] * b[2] - b[1] * a[6]) +
    b[0] * (a[3] * a[7] - a[4] * a[6]);
  return [dx / det, dy / det, dz / det];
}
