import type { ImageLandmark, Vec3 } from '@mocap/contracts';
import { describe, expect, it } from 'vitest';
import {
  LandmarksFilter,
  OneEuroFilter,
  POSE_AUX_SMOOTHING,
  POSE_LANDMARK_SMOOTHING,
  POSE_WORLD_SMOOTHING,
  PoseSmoother,
} from '../src/pose/smoothing.ts';

describe("MediaPipe's one-euro landmark filter", () => {
  it('passes a sample at time 0 through without starting, starts on the next one (as MediaPipe)', () => {
    const f = new OneEuroFilter(POSE_LANDMARK_SMOOTHING);
    expect(f.apply(100, 0, 1 / 500)).toBe(100);
    // Not started by the sample at 0: the next one passes unchanged and starts the filter.
    expect(f.apply(200, 1 / 30, 1 / 500)).toBe(200);
    const third = f.apply(300, 2 / 30, 1 / 500);
    expect(third).toBeGreaterThan(200);
    expect(third).toBeLessThan(300);
    // A sample not later than the previous one passes unfiltered.
    expect(f.apply(50, 2 / 30, 1 / 500)).toBe(50);
  });

  it('holds a static value and follows a fast move more than a slow one', () => {
    const steps = (config: typeof POSE_LANDMARK_SMOOTHING, jump: number) => {
      const f = new OneEuroFilter(config);
      let out = 0;
      for (let i = 1; i <= 10; i++) out = f.apply(100, i / 30, 1 / 500);
      expect(out).toBe(100);
      return (f.apply(100 + jump, 11 / 30, 1 / 500) - 100) / jump;
    };
    // The fraction of a jump followed at once grows with its speed (relative to the object's size).
    expect(steps(POSE_LANDMARK_SMOOTHING, 50)).toBeGreaterThan(steps(POSE_LANDMARK_SMOOTHING, 2));
    // The region filter (beta 10) follows the same jump less than the landmark filter (beta 80).
    expect(steps(POSE_AUX_SMOOTHING, 20)).toBeLessThan(steps(POSE_LANDMARK_SMOOTHING, 20));
  });

  it('scales image values by the size of the person but not world values', () => {
    const move = (config: typeof POSE_WORLD_SMOOTHING, scale: number) => {
      const f = new LandmarksFilter(config, 1, 1);
      const p = [[0]];
      for (let i = 1; i <= 3; i++) {
        p[0][0] = 0;
        f.apply(p, i / 30, scale);
      }
      p[0][0] = 10;
      f.apply(p, 4 / 30, scale);
      return p[0][0];
    };
    // The same 10 px move on a person 10× larger is relatively slower: smoothed more.
    expect(move(POSE_LANDMARK_SMOOTHING, 1000)).toBeLessThan(move(POSE_LANDMARK_SMOOTHING, 100));
    expect(move(POSE_WORLD_SMOOTHING, 1000)).toBe(move(POSE_WORLD_SMOOTHING, 100));
  });

  it('PoseSmoother returns smoothed copies and leaves the raw pose alone', () => {
    const s = new PoseSmoother();
    const pose = (x: number) => ({
      image: Array.from({ length: 33 }, () => [x, x, 0, 1, 1] as ImageLandmark),
      world: Array.from({ length: 33 }, () => [x / 1000, 0, 0] as Vec3),
      aux: [0, 0, 0, 200] as [number, number, number, number],
    });
    s.apply(pose(100), 1 / 30);
    const raw = pose(160);
    const out = s.apply(raw, 2 / 30);
    expect(raw.image[0][0]).toBe(160);
    expect(out.image[0][0]).toBeGreaterThan(100);
    expect(out.image[0][0]).toBeLessThan(160);
    expect(out.world[0][0]).toBeGreaterThan(0.1);
    expect(out.world[0][0]).toBeLessThan(0.16);
    // Visibility and presence are not touched.
    expect(out.image[0][3]).toBe(1);
  });
});
