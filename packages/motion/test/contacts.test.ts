import { describe, expect, it } from 'vitest';
import { IMAGE_CONTACT_SPEED } from '../src/solver/ground.ts';
import { imageFootSpeeds, imageJumps, lowerEnvelope, solveDetailed } from '../src/solver/index.ts';
import { readLandmarks } from '../src/solver/input.ts';
import { syntheticFrom } from './helpers.ts';

describe('contacts and jumps from image evidence (synthetic tracks with known contacts)', () => {
  const syn = syntheticFrom('cmu/cmu_002_01.bvh', { maxFrames: 240, dropouts: false, lost: false });
  const series = readLandmarks(syn.tracks);

  it('planted feet stand still in the picture, swinging feet do not', () => {
    const speeds = imageFootSpeeds(series, series.fps);
    const planted: number[] = [];
    const swing: number[] = [];
    for (let s = 0; s < 2; s++) {
      for (let f = 3; f < series.N - 3; f++) {
        const p = syn.truth.planted[s][f];
        const v = p === 2 ? speeds[s].toe[f] : speeds[s].heel[f];
        // Well inside a contact or well outside one (the edges are ambiguous by definition).
        const around = [-3, 3].map((d) => syn.truth.planted[s][f + d]);
        if (p && around.every((x) => x)) planted.push(v);
        if (!p && around.every((x) => !x)) swing.push(v);
      }
    }
    const med = (a: number[]) => a.slice().sort((x, y) => x - y)[a.length >> 1];
    expect(planted.length).toBeGreaterThan(40);
    expect(swing.length).toBeGreaterThan(40);
    expect(med(planted)).toBeLessThan(0.5 * IMAGE_CONTACT_SPEED);
    expect(med(swing)).toBeGreaterThan(IMAGE_CONTACT_SPEED);
  });

  it('the solved contacts match the true ones', () => {
    const { clip } = solveDetailed(syn.tracks, { focalLengthPx: syn.camera.f, focalFromMetadata: true });
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const [s, side] of [
      [0, 'left'],
      [1, 'right'],
    ] as const) {
      for (let f = 0; f < clip.frameCount; f++) {
        const t = syn.truth.planted[s][f] > 0;
        const e = clip.contacts![side][f] > 0;
        if (t && e) tp++;
        else if (t) fn++;
        else if (e) fp++;
      }
    }
    expect(tp / (tp + fn)).toBeGreaterThan(0.8);
    expect(tp / (tp + fp)).toBeGreaterThan(0.8);
  });

  it('a jump in the picture is flagged, walking is not', () => {
    expect(imageJumps(series).reduce((a, b) => a + b, 0)).toBe(0);
    const jumping = structuredClone(syn.tracks);
    for (let f = 100; f < 110; f++) for (const p of jumping.frames[f].image!) p[1] -= 150;
    const flags = imageJumps(readLandmarks(jumping));
    for (let f = 0; f < flags.length; f++) expect(flags[f]).toBe(f >= 100 && f < 110 ? 1 : 0);
  });
});

describe('no floating: the lower envelope of the needed drop', () => {
  it('is never above the need, follows a long float fully, keeps a short flight phase, fills unknowns', () => {
    const N = 60;
    const need = new Float64Array(N);
    for (let f = 10; f < 40; f++) need[f] = 0.2; // floating 20 cm for 1 s
    need[50] = 0.1; // one frame of flight
    need[45] = Number.NaN; // a jump frame (unknown)
    const drop = lowerEnvelope(need, 3);
    for (let f = 0; f < N; f++)
      if (!Number.isNaN(need[f])) expect(drop[f]).toBeLessThanOrEqual(need[f] + 1e-12);
    for (let f = 16; f < 34; f++) expect(drop[f]).toBeCloseTo(0.2, 12);
    expect(drop[50]).toBe(0);
    expect(drop[45]).toBe(0);
    expect(drop[5]).toBe(0);
  });
});
