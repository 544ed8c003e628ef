/** Issue 15.3 (first part): the capture judging its tracks. Synthetic tracks with known faults. */
import type { TrackFrame, Tracks } from '@mocap/vision';
import { describe, expect, it } from 'vitest';
import { judgeTracks } from '../src/judge.ts';

const FPS = 25;
/** An upright person at image x = cx: shoulders 100 px above the hips; world y down (BlazePose). */
function frame(
  i: number,
  o: { cx?: number; lost?: boolean; score?: number; flip?: boolean } = {},
): TrackFrame {
  const time = i / FPS;
  if (o.lost) return { index: i, time, state: 'lost', score: 0 };
  const cx = o.cx ?? 320;
  const image = Array.from(
    { length: 33 },
    () => [cx, 300, 0, 1, 1] as [number, number, number, number, number],
  );
  const world = Array.from({ length: 33 }, () => [0, 0, 0] as [number, number, number]);
  for (const k of [11, 12]) image[k] = [cx + (k === 11 ? 30 : -30), 200, 0, 1, 1];
  for (const k of [23, 24]) image[k] = [cx + (k === 23 ? 20 : -20), 300, 0, 1, 1];
  image[0] = [cx, 150, 0, 1, 1];
  const up = o.flip ? 1 : -1;
  for (const k of [11, 12]) world[k] = [0, 0.5 * up, 0];
  world[0] = [0, 0.7 * up, 0];
  return { index: i, time, state: 'tracked', score: o.score ?? 0.9, image, world };
}
const tracks = (frames: TrackFrame[]): Pick<Tracks, 'frames' | 'video'> => ({
  frames,
  video: {
    width: 640,
    height: 480,
    rotation: 0,
    duration: frames.length / FPS,
    fps: FPS,
    vfr: false,
    frameCount: frames.length,
    codec: 'h264',
  },
});

describe('judgeTracks', () => {
  it('a clean clip: confidence = the pose score, no ranges, usable', () => {
    const j = judgeTracks(tracks(Array.from({ length: 100 }, (_, i) => frame(i))));
    expect(j.confidence).toBe(0.9);
    expect(j.ranges).toEqual([]);
    expect(j.unusable).toBe(false);
  });

  it('finds a lost stretch, a 3D flip and another person taking over, with their times', () => {
    const f = Array.from({ length: 100 }, (_, i) =>
      i >= 20 && i < 30
        ? frame(i, { lost: true })
        : i >= 50 && i < 55
          ? frame(i, { flip: true })
          : frame(i, { cx: i >= 80 ? 600 : 320 }),
    );
    const j = judgeTracks(tracks(f));
    expect(j.ranges.map((r) => [r.from, r.to, r.reasons])).toEqual([
      [0.8, 1.2, ['lost']],
      [2, 2.2, ['flip']],
      [3.2, 3.24, ['jump']],
    ]);
    expect(j.ranges[0]!.confidence).toBe(0);
    expect(j.warnings[1]).toBe('2.0–2.2 s: the 3D pose flips upside down');
    expect(j.unusable).toBe(false);
    expect(j.confidence).toBeLessThan(0.9);
  });

  it('a clip mostly lost is unusable', () => {
    const j = judgeTracks(tracks(Array.from({ length: 100 }, (_, i) => frame(i, { lost: i >= 40 }))));
    expect(j.unusable).toBe(true);
    expect(j.ranges).toEqual([{ from: 1.6, to: 4, confidence: 0, reasons: ['lost'] }]);
  });
});
