import { describe, expect, it } from 'vitest';
import { poseToWorld, type WorldPose } from '../src/clip.ts';
import { qFromAxisAngle, qMul, readQuat, readVec3, writeQuat, writeVec3 } from '../src/math.ts';
import { DEFAULT_PROPORTIONS } from '../src/skeleton.ts';
import { cameraModel, project } from '../src/solver/camera.ts';
import { NUM_LANDMARKS } from '../src/solver/input.ts';
import { predictLandmarks } from '../src/solver/model.ts';
import { fitToImage } from '../src/solver/reproject.ts';
import { bodyModel, projectLandmarks } from './helpers.ts';

/** Synthetic frames with known answers: a body 4 m in front of a 1280×720 camera, seen from the side. */
describe('fit to the image (reproject.ts)', () => {
  const { model, sk, n, j } = bodyModel();
  const cam = cameraModel(1280, 720, { focalLengthPx: 1100 });
  const N = 6;
  const deg = Math.PI / 180;

  /** The true poses: a side view (hips turned 90°), the left knee bent by 20°..70°, an arm raised. */
  const truthLocal = new Float64Array(N * n * 4);
  const truthRoot = new Float64Array(N * 3);
  for (let f = 0; f < N; f++) {
    for (let k = 0; k < n; k++) writeQuat(truthLocal, f * n + k, [0, 0, 0, 1]);
    writeQuat(truthLocal, f * n + j.hips, qFromAxisAngle([0, 1, 0], 90 * deg));
    writeQuat(truthLocal, f * n + j.leftShin, qFromAxisAngle([1, 0, 0], (20 + 10 * f) * deg));
    writeQuat(truthLocal, f * n + j.leftThigh, qFromAxisAngle([1, 0, 0], -(10 + 5 * f) * deg));
    writeQuat(truthLocal, f * n + j.rightUpperArm, qFromAxisAngle([0, 0, 1], -(30 + 5 * f) * deg));
    writeVec3(truthRoot, f, [0.05 * f, -0.1, -4]);
  }
  const pose: WorldPose = { positions: new Float64Array(n * 3), rotations: new Float64Array(n * 4) };
  const image = new Float64Array(N * NUM_LANDMARKS * 2);
  const weight = new Float64Array(N * NUM_LANDMARKS).fill(1);
  const tracked = new Uint8Array(N).fill(1);
  const pts = new Float64Array(NUM_LANDMARKS * 3);
  const landmarksOf = (local: Float64Array, root: Float64Array, f: number) => {
    poseToWorld(sk, local, f * n * 4, readVec3(root, f), pose);
    return Float64Array.from(predictLandmarks(model, pose, pts));
  };
  for (let f = 0; f < N; f++) {
    const p = landmarksOf(truthLocal, truthRoot, f);
    projectLandmarks(cam, p, image, f);
  }
  const series = { N, image, weight, tracked };
  const pxError = (local: Float64Array, root: Float64Array) => {
    let s = 0;
    let c = 0;
    for (let f = 0; f < N; f++) {
      const p = landmarksOf(local, root, f);
      for (let i = 0; i < NUM_LANDMARKS; i++) {
        const [u, v] = project(cam, [p[i * 3], p[i * 3 + 1], p[i * 3 + 2]]);
        s += Math.hypot(u - image[(f * NUM_LANDMARKS + i) * 2], v - image[(f * NUM_LANDMARKS + i) * 2 + 1]);
        c++;
      }
    }
    return s / c;
  };
  /** A wrong start: the knee straight, the arm down, the hips shifted 8 cm and 30 cm too far. */
  const start = () => {
    const local = Float64Array.from(truthLocal);
    const root = Float64Array.from(truthRoot);
    for (let f = 0; f < N; f++) {
      writeQuat(local, f * n + j.leftShin, [0, 0, 0, 1]);
      writeQuat(local, f * n + j.rightUpperArm, qFromAxisAngle([0, 0, 1], -10 * deg));
      const r = readVec3(root, f);
      writeVec3(root, f, [r[0] + 0.08, r[1], r[2] - 0.3]);
    }
    return { local, root };
  };
  const knee = (local: Float64Array, f: number) => {
    const q = readQuat(local, f * n + j.leftShin);
    return (2 * Math.atan2(q[0], q[3])) / deg;
  };

  it('lands the projected landmarks on the image (error falls from tens of pixels to under 1.5 px)', () => {
    const { local, root } = start();
    const before = pxError(local, root);
    const res = fitToImage(model, cam, series, local, root, 300, { iterations: 8 });
    const after = pxError(local, root);
    expect(before).toBeGreaterThan(15);
    expect(after).toBeLessThan(1.5);
    expect(res.frames).toBe(N);
    expect(res.afterPx).toBeLessThan(res.beforePx / 10);
  });

  it('bends a knee the side view shows bent (within 4°), never past straight', () => {
    const { local, root } = start();
    fitToImage(model, cam, series, local, root, 300, { iterations: 8 });
    for (let f = 0; f < N; f++) {
      expect(Math.abs(knee(local, f) - (20 + 10 * f))).toBeLessThan(4);
      expect(knee(local, f)).toBeGreaterThanOrEqual(0);
      // The image fixes the distance through the body's size: the 30 cm depth error is mostly gone.
      expect(Math.abs(root[f * 3 + 2] - truthRoot[f * 3 + 2])).toBeLessThan(0.12);
    }
  });

  it('keeps the bones rigid (fixed lengths: only rotations and the root move)', () => {
    const { local, root } = start();
    fitToImage(model, cam, series, local, root, 300);
    poseToWorld(sk, local, 0, readVec3(root, 0), pose);
    const thigh = Math.hypot(
      ...([0, 1, 2].map((a) => pose.positions[j.leftShin * 3 + a] - pose.positions[j.leftThigh * 3 + a]) as [
        number,
        number,
        number,
      ]),
    );
    expect(thigh).toBeCloseTo(DEFAULT_PROPORTIONS.thigh, 6);
  });

  it('a frame whose landmarks are not seen keeps its start; a wrong hinge start cannot go negative', () => {
    const { local, root } = start();
    const w = Float64Array.from(weight);
    for (let i = 0; i < NUM_LANDMARKS; i++) w[2 * NUM_LANDMARKS + i] = 0;
    const before = Float64Array.from(local.subarray(2 * n * 4, 3 * n * 4));
    // Hyperextended start on frame 0: the fit brings it back to a real hinge angle.
    writeQuat(local, j.leftShin, qMul(qFromAxisAngle([1, 0, 0], -15 * deg), [0, 0, 0, 1]));
    fitToImage(model, cam, { ...series, weight: w }, local, root, 300);
    expect(Array.from(local.subarray(2 * n * 4, 3 * n * 4))).toEqual(Array.from(before));
    expect(knee(local, 0)).toBeGreaterThan(10);
  });
});

describe('fit to the image with frozen joints (the pass after the floor stage)', () => {
  it('leaves the frozen joints and the root exactly as they were and still lowers the error', () => {
    const { model, n, j } = bodyModel();
    const cam = cameraModel(1280, 720, { focalLengthPx: 1100 });
    const truth = new Float64Array(n * 4);
    for (let k = 0; k < n; k++) writeQuat(truth, k, [0, 0, 0, 1]);
    writeQuat(truth, j.leftUpperArm, qFromAxisAngle([0, 0, 1], -0.6));
    writeQuat(truth, j.leftThigh, qFromAxisAngle([1, 0, 0], -0.3));
    const root = Float64Array.from([0, 0, -4]);
    const pose = poseToWorld(model.skeleton, truth, 0, [0, 0, -4]);
    const p = predictLandmarks(model, pose);
    const image = new Float64Array(NUM_LANDMARKS * 2);
    projectLandmarks(cam, p, image);
    const local = Float64Array.from(truth);
    writeQuat(local, j.leftUpperArm, [0, 0, 0, 1]); // wrong arm: free, fitted
    writeQuat(local, j.leftThigh, [0, 0, 0, 1]); // wrong leg: frozen, kept
    const series = { N: 1, image, weight: new Float64Array(NUM_LANDMARKS).fill(1), tracked: [1] };
    const res = fitToImage(model, cam, series, local, root, 300, {
      frozen: [j.hips, j.leftThigh, j.leftShin, j.leftFoot, j.rightThigh, j.rightShin, j.rightFoot],
      frozenRoot: true,
    });
    expect(Array.from(readQuat(local, j.leftThigh))).toEqual([0, 0, 0, 1]);
    expect(Array.from(root)).toEqual([0, 0, -4]);
    const arm = readQuat(local, j.leftUpperArm);
    expect(Math.abs(2 * Math.acos(Math.min(1, Math.abs(arm[3]))) - 0.6)).toBeLessThan(0.05);
    expect(res.afterPx).toBeLessThan(res.beforePx);
  });
});
