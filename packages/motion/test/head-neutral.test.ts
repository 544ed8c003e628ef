import { describe, expect, it } from 'vitest';
import { qMul, qRotate, readQuat } from '../src/math.ts';
import { solveDetailed } from '../src/solver/index.ts';
import { syntheticFrom } from './helpers.ts';

/** Median head pitch against the chest (degrees, + = forward) of a solved clip. */
function headPitch(clip: ReturnType<typeof solveDetailed>['clip']): number {
  const n = clip.skeleton.names.length;
  const neck = clip.skeleton.names.indexOf('neck');
  const head = clip.skeleton.names.indexOf('head');
  const a: number[] = [];
  for (let f = 0; f < clip.frameCount; f++) {
    const q = qMul(readQuat(clip.rotations, f * n + neck), readQuat(clip.rotations, f * n + head));
    const y = qRotate(q, [0, 1, 0]);
    a.push((Math.atan2(y[2], y[1]) * 180) / Math.PI);
  }
  return a.sort((x, y) => x - y)[a.length >> 1];
}

describe('head neutral: a face-depth bias of the world landmarks does not pitch the head', () => {
  const syn = syntheticFrom('cmu/cmu_002_01.bvh', { maxFrames: 120, dropouts: false, lost: false });
  // The tracker's bias seen on real front views: the mouth comes out nearer the camera than the eyes.
  const biased = {
    ...syn.tracks,
    frames: syn.tracks.frames.map((fr) =>
      fr.world
        ? {
            ...fr,
            world: fr.world.map((p, i) =>
              i === 9 || i === 10 ? [p[0], p[1], p[2] - 0.05, ...p.slice(3)] : p,
            ),
          }
        : fr,
    ),
  } as typeof syn.tracks;
  const opts = { focalLengthPx: syn.camera.f, focalFromMetadata: true };

  it('the unbiased clip has a near-neutral head either way', () => {
    expect(Math.abs(headPitch(solveDetailed(syn.tracks, opts).clip))).toBeLessThan(8);
  });

  it('the bias pitches the head without the correction and not with it', () => {
    const without = headPitch(solveDetailed(biased, { ...opts, headNeutral: false }).clip);
    const solved = solveDetailed(biased, opts);
    expect(Math.abs(without)).toBeGreaterThan(12);
    expect(Math.abs(headPitch(solved.clip))).toBeLessThan(5);
    expect(solved.clip.metadata.warnings?.some((w) => w.startsWith('head pitch'))).toBe(true);
  });
});
