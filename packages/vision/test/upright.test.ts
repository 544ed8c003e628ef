import { existsSync } from 'node:fs';
import path from 'node:path';
import type { TrackFrame } from '@mocap/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { FrameTracker } from '../src/frame-tracker.ts';
import { DEFAULT_INFERENCE_WIDTH, trackVideo } from '../src/pipeline.ts';
import { hipCentre, inverted, trackRange } from '../src/range.ts';
import { decodeFrames, probeVideo } from '../src/video/index.ts';
import { TESTDATA_DIR } from './fixtures/video-fixtures.ts';

/**
 * A detection whose region comes out upside down (the detector's scale point below the hips) must not be
 * followed upside down: camera 2 of the Pose2Sim static trial (a man in a T-pose seen from behind) was
 * tracked in a half-turned region on all 11 frames, with the shoulders placed on his shorts.
 */
const CAM02 = path.join(TESTDATA_DIR, 'gt/pose2sim_static_trial_4view/videos/cam02.mp4');

describe('upright first', () => {
  it('tracks a T-pose seen from behind in an upright region with an upright pose', async () => {
    const tracks = await trackVideo(CAM02, { model: 'heavy' });
    expect(tracks.frames.length).toBe(11);
    for (const f of tracks.frames) {
      expect(f.state).not.toBe('lost');
      expect(Math.abs(f.roi!.rotation)).toBeLessThan(Math.PI / 4);
      const y = (i: number) => f.image![i][1];
      const hips = (y(23) + y(24)) / 2;
      const ankles = (y(27) + y(28)) / 2;
      const shoulders = (y(11) + y(12)) / 2;
      const height = ankles - y(0);
      // Head above shoulders above hips above ankles (image y grows downwards).
      expect(y(0)).toBeLessThan(shoulders);
      expect(shoulders).toBeLessThan(hips);
      expect(hips).toBeLessThan(ankles);
      // Arms out sideways: wrists about at shoulder height, far apart.
      expect(Math.abs(y(15) - shoulders)).toBeLessThan(0.15 * height);
      expect(Math.abs(y(16) - shoulders)).toBeLessThan(0.15 * height);
      expect(Math.abs(f.image![15][0] - f.image![16][0])).toBeGreaterThan(0.8 * height);
    }
  });
});

/**
 * An inverted stretch followed by an upright track of the same person (issue 14): on the two-person gym clip
 * the first detection of the player (bent forward, dribbling) comes out upside down and its upright try finds
 * nobody, so frames 0–7 were followed upside down (hips above the shoulders) until a re-detection at frame 8
 * found him upright. Held back until an upright track settles, those frames are re-tracked upright from it;
 * the frames already upright keep the result of the forward pass.
 */
const GYM = path.join(TESTDATA_DIR, 'videos/glamr_basketball_gym_two_people.mp4');
const FRAMES = 40;

describe.skipIf(!existsSync(GYM))('an inverted start re-tracked from the upright track after it', () => {
  let tracker: FrameTracker;
  afterAll(async () => {
    await tracker?.dispose();
  });

  it('turns frames 0–7 of the gym clip upright and leaves the rest as the forward pass found them', async () => {
    const info = await probeVideo(GYM);
    tracker = await FrameTracker.create({ model: 'heavy', hands: false, face: false, backend: 'ort' });
    // The forward pass alone (what a frame gets when nothing is held back): the premise of the test.
    const forward: TrackFrame[] = [];
    for await (const frame of decodeFrames(info, {
      width: DEFAULT_INFERENCE_WIDTH,
      startFrame: 0,
      endFrame: FRAMES,
    }))
      forward.push(await tracker.track(frame, info.width / frame.width));
    const range = await trackRange(tracker, info, {
      start: 0,
      end: FRAMES,
      inferenceWidth: DEFAULT_INFERENCE_WIDTH,
    });
    expect(range.frames.map((f) => f.index)).toEqual(forward.map((f) => f.index));
    expect(forward.length).toBe(FRAMES);

    const y = (f: TrackFrame, i: number) => f.image![i][1];
    const hipsBelowShoulders = (f: TrackFrame) => (y(f, 23) + y(f, 24)) / 2 > (y(f, 11) + y(f, 12)) / 2;
    const first = forward.findIndex((f) => f.roi && !inverted(f.roi));
    // Forwards, the player is upside down in the frames before the upright re-detection at frame 8.
    expect(first).toBe(8);
    for (const f of forward.slice(0, first)) {
      expect(inverted(f.roi!)).toBe(true);
      expect(hipsBelowShoulders(f)).toBe(false);
    }
    for (const f of range.frames.slice(0, first)) {
      expect(f.state).toBe('tracked');
      expect(Math.abs(f.roi!.rotation)).toBeLessThan(Math.PI / 2);
      expect(hipsBelowShoulders(f)).toBe(true);
      // The same player (his hips near the upright track's at frame 8), not the coach on the left.
      expect(Math.abs(hipCentre(f)![0] - hipCentre(forward[first])![0])).toBeLessThan(0.25 * f.roi!.size);
    }
    // Every frame from the re-detection on is exactly the forward pass's.
    expect(range.frames.slice(first)).toEqual(forward.slice(first));
  }, 300_000);
});
