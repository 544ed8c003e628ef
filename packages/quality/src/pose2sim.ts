/**
 * The Pose2Sim static trial (`../shared/testdata/gt/pose2sim_static_trial_4view`): one person standing, four
 * calibrated portrait phone cameras, and the 3D keypoints Pose2Sim triangulated from all four views (OpenPose
 * BODY_25B, a multi-view reference, not marker ground truth). Each camera alone goes through the capture path;
 * its solved joints are compared with the triangulated ones by PA-MPJPE (per frame, rigid + scale alignment,
 * so the world frames need not agree). Parsers for the calibration TOML (OpenCV convention) and the TRC file.
 */
import { math } from '@mocap/motion';
import type { Tracks } from '@mocap/vision';
import { jointIndexOf, LANDMARKS_OF, RECORDED_JOINTS, type RecordedJoint } from './correspondence.ts';
import { rawFromTracks, solvedJoints } from './estimates.ts';
import { type Frames, type Intrinsics, jointAt, poseErrors } from './metrics.ts';
import type { SolvedInput } from './solved.ts';

export interface Pose2SimCamera {
  name: string;
  width: number;
  height: number;
  k: Intrinsics;
  /** World → camera (OpenCV): `p_cam = R p_world + t`, R row-major. */
  R: number[];
  t: [number, number, number];
}

/** Rotation matrix (row-major) of a Rodrigues vector. */
export function rodrigues(r: [number, number, number]): number[] {
  const th = Math.hypot(r[0], r[1], r[2]);
  if (th < 1e-12) return [1, 0, 0, 0, 1, 0, 0, 0, 1];
  const [x, y, z] = [r[0] / th, r[1] / th, r[2] / th];
  const c = Math.cos(th);
  const s = Math.sin(th);
  const C = 1 - c;
  return [
    c + x * x * C,
    x * y * C - z * s,
    x * z * C + y * s,
    y * x * C + z * s,
    c + y * y * C,
    y * z * C - x * s,
    z * x * C - y * s,
    z * y * C + x * s,
    c + z * z * C,
  ];
}

/** Cameras of `Calib_qualisys.toml` (name, size, K, R, t). */
export function parseCalibration(toml: string): Pose2SimCamera[] {
  const out: Pose2SimCamera[] = [];
  for (const block of toml.split(/^\[/m).slice(1)) {
    const name = /name\s*=\s*"([^"]+)"/.exec(block)?.[1];
    const size = /size\s*=\s*\[\s*([\d.]+)\s*,\s*([\d.]+)\s*\]/.exec(block);
    const nums = /matrix\s*=\s*\[(.*)\]/
      .exec(block)?.[1]
      .match(/-?[\d.]+(?:e-?\d+)?/g)
      ?.map(Number);
    const vec = (key: string) =>
      new RegExp(`${key}\\s*=\\s*\\[(.*)\\]`)
        .exec(block)?.[1]
        .match(/-?[\d.]+(?:e-?\d+)?/g)
        ?.map(Number);
    const rot = vec('rotation');
    const tr = vec('translation');
    if (!name || !size || !nums || nums.length !== 9 || rot?.length !== 3 || tr?.length !== 3) continue;
    out.push({
      name,
      width: Number(size[1]),
      height: Number(size[2]),
      k: { fx: nums[0], fy: nums[4], cx: nums[2], cy: nums[5] },
      R: rodrigues(rot as [number, number, number]),
      t: tr as [number, number, number],
    });
  }
  return out;
}

/** TRC marker names → recorded joints (the pelvis is the midpoint of the two hips). */
const TRC_OF: Partial<Record<RecordedJoint, string[]>> = {
  hips: ['LHip', 'RHip'],
  leftThigh: ['LHip'],
  rightThigh: ['RHip'],
  leftShin: ['LKnee'],
  rightShin: ['RKnee'],
  leftFoot: ['LAnkle'],
  rightFoot: ['RAnkle'],
  leftUpperArm: ['LShoulder'],
  rightUpperArm: ['RShoulder'],
  leftForearm: ['LElbow'],
  rightForearm: ['RElbow'],
  leftHand: ['LWrist'],
  rightHand: ['RWrist'],
  head: ['Head'],
  leftToes: ['LBigToe'],
  rightToes: ['RBigToe'],
};

/** Frames of a TRC file as recorded joints (metres, the file's world frame). */
export function parseTrc(text: string): Frames {
  const lines = text.split(/\r?\n/);
  const names = lines[3]
    .split('\t')
    .slice(2)
    .filter((s) => s.trim() !== '');
  const col = (m: string) => names.indexOf(m);
  const frames: Frames = [];
  for (const line of lines.slice(5)) {
    const v = line.split('\t').map(Number);
    if (v.length < 2 + names.length * 3 || !Number.isFinite(v[0])) continue;
    const fr = new Float64Array(RECORDED_JOINTS.length * 3);
    RECORDED_JOINTS.forEach((j, ji) => {
      const ms = TRC_OF[j];
      if (!ms) throw new Error(`pose2sim: no marker for ${j}`);
      for (const m of ms) {
        const c = col(m);
        if (c < 0) throw new Error(`pose2sim: TRC has no marker ${m}`);
        for (let a = 0; a < 3; a++) fr[ji * 3 + a] += v[2 + c * 3 + a] / ms.length;
      }
    });
    frames.push(fr);
  }
  return frames;
}

/**
 * A 4-view reference made from the trial's own videos: each BlazePose image landmark triangulated from every
 * calibrated camera that sees it (linear DLT, rows weighted by visibility; the calibration's distortion,
 * |k1|, |k2| < 0.003, is left out), then the recorded joints as for raw rows (`LANDMARKS_OF`). Returns the
 * frames (calibration world, metres) and each camera's median reprojection error (px) of the triangulated
 * landmarks: a check that the calibration fits the videos. Frames seen by fewer than 2 cameras are null.
 */
export function triangulateTrial(
  cams: Pose2SimCamera[],
  tracks: Tracks[],
): { frames: Frames; reprojPx: number[] } {
  const P = cams.map((c) => {
    const { fx, fy, cx, cy } = c.k;
    const K = [fx, 0, cx, 0, fy, cy, 0, 0, 1];
    const Rt = [0, 1, 2].map((r) => [c.R[r * 3], c.R[r * 3 + 1], c.R[r * 3 + 2], c.t[r]]);
    return [0, 1, 2].map((r) =>
      [0, 1, 2, 3].map(
        (col) => K[r * 3] * Rt[0][col] + K[r * 3 + 1] * Rt[1][col] + K[r * 3 + 2] * Rt[2][col],
      ),
    );
  });
  const n = Math.min(...tracks.map((t) => t.frames.length));
  const frames: Frames = [];
  const errs: number[][] = cams.map(() => []);
  for (let f = 0; f < n; f++) {
    const pts: (number[] | null)[] = [];
    for (let lm = 0; lm < 33; lm++) {
      // Normal equations of the weighted DLT rows (4×4).
      const A = new Float64Array(16);
      let views = 0;
      tracks.forEach((t, ci) => {
        const fr = t.frames[f];
        const p = fr?.state !== 'lost' ? fr?.image?.[lm] : undefined;
        if (!p) return;
        const w = Math.max(0.05, p[3]);
        views++;
        for (const row of [
          P[ci][0].map((v, k) => p[0] * P[ci][2][k] - v),
          P[ci][1].map((v, k) => p[1] * P[ci][2][k] - v),
        ])
          for (let a = 0; a < 4; a++) for (let b = 0; b < 4; b++) A[a * 4 + b] += w * row[a] * row[b];
      });
      if (views < 2) {
        pts.push(null);
        continue;
      }
      // The DLT solution: the eigenvector of the smallest eigenvalue (symmetricEigen sorts them descending).
      pts.push(math.symmetricEigen(A, 4).vectors[3]);
    }
    if (pts.some((p) => !p)) {
      frames.push(null);
      continue;
    }
    const X = pts.map((p) => [p![0] / p![3], p![1] / p![3], p![2] / p![3]]);
    tracks.forEach((t, ci) => {
      const img = t.frames[f]?.image;
      if (!img) return;
      X.forEach((x, lm) => {
        const h = [0, 1, 2].map(
          (r) => P[ci][r][0] * x[0] + P[ci][r][1] * x[1] + P[ci][r][2] * x[2] + P[ci][r][3],
        );
        errs[ci].push(Math.hypot(h[0] / h[2] - img[lm][0], h[1] / h[2] - img[lm][1]));
      });
    });
    const fr = new Float64Array(RECORDED_JOINTS.length * 3);
    RECORDED_JOINTS.forEach((j, ji) => {
      const ls = LANDMARKS_OF[j];
      for (const l of ls) for (let a = 0; a < 3; a++) fr[ji * 3 + a] += X[l][a] / ls.length;
    });
    frames.push(fr);
  }
  const med = (v: number[]) => {
    const s = v.slice().sort((a, b) => a - b);
    return s.length ? s[s.length >> 1] : Number.NaN;
  };
  return { frames, reprojPx: errs.map(med) };
}

export interface Pose2SimResult {
  camera: string;
  frames: number;
  /** PA-MPJPE mm against the triangulated 3D: raw BlazePose world landmarks, solved clip. */
  raw: number;
  solved: number;
  perJoint: Record<string, number>;
  /**
   * Consistency of the reference with the videos: mean angle (degrees) of the upper arms from the trunk's
   * downward axis (0 = hanging, 90 = horizontal) in the triangulated reference and in the raw BlazePose world
   * landmarks of this camera. The four videos of the trial show a T-pose (about 90°); if the reference says
   * otherwise, it was triangulated from another recording and PA-MPJPE against it measures that mismatch.
   */
  armFromTrunk: { reference: number; raw: number };
}

/** Mean upper-arm angle from the trunk's downward axis over the frames, degrees. */
export function armFromTrunkDeg(frames: Frames): number {
  const at = (fr: ArrayLike<number>, j: RecordedJoint) => jointAt(fr, jointIndexOf(j));
  const vals: number[] = [];
  for (const fr of frames) {
    if (!fr) continue;
    const down = math.sub(at(fr, 'hips'), math.mid(at(fr, 'leftUpperArm'), at(fr, 'rightUpperArm')));
    for (const side of ['left', 'right'] as const) {
      const arm = math.sub(at(fr, `${side}Forearm`), at(fr, `${side}UpperArm`));
      vals.push((math.angleBetween(arm, down) * 180) / Math.PI);
    }
  }
  return vals.length ? vals.reduce((x, y) => x + y, 0) / vals.length : Number.NaN;
}

/** One camera's tracks and solve against the triangulated reference. */
export function evaluatePose2Sim(
  camera: string,
  tracks: Tracks,
  solved: SolvedInput,
  truth: Frames,
  k: Intrinsics,
): Pose2SimResult {
  const raw = rawFromTracks(tracks, k).camera;
  const sol = solvedJoints(solved.clip);
  const n = Math.min(truth.length, raw.length, sol.length);
  const t = truth.slice(0, n);
  const pr = poseErrors(raw.slice(0, n), t);
  const ps = poseErrors(sol.slice(0, n), t);
  return {
    camera,
    frames: ps.frames,
    raw: pr.paMpjpe,
    solved: ps.paMpjpe,
    perJoint: ps.perJointPa,
    armFromTrunk: { reference: armFromTrunkDeg(t), raw: armFromTrunkDeg(raw.slice(0, n)) },
  };
}
