import { basename } from 'node:path';
import type { Tracks } from '@mocap/contracts';
import { describe, expect, it } from 'vitest';
import { trackVideo } from '../src/pipeline.ts';
import { hipCentre } from '../src/range.ts';
import { listTestVideos, TESTDATA_VIDEOS } from './fixtures/video-fixtures.ts';

/**
 * Target (issue 2): the main person found on ≥ 95 % of the frames where they are in view. Measured (heavy,
 * 960 px, with the retry of the last region and the backward fill of gaps): 100 % on six clips, 98.3 % on
 * the gym clip, 95.6 % on the backlit outdoor clip (its misses: the first 3 frames, and a back flip upside
 * down against the sun). In-view ranges were read off the clips (a person cut in half by the frame edge or
 * hidden behind a tree counts as out of view); everything else counts. On the two clips with a second
 * person the track stays on the main one (checked on the overlay, asserted here from the hips' positions).
 */
const IN_VIEW: Record<string, [number, number]> = {
  // She walks in from the right edge (fully visible from ~1.2 s) and out of the frame at ~11.4 s.
  'sports2d_demo4_indoor_side_walk.mp4': [1.2, 11.4],
  // He walks behind the tree trunk on the right at ~7.5 s (hidden from frame 226 on).
  'sports2d_demo_outdoor_walk.mp4': [0, 7.5],
};

/** Where the main person's hips are (fractions of the frame) and where the other person's would be. */
const SECOND_PERSON: Record<
  string,
  {
    isMain: (x: number, y: number, t: number) => boolean;
    isOther: (x: number, y: number, t: number) => boolean;
  }
> = {
  // The player dribbles in the middle and right of the frame; the coach stands still at x ≈ 0.2.
  'glamr_basketball_gym_two_people.mp4': {
    isMain: (x) => x >= 0.3,
    isOther: (x) => x >= 0.05 && x <= 0.27,
  },
  // The main person (in view all along) jumps about on top of the electrical box (hips at y ≈ 0.25) until
  // his back flip at ~5.6 s; meanwhile a woman walks across the lawn in front (hips at y ≈ 0.7).
  'sports2d_demo_outdoor_walk.mp4': {
    isMain: (_x, y, t) => t > 5.5 || y < 0.45,
    isOther: (_x, y, t) => t <= 5.5 && y > 0.55,
  },
};

const clips = listTestVideos();

describe.each(clips.map((c) => [basename(c), c]))('%s', (name, file) => {
  let tracks: Tracks;
  it('finds the main person on the frames where they are in view', async () => {
    tracks = await trackVideo(file);
    expect(tracks.frames.length).toBe(tracks.video.frameCount);
    const [t0, t1] = IN_VIEW[name] ?? [0, Number.POSITIVE_INFINITY];
    const inView = tracks.frames.filter((f) => f.time >= t0 && f.time <= t1);
    const found = inView.filter((f) => f.state !== 'lost' && f.image && f.world);
    expect(found.length / inView.length).toBeGreaterThanOrEqual(0.95);
    for (const f of found) {
      expect(f.image!.length).toBe(33);
      expect(f.world!.every((p) => p.every(Number.isFinite))).toBe(true);
    }
  });

  if (SECOND_PERSON[name]) {
    it('stays on the main person, not the second one', () => {
      const { isMain, isOther } = SECOND_PERSON[name];
      const hips = tracks.frames.flatMap((f) => {
        const h = hipCentre(f);
        return h ? [[h[0] / tracks.video.width, h[1] / tracks.video.height, f.time] as const] : [];
      });
      const onMain = hips.filter(([x, y, t]) => isMain(x, y, t)).length;
      const onOther = hips.filter(([x, y, t]) => isOther(x, y, t)).length;
      expect(onMain / hips.length).toBeGreaterThanOrEqual(0.98);
      expect(onOther / hips.length).toBeLessThanOrEqual(0.02);
    });
  }
});

describe('test data', () => {
  it('has the eight shared clips', () => {
    expect(clips.length).toBe(8);
    expect(clips.every((c) => c.startsWith(TESTDATA_VIDEOS))).toBe(true);
  });
});
