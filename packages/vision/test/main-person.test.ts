import { describe, expect, it } from 'vitest';
import type { PersonDetection } from '../src/pose/detector.ts';
import { pickMainPerson } from '../src/pose/tracker.ts';

const det = (cx: number, cy: number, size: number, score = 0.9): PersonDetection => ({
  score,
  box: { x: cx - size / 4, y: cy - size / 2, width: size / 2, height: size },
  keypoints: [],
  roi: { cx, cy, size, rotation: 0 },
});

describe('pickMainPerson', () => {
  it('with no history picks the largest, most central person', () => {
    const small = det(100, 300, 120);
    const big = det(500, 300, 400);
    expect(pickMainPerson([small, big], 1000, 600, undefined, 0)).toBe(big);
  });

  it('after a short loss picks the detection nearest to where the person was', () => {
    const last = { roi: { cx: 600, cy: 330, size: 430, rotation: 0 }, index: 229 };
    const near = det(610, 320, 400);
    const far = det(225, 392, 354);
    expect(pickMainPerson([far, near], 960, 540, last, 230)).toBe(near);
  });

  it('refuses someone far away right after a loss', () => {
    const last = { roi: { cx: 800, cy: 330, size: 200, rotation: 0 }, index: 100 };
    expect(pickMainPerson([det(200, 330, 200)], 960, 540, last, 101)).toBeUndefined();
  });

  it('does not switch to a person seen elsewhere as the other one', () => {
    // The gym clip's case: the player's region grew on a bad frame, the coach is within reach of it.
    const last = { roi: { cx: 561, cy: 335, size: 433, rotation: 0 }, index: 229 };
    const coach = det(225, 392, 354);
    expect(pickMainPerson([coach], 960, 540, last, 230)).toBe(coach);
    const others = [{ roi: { cx: 215, cy: 380, size: 330, rotation: 0 }, index: 228 }];
    expect(pickMainPerson([coach], 960, 540, last, 230, others)).toBeUndefined();
    // ... unless that person is right where the main person was.
    const here = det(570, 340, 420);
    const othersHere = [{ roi: { cx: 575, cy: 345, size: 400, rotation: 0 }, index: 228 }];
    expect(pickMainPerson([here], 960, 540, last, 230, othersHere)).toBe(here);
    // Sightings expire after the gap after which anybody may be picked again.
    expect(pickMainPerson([coach], 960, 540, last, 230, [{ ...others[0], index: 100 }])).toBe(coach);
  });
});
