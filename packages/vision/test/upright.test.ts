import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { trackVideo } from '../src/pipeline.ts';
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
