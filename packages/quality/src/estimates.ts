/**
 * The two rows every clip is reported with, as joint sequences (`RECORDED_JOINTS`, metres):
 *
 * - **raw**: BlazePose's world landmarks as the tracker emits them (hip-centred, camera axes), no solver.
 *   They carry no global position, so each frame is placed in camera space by the translation that best
 *   reprojects them onto the same frame's image landmarks (weighted linear least squares with the
 *   camera's focal length, visibility weights): the minimum needed to compare trajectories, feet and
 *   reprojection at all. No smoothing, no skeleton, no floor.
 * - **solved**: `solve` from `@mocap/motion`, the canonical skeleton's joints by forward kinematics.
 *
 * Camera-space convention here: x right, y up, z towards the viewer (the camera looks down −z).
 */
import { forwardKinematics, type MotionClip, math, type Vec3 } from '@mocap/motion';
import type { Tracks } from '@mocap/vision';
import { CANONICAL_OF, LANDMARKS_OF, RECORDED_JOINTS } from './correspondence.ts';
import { type Frames, type Intrinsics, jointAt, procrustes } from './metrics.ts';

const J = RECORDED_JOINTS.length;

/**
 * Translation T (camera space) putting the relative points `p` where they project onto `uv`: for each point,
 * `u − cx = fx (x + Tx) / −(z + Tz)` and likewise for v, linear in T; rows are weighted by `w / depth`
 * (pixel residuals), depth refined over a few iterations. Null with fewer than 3 weighted points.
 */
export function fitTranslation(k: Intrinsics, p: Vec3[], uv: [number, number][], w: number[]): Vec3 | null {
  if (w.filter((x) => x > 0.05).length < 3) return null;
  let T: Vec3 | null = null;
  for (let iter = 0; iter < 4; iter++) {
    const A = new Float64Array(9);
    const b = new Float64Array(3);
    for (let i = 0; i < p.length; i++) {
      if (!(w[i] > 0.05)) continue;
      const du = uv[i][0] - k.cx;
      const dv = k.cy - uv[i][1];
      const depth = T ? Math.max(0.1, -(T[2] + p[i][2])) : 3;
      const s = w[i] / (depth * depth);
      // fx Tx + du Tz = −du pz − fx px ;  fy Ty + dv Tz = −dv pz − fy py
      const rows: [number[], number][] = [
        [[k.fx, 0, du], -du * p[i][2] - k.fx * p[i][0]],
        [[0, k.fy, dv], -dv * p[i][2] - k.fy * p[i][1]],
      ];
      for (const [r, rhs] of rows) {
        for (let a = 0; a < 3; a++) {
          b[a] += s * r[a] * rhs;
          for (let c = 0; c < 3; c++) A[a * 3 + c] += s * r[a] * r[c];
        }
      }
    }
    const x = math.solveSPD(A, b, 3);
    if (!x || !(x[2] < 0)) return T;
    T = [x[0], x[1], x[2]];
  }
  return T;
}

export interface RawEstimate {
  /** Camera-space joints per frame (null: no body tracked). */
  camera: Frames;
  /** Image positions (pixels) of the same joints per frame, `[J × 2]`, from the image landmarks. */
  image: (number[] | null)[];
}

/** Raw BlazePose joints in camera space (see the header). */
export function rawFromTracks(tracks: Tracks, k: Intrinsics): RawEstimate {
  const camera: Frames = [];
  const image: (number[] | null)[] = [];
  for (const fr of tracks.frames) {
    if (fr.state !== 'tracked' || !fr.world || !fr.image) {
      camera.push(null);
      image.push(null);
      continue;
    }
    const rel: Vec3[] = fr.world.map((q) => [q[0], -q[1], -q[2]]);
    const uv = fr.image.map((q) => [q[0], q[1]] as [number, number]);
    const w = fr.image.map((q) => q[3]);
    const T = fitTranslation(k, rel, uv, w);
    if (!T) {
      camera.push(null);
      image.push(null);
      continue;
    }
    const out = new Float64Array(J * 3);
    const im: number[] = [];
    RECORDED_JOINTS.forEach((name, j) => {
      const ids = LANDMARKS_OF[name];
      let p: Vec3 = [0, 0, 0];
      let u = 0;
      let v = 0;
      for (const i of ids) {
        p = math.addScaled(p, math.add(rel[i], T), 1 / ids.length);
        u += uv[i][0] / ids.length;
        v += uv[i][1] / ids.length;
      }
      math.writeVec3(out, j, p);
      im.push(u, v);
    });
    camera.push(out);
    image.push(im);
  }
  return { camera, image };
}

/** The solved clip's joints in its own world frame (Y up, floor at 0). */
export function solvedJoints(clip: MotionClip): Frames {
  const n = clip.skeleton.names.length;
  const idx = RECORDED_JOINTS.map((name) =>
    CANONICAL_OF[name].map((c) => {
      const i = clip.skeleton.names.indexOf(c);
      if (i < 0) throw new Error(`solved clip has no joint ${c}`);
      return i;
    }),
  );
  const { positions } = forwardKinematics(clip);
  const out: Frames = [];
  for (let f = 0; f < clip.frameCount; f++) {
    const fr = new Float64Array(J * 3);
    idx.forEach((ids, j) => {
      let p: Vec3 = [0, 0, 0];
      for (const i of ids) p = math.addScaled(p, math.readVec3(positions, f * n + i), 1 / ids.length);
      math.writeVec3(fr, j, p);
    });
    out.push(fr);
  }
  return out;
}

/**
 * The solved joints in camera space, for their reprojection error: the solver's world frame is the camera
 * frame tilted to gravity and moved to the floor, so one rotation (fitted between the solved and the raw
 * pelvis-centred poses over the clip) and one translation (pelvis onto the solver's own camera-space root
 * track, `rootCamera`) bring them back.
 */
export function solvedToCamera(
  world: Frames,
  raw: Frames,
  rootCamera: ArrayLike<number>,
  exact?: { rotation: math.Quat; translation: Vec3 },
): Frames {
  // The solver's own world → camera transform when it has one: no fitting needed.
  const { rotation, translation } = exact ?? fitWorldToCamera(world, raw, rootCamera);
  return world.map((w) => {
    if (!w) return null;
    const out = new Float64Array(J * 3);
    for (let j = 0; j < J; j++)
      math.writeVec3(out, j, math.add(math.qRotate(rotation, jointAt(w, j)), translation));
    return out;
  });
}

/**
 * The world → camera transform `solvedToCamera` fits when the solver gives none: the rotation between the
 * solved and the raw pelvis-centred poses over the clip, and the mean offset of the rotated pelvis from the
 * solver's camera-space root track (`rootCamera`).
 */
export function fitWorldToCamera(
  world: Frames,
  raw: Frames,
  rootCamera: ArrayLike<number>,
): { rotation: math.Quat; translation: Vec3 } {
  const a: Vec3[] = [];
  const b: Vec3[] = [];
  for (let f = 0; f < Math.min(world.length, raw.length); f++) {
    const w = world[f];
    const r = raw[f];
    if (!w || !r) continue;
    const pw = jointAt(w, 0);
    const pr = jointAt(r, 0);
    for (let j = 1; j < J; j++) {
      a.push(math.sub(jointAt(w, j), pw));
      b.push(math.sub(jointAt(r, j), pr));
    }
  }
  const q = procrustes(a, b, false).q;
  let t: Vec3 = [0, 0, 0];
  let n = 0;
  world.forEach((w, f) => {
    if (!w || f * 3 + 2 >= rootCamera.length) return;
    t = math.add(t, math.sub(math.readVec3(rootCamera, f), math.qRotate(q, jointAt(w, 0))));
    n++;
  });
  return { rotation: q, translation: math.scale(t, 1 / Math.max(1, n)) };
}

/** Camera-space frames → world frames with per-frame extrinsics (`p_cam = R p_world + t`). */
export function cameraToWorld(frames: Frames, extrinsics: { R: number[]; t: number[] }[]): Frames {
  return frames.map((fr, f) => {
    if (!fr) return null;
    const { R, t } = extrinsics[f];
    const out = new Float64Array(J * 3);
    for (let j = 0; j < J; j++) {
      const d = math.sub(jointAt(fr, j), t as Vec3);
      // Rᵀ d
      math.writeVec3(out, j, [
        R[0] * d[0] + R[3] * d[1] + R[6] * d[2],
        R[1] * d[0] + R[4] * d[1] + R[7] * d[2],
        R[2] * d[0] + R[5] * d[1] + R[8] * d[2],
      ]);
    }
    return out;
  });
}
