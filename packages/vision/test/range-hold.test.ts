/**
 * The hold-back rules of `trackRange` for a stretch tracked upside down (issue 14), with a scripted tracker on
 * a real decoded clip (a 640×360 test pattern: at most 60 frames held): an inverted start is re-tracked from
 * the upright track after it while the upright frames in between keep their own result; a handstand the
 * upright re-track does not find keeps its own result; a track that stays upside down is never held beyond
 * the memory bound, and the frames before it that were held as unsettled are still filled from it.
 */

import type { Roi, TrackFrame } from '@mocap/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FrameInput, FrameTracker } from '../src/frame-tracker.ts';
import { trackRange } from '../src/range.ts';
import { probeVideo, type VideoInfo } from '../src/video/index.ts';
import { makeNobodyClip, makeTempDir, removeDir } from './fixtures/video-fixtures.ts';

const FRAMES = 100;
const region = (rotation: number): Roi => ({ cx: 320, cy: 180, size: 200, rotation });
const frameOf = (index: number, rotation: number, score: number, state: TrackFrame['state']): TrackFrame => ({
  index,
  time: index / 25,
  state,
  score,
  roi: region(rotation),
});

/**
 * `forward(index)`: the region's rotation on a frame tracked forwards (or undefined: lost). `backward(index,
 * fromUpright)`: the rotation a backward pass finds there (undefined: nobody). Forward results score 0.9,
 * backward ones 0.5, so the output shows which pass a frame came from.
 */
function scripted(
  forward: (i: number) => number | undefined,
  backward: (i: number, fromUpright: boolean) => number | undefined,
) {
  let last: { roi: Roi; index: number } | undefined;
  const log = { tracked: 0, emitted: 0, maxHeld: 0 };
  const tracker = {
    reset() {
      last = undefined;
    },
    seed(roi: Roi, index: number) {
      last = { roi, index };
    },
    lastSeen: () => last,
    async track(f: FrameInput): Promise<TrackFrame> {
      log.tracked++;
      log.maxHeld = Math.max(log.maxHeld, log.tracked - 1 - log.emitted);
      const r = forward(f.index);
      if (r === undefined) return { index: f.index, time: f.index / 25, state: 'lost', score: 0 };
      last = { roi: region(r), index: f.index };
      return frameOf(f.index, r, 0.9, f.index === 0 ? 'detected' : 'tracked');
    },
    async trackBackwards(frames: FrameInput[], seed: Roi): Promise<TrackFrame[]> {
      const out: TrackFrame[] = [];
      const fromUpright = Math.abs(seed.rotation) <= Math.PI / 2;
      for (let k = frames.length - 1; k >= 0; k--) {
        const r = backward(frames[k].index, fromUpright);
        if (r === undefined) break;
        out.push(frameOf(frames[k].index, r, 0.5, 'tracked'));
      }
      return out;
    },
  };
  return { tracker: tracker as unknown as FrameTracker, log };
}

describe('trackRange with a stretch tracked upside down', () => {
  let dir: string;
  let info: VideoInfo;
  beforeAll(async () => {
    dir = await makeTempDir();
    info = await probeVideo(await makeNobodyClip(dir, { seconds: FRAMES / 25 }));
    expect(info.frameCount).toBe(FRAMES);
  }, 120_000);
  afterAll(() => removeDir(dir));

  const run = async (s: ReturnType<typeof scripted>) => {
    const r = await trackRange(s.tracker, info, { start: 0, end: FRAMES, inferenceWidth: 0 }, () => {
      s.log.emitted++;
    });
    expect(r.frames.map((f) => f.index)).toEqual(Array.from({ length: FRAMES }, (_, i) => i));
    return r.frames;
  };

  it('re-tracks an inverted start upright; the upright frames keep their forward result', async () => {
    const s = scripted(
      (i) => (i < 10 ? Math.PI : 0.1),
      (_i, fromUpright) => (fromUpright ? -0.3 : Math.PI - 0.05),
    );
    const frames = await run(s);
    for (const f of frames.slice(0, 10)) expect([f.score, f.roi!.rotation]).toEqual([0.5, -0.3]);
    for (const f of frames.slice(10)) expect([f.score, f.roi!.rotation]).toEqual([0.9, 0.1]);
  });

  it('keeps a handstand the upright re-track does not find', async () => {
    const handstand = (i: number) => i >= 30 && i < 50;
    const s = scripted(
      (i) => (handstand(i) ? -Math.PI + 0.1 : 0.1),
      (i, fromUpright) => (handstand(i) ? (fromUpright ? undefined : -Math.PI + 0.2) : 0.2),
    );
    const frames = await run(s);
    for (const f of frames.slice(0, 2)) expect([f.score, f.roi!.rotation]).toEqual([0.5, 0.2]);
    for (const f of frames.slice(2)) {
      expect(f.score).toBe(0.9);
      expect(f.roi!.rotation).toBe(handstand(f.index) ? -Math.PI + 0.1 : 0.1);
    }
  });

  it('holds at most maxPending frames of a track that stays upside down, and fills the unsettled start from it', async () => {
    const s = scripted(
      () => Math.PI,
      (_i, fromUpright) => (fromUpright ? 0 : Math.PI - 0.05),
    );
    const frames = await run(s);
    expect(s.log.maxHeld).toBe(60);
    // Frames 0–1 (before the track settled at frame 2) re-tracked from where it was when the hold ran full.
    for (const f of frames.slice(0, 2)) expect([f.score, f.roi!.rotation]).toEqual([0.5, Math.PI - 0.05]);
    for (const f of frames.slice(2)) expect([f.score, f.roi!.rotation]).toEqual([0.9, Math.PI]);
  });
});
