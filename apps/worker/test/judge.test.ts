/** Issue 15.3 (first part): the capture judging its tracks. Synthetic tracks with known faults. */
import type { TrackFrame, Tracks } from '@mocap/vision';
import { describe, expect, it } from 'vitest';
import { judgeTracks } from '../src/judge.ts';

const FPS = 25;
/** An upright person at image x = cx: shoulders 100 px above the hips; world y down (BlazePose). */
function frame(
  i: number,
  o: { cx?: number; lost?: boolean; score?: number; flip?: boolean; stretch?: boolean } = {},
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
  // Arms hanging and legs standing (metres, y down): upper arm 0.3, forearm 0.25, thigh 0.45, shin 0.42.
  for (const [side, x] of [
    [0, 0.2],
    [1, -0.2],
  ] as const) {
    world[11 + side] = [x, 0.5 * up, 0];
    world[13 + side] = [x, 0.2 * up, 0];
    world[15 + side] = [x, (o.stretch && side === 0 ? -0.55 : -0.05) * up, 0];
    world[23 + side] = [x / 2, 0, 0];
    world[25 + side] = [x / 2, -0.45 * up, 0];
    world[27 + side] = [x / 2, -0.87 * up, 0];
  }
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

  it('a clip mostly lost is unusable; a lost stretch of 1 s or more is a long gap', () => {
    const j = judgeTracks(tracks(Array.from({ length: 100 }, (_, i) => frame(i, { lost: i >= 40 }))));
    expect(j.unusable).toBe(true);
    expect(j.ranges).toEqual([{ from: 1.6, to: 4, confidence: 0, reasons: ['gap'] }]);
    expect(j.warnings).toEqual(['1.6–4.0 s: tracking lost for a long stretch']);
  });

  it('an impossible pose (a forearm three times its length) is flagged with its time', () => {
    const f = Array.from({ length: 100 }, (_, i) => frame(i, { stretch: i >= 60 && i < 70 }));
    const j = judgeTracks(tracks(f));
    expect(j.ranges.map((r) => [r.from, r.to, r.reasons])).toEqual([[2.4, 2.8, ['pose']]]);
    expect(j.unusable).toBe(false);
    // The same clip without the stretch has no range: the check does not fire on an ordinary pose.
    expect(judgeTracks(tracks(Array.from({ length: 100 }, (_, i) => frame(i)))).ranges).toEqual([]);
    // Two stretched frames in a row are the tracker's noise, not a pose: nothing flagged.
    const spike = Array.from({ length: 100 }, (_, i) => frame(i, { stretch: i === 40 || i === 41 }));
    expect(judgeTracks(tracks(spike)).ranges).toEqual([]);
  });
});
