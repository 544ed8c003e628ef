import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImageLandmark, Vec3 } from '@mocap/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectPeople } from '../src/pose/detector.ts';
import { estimatePose, POSE_OUTPUTS } from '../src/pose/landmarks.ts';
import { PoseSmoother } from '../src/pose/smoothing.ts';
import { BodyTracker } from '../src/pose/tracker.ts';
import { createSession, type ModelSession } from '../src/runtime/index.ts';
import { decodeFrames, decodeImage, probeVideo } from '../src/video/index.ts';
import { POSE_JPG, TESTDATA_DIR } from './fixtures/video-fixtures.ts';

const REF = join(TESTDATA_DIR, 'gt/tfjs_blazepose_movenet_reference');

/** MediaPipe's expected BlazePose landmarks on pose.jpg (mediapipe pose_test.py, as used by tfjs-models). */
const EXPECTED_POSE_JPG = [
  [460, 283],
  [467, 273],
  [471, 273],
  [474, 273],
  [465, 273],
  [465, 273],
  [466, 273],
  [491, 277],
  [480, 277],
  [470, 294],
  [465, 294],
  [545, 319],
  [453, 329],
  [622, 323],
  [375, 316],
  [696, 316],
  [299, 307],
  [719, 316],
  [278, 306],
  [721, 311],
  [274, 304],
  [713, 313],
  [283, 306],
  [520, 476],
  [467, 471],
  [612, 550],
  [358, 490],
  [701, 613],
  [349, 611],
  [709, 624],
  [363, 630],
  [730, 633],
  [303, 628],
];

describe('BlazePose decoding matches MediaPipe', () => {
  it('pose.jpg, full model: image landmarks within 5 px mean of the expected values', async () => {
    const image = await decodeImage(POSE_JPG);
    const detector = await createSession('blazepose-detector');
    const full = await createSession('blazepose-full', { outputs: POSE_OUTPUTS });
    const detections = await detectPeople(detector, image);
    expect(detections.length).toBe(1);
    const pose = await estimatePose(full, image, detections[0].roi);
    expect(pose.flag).toBeGreaterThan(0.9);
    const errors = pose.image.map((p, k) =>
      Math.hypot(p[0] - EXPECTED_POSE_JPG[k][0], p[1] - EXPECTED_POSE_JPG[k][1]),
    );
    const mean = errors.reduce((a, b) => a + b, 0) / errors.length;
    expect(mean).toBeLessThan(5);
    expect(Math.max(...errors)).toBeLessThan(15);
    await Promise.all([detector.dispose(), full.dispose()]);
  });

  describe('pose_squats.mp4 against the MediaPipe full-model goldens', () => {
    // tfjs-models' own tests compare element-wise max abs error with these goldens: 28 px / 0.19 m for its
    // tfjs port (the implementation ours follows), 31 px / 0.24 m for the MediaPipe runtime. We assert the
    // stricter pair on every frame, landmark and coordinate.
    const MAX_2D_PX = 28;
    const MAX_3D_M = 0.19;
    let golden2d: number[][][];
    let golden3d: number[][][];
    let states: string[];
    let raw: { image: ImageLandmark[]; world: Vec3[] }[];
    let smoothed: { image: ImageLandmark[]; world: Vec3[] }[];
    const sessions: ModelSession[] = [];
    beforeAll(async () => {
      golden2d = JSON.parse(await readFile(join(REF, 'pose_squats.full.json'), 'utf8'));
      golden3d = JSON.parse(await readFile(join(REF, 'pose_squats_3d.full.json'), 'utf8'));
      const info = await probeVideo(join(REF, 'pose_squats.mp4'));
      const detector = await createSession('blazepose-detector');
      const full = await createSession('blazepose-full', { outputs: POSE_OUTPUTS });
      sessions.push(detector, full);
      const body = new BodyTracker(detector, full);
      // MediaPipe's goldens are smoothed by its landmark filters: compare like for like.
      const smoother = new PoseSmoother();
      states = [];
      raw = [];
      smoothed = [];
      for await (const f of decodeFrames(info)) {
        // The reference run fed the 5 fps clip with 30 fps timestamps; we do the same.
        const time = f.index / 30;
        const r = await body.process(f, f.index, time);
        states.push(r.state);
        if (!r.pose) continue;
        raw.push(r.pose);
        smoothed.push(smoother.apply(r.pose, time));
      }
    });
    afterAll(() => Promise.all(sessions.map((s) => s.dispose())));

    const maxAbs = (frames: number[][][], golden: number[][][], dims: number) => {
      let worst = 0;
      frames.forEach((f, i) => {
        f.forEach((p, k) => {
          for (let c = 0; c < dims; c++) worst = Math.max(worst, Math.abs(p[c] - golden[i][k][c]));
        });
      });
      return worst;
    };
    const meanDistance = (frames: number[][][], golden: number[][][], dims: number) => {
      let sum = 0;
      frames.forEach((f, i) => {
        f.forEach((p, k) => {
          sum += Math.hypot(...Array.from({ length: dims }, (_, c) => p[c] - golden[i][k][c]));
        });
      });
      return sum / (frames.length * 33);
    };

    it('tracks every frame', () => {
      expect(states.length).toBe(golden2d.length);
      expect(states.every((s) => s !== 'lost')).toBe(true);
      expect(smoothed.length).toBe(golden2d.length);
    });

    /** Max abs error and mean distance of the smoothed and the raw landmarks of one kind against a golden. */
    const errors = (kind: 'image' | 'world', golden: number[][][], dims: number) => {
      const smoothedFrames = smoothed.map((f) => f[kind]);
      const rawFrames = raw.map((f) => f[kind]);
      return {
        smoothedMax: maxAbs(smoothedFrames, golden, dims),
        smoothedMean: meanDistance(smoothedFrames, golden, dims),
        rawMax: maxAbs(rawFrames, golden, dims),
        rawMean: meanDistance(rawFrames, golden, dims),
      };
    };

    it(`2D: smoothed image landmarks within ${MAX_2D_PX} px (max abs of x and y) on every frame`, () => {
      const e = errors('image', golden2d, 2);
      expect(e.smoothedMax).toBeLessThanOrEqual(MAX_2D_PX);
      expect(e.smoothedMean).toBeLessThan(5);
      // The raw landmarks (what the tracks hold) are close on average too.
      expect(e.rawMean).toBeLessThan(8);
    });

    it(`3D: world landmarks within ${MAX_3D_M} m (max abs of x, y and z) on every frame`, () => {
      const e = errors('world', golden3d, 3);
      expect(e.smoothedMax).toBeLessThanOrEqual(MAX_3D_M);
      expect(e.smoothedMean).toBeLessThan(0.06);
      // The raw world landmarks (what the tracks hold) as well.
      expect(e.rawMax).toBeLessThanOrEqual(MAX_3D_M);
    });
  });
});
