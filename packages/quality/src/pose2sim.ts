/**
 * The Pose2Sim static trial (`../shared/testdata/gt/pose2sim_static_trial_4view`): one person standing, four
 * calibrated portrait phone cameras, and the 3D keypoints Pose2Sim triangulated from all four views (OpenPose
 * BODY_25B, a multi-view reference, not marker ground truth). Each camera alone goes through the capture path;
 * its solved joints are compared with the triangulated ones by PA-MPJPE (per frame, rigid + scale alignment,
 * so the world frames need not agree). Parsers for the calibration TOML (OpenCV convention) and the TRC file.
 */
import type { Tracks } from '@mocap/vision';
import { RECORDED_JOINTS, type RecordedJoint } from './correspondence.ts';
import { rawFromTracks, solvedJoints } from './estimates.ts';
import { type Frames, type Intrinsics, poseErrors } from './metrics.ts';
import type { SolvedInput } from './solved.ts';

export interface Pose2SimCamera {
  name: string;
  width: number;
  height: number;
  k: Intrinsics;
}

/** Cameras of `Calib_qualisys.toml` (name, size, K). */
export function parseCalibration(toml: string): Pose2SimCamera[] {
  const out: Pose2SimCamera[] = [];
  for (const block of toml.split(/^\[/m).slice(1)) {
    const name = /name\s*=\s*"([^"]+)"/.exec(block)?.[1];
    const size = /size\s*=\s*\[\s*([\d.]+)\s*,\s*([\d.]+)\s*\]/.exec(block);
    const nums = /matrix\s*=\s*\[(.*)\]/
      .exec(block)?.[1]
      .match(/-?[\d.]+(?:e-?\d+)?/g)
      ?.map(Number);
    if (!name || !size || !nums || nums.length !== 9) continue;
    out.push({
      name,
      width: Number(size[1]),
      height: Number(size[2]),
      k: { fx: nums[0], fy: nums[4], cx: nums[2], cy: nums[5] },
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
  const at = (fr: ArrayLike<number>, j: RecordedJoint): number[] => {
    const i = RECORDED_JOINTS.indexOf(j) * 3;
    return [fr[i], fr[i + 1], fr[i + 2]];
  };
  const sub = (a: number[], b: number[]) => a.map((v, i) => v - b[i]);
  const angle = (a: number[], b: number[]) => {
    const d = a.reduce((s, v, i) => s + v * b[i], 0) / (Math.hypot(...a) * Math.hypot(...b));
    return (Math.acos(Math.max(-1, Math.min(1, d))) * 180) / Math.PI;
  };
  const vals: number[] = [];
  for (const fr of frames) {
    if (!fr) continue;
    const sh = at(fr, 'leftUpperArm').map((v, i) => (v + at(fr, 'rightUpperArm')[i]) / 2);
    const down = sub(at(fr, 'hips'), sh);
    vals.push(angle(sub(at(fr, 'leftForearm'), at(fr, 'leftUpperArm')), down));
    vals.push(angle(sub(at(fr, 'rightForearm'), at(fr, 'rightUpperArm')), down));
  }
  return vals.length ? vals.reduce((a, b) => a + b, 0) / vals.length : Number.NaN;
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
