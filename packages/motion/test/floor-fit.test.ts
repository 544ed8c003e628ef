import { describe, expect, it } from 'vitest';
import { poseToWorld, type WorldPose } from '../src/clip.ts';
import { qFromAxisAngle, readQuat, readVec3, writeQuat } from '../src/math.ts';
import { cameraModel } from '../src/solver/camera.ts';
import { NUM_LANDMARKS } from '../src/solver/input.ts';
import { predictLandmarks } from '../src/solver/model.ts';
import { fitToImage } from '../src/solver/reproject.ts';
import { bodyModel, projectLandmarks } from './helpers.ts';

/**
 * The floor term of the image fit (reproject.ts, option `floor`), on a synthetic frame with a known answer: a
 * person standing straight 4 m in front of a level camera 1.5 m up, feet on the floor. The start is what
 * biased world landmarks give: the left thigh forward and the knee bent, the foot lifted towards the camera,
 * its depths taken as the depth prior. A front view sees that depth poorly, so the image alone leaves part of
 * the bend; the floor takes it out.
 */
describe('fit to the image with the floor', () => {
  const { model, sk, n, j } = bodyModel();
  const deg = Math.PI / 180;
  const cam = cameraModel(1280, 720, { focalLengthPx: 1100 });
  const pose: WorldPose = { positions: new Float64Array(n * 3), rotations: new Float64Array(n * 4) };
  const pts = new Float64Array(NUM_LANDMARKS * 3);
  const truth = new Float64Array(n * 4);
  for (let k = 0; k < n; k++) writeQuat(truth, k, [0, 0, 0, 1]);
  writeQuat(truth, j.leftUpperArm, qFromAxisAngle([0, 0, 1], -75 * deg));
  writeQuat(truth, j.rightUpperArm, qFromAxisAngle([0, 0, 1], 75 * deg));
  // Hips at their standing height above a floor 1.5 m below the camera.
  const hipHeight = readVec3(sk.offsets, j.hips)[1];
  const root = Float64Array.of(0, hipHeight - 1.5, -4);
  const landmarks = (local: Float64Array, r: Float64Array) => {
    poseToWorld(sk, local, 0, readVec3(r, 0), pose);
    return Float64Array.from(predictLandmarks(model, pose, pts));
  };
  const truthPts = landmarks(truth, root);
  const image = new Float64Array(NUM_LANDMARKS * 2);
  projectLandmarks(cam, truthPts, image);
  const series = { N: 1, image, weight: new Float64Array(NUM_LANDMARKS).fill(1), tracked: Uint8Array.of(1) };
  const floorY = Math.min(
    truthPts[29 * 3 + 1],
    truthPts[30 * 3 + 1],
    truthPts[31 * 3 + 1],
    truthPts[32 * 3 + 1],
  );
  const start = () => {
    const local = Float64Array.from(truth);
    writeQuat(local, j.leftThigh, qFromAxisAngle([1, 0, 0], -30 * deg));
    writeQuat(local, j.leftShin, qFromAxisAngle([1, 0, 0], 35 * deg));
    return local;
  };
  const knee = (local: Float64Array) => {
    const q = readQuat(local, j.leftShin);
    return (2 * Math.atan2(Math.hypot(q[0], q[1], q[2]), q[3])) / deg;
  };
  const lowestLeft = (local: Float64Array, r: Float64Array) => {
    const p = landmarks(local, r);
    return Math.min(p[29 * 3 + 1], p[31 * 3 + 1]) - floorY;
  };

  /** The pose and root fitted from the start with `options` (300 iterations). */
  const fitted = (options: Parameters<typeof fitToImage>[6]) => {
    const pose = start();
    const r = Float64Array.from(root);
    fitToImage(model, cam, series, pose, r, 300, options);
    return [pose, r] as const;
  };

  it('holds a foot in contact on the floor and lessens the knee bend the image could not see', () => {
    const [a, ra] = fitted({});
    const [b, rb] = fitted({
      floor: {
        up: [0, 1, 0],
        origin: [0, floorY, 0],
        frames: Uint8Array.of(1),
        feet: [Uint8Array.of(1), Uint8Array.of(1)],
        sigma: 0.02,
      },
    });
    // Without the floor the left foot stays lifted and the knee bent.
    expect(lowestLeft(a, ra)).toBeGreaterThan(0.04);
    expect(knee(a)).toBeGreaterThan(15);
    // With it, the foot comes down (from 5+ cm to within 3 cm: the depth prior still holds a little) and
    // the bend lessens.
    expect(Math.abs(lowestLeft(b, rb))).toBeLessThan(0.03);
    expect(knee(b)).toBeLessThan(knee(a) - 5); // measured 36° → 29° (truth 0°: the depth prior keeps the rest)
  });

  it('with only the lowest sole point held, the other foot may stay up; frames in the air are left alone', () => {
    const [c, rc] = fitted({
      floor: { up: [0, 1, 0], origin: [0, floorY, 0], frames: Uint8Array.of(1), sigma: 0.02 },
    });
    const p = landmarks(c, rc);
    const lowest = Math.min(...[29, 30, 31, 32].map((i) => p[i * 3 + 1])) - floorY;
    expect(Math.abs(lowest)).toBeLessThan(0.01);
    const [a, ra] = fitted({});
    const [b, rb] = fitted({
      floor: { up: [0, 1, 0], origin: [0, floorY, 0], frames: Uint8Array.of(0), sigma: 0.02 },
    });
    expect(Array.from(b)).toEqual(Array.from(a));
    expect(Array.from(rb)).toEqual(Array.from(ra));
  });
});
