import { synthesize, unitScaleOf } from '@mocap/testkit';
import { describe, expect, it } from 'vitest';
import { jointCount, poseToWorld, type WorldPose } from '../src/clip.ts';
import { readVec3 } from '../src/math.ts';
import { lowestFootHeight, supportLevels } from '../src/solver/ground.ts';
import { solveDetailed } from '../src/solver/index.ts';
import { readSharedBvh, syntheticFrom } from './helpers.ts';

/**
 * Support levels (ground.ts `supportLevels`, used by the solver's floor stage): a person who stands on raised
 * ground for part of a clip has two surfaces under the feet.
 */
describe('support levels', () => {
  const fps = 30;
  /** Contact heights and hip heights of a clip on a box of `box` m for `on` frames, then on the floor. */
  const series = (box: number, on: number, N: number, hipsFollow = true, seed = 3) => {
    let r = seed;
    const noise = () => {
      r = (r * 16807) % 2147483647;
      return (r / 2147483647 - 0.5) * 0.04;
    };
    const contact = new Float64Array(N).fill(Number.NaN);
    const hips = new Float64Array(N);
    for (let f = 0; f < N; f++) {
      const level = f < on ? box : 0;
      const gap = f >= on && f < on + 12; // the jump down: no contact
      if (!gap && f % 7 !== 3) contact[f] = level + noise();
      hips[f] = 0.95 + (hipsFollow ? (f < on ? box : f < on + 12 ? box * (1 - (f - on) / 12) : 0) : 0);
    }
    return { contact, hips };
  };

  it('finds a box and the floor, the frames between them, and the levels', () => {
    const { contact, hips } = series(0.9, 100, 220);
    const s = supportLevels(contact, hips, 0.3, Math.round(0.75 * fps));
    expect(s).not.toBeNull();
    expect(s!.levels.length).toBe(2);
    expect(s!.levels[1]).toBeCloseTo(0.9, 1);
    expect(s!.height[0]).toBeCloseTo(0.9, 1);
    expect(s!.height[50]).toBeCloseTo(0.9, 1);
    expect(s!.height[200]).toBeCloseTo(0, 1);
    // The jump down (frames 100-111 have no contact) lies between the levels, on the lower one.
    expect(s!.between[105]).toBe(1);
    expect(s!.height[105]).toBeCloseTo(0, 1);
    expect(s!.between[50]).toBe(0);
    expect(s!.between[200]).toBe(0);
  });

  it('one level: nothing, even with a few outliers', () => {
    const { contact, hips } = series(0, 100, 220);
    contact[40] = 0.8;
    contact[41] = 0.85;
    expect(supportLevels(contact, hips, 0.3, Math.round(0.75 * fps))).toBeNull();
  });

  it('feet lifted while the hips stay: a floating foot, not a box', () => {
    const { contact, hips } = series(0.4, 100, 220, false);
    expect(supportLevels(contact, hips, 0.3, Math.round(0.75 * fps))).toBeNull();
  });

  it('lower ground where no foot was seen standing still: from the lowest feet', () => {
    // On a 1.8 m box for 150 frames: a still contact every 6th frame, the lowest foot at the box's height
    // otherwise (hopping); then a landing on the ground below where the picture never shows a still foot.
    const N = 220;
    const contact = new Float64Array(N).fill(Number.NaN);
    const lowest = new Float64Array(N);
    const hips = new Float64Array(N);
    for (let f = 0; f < N; f++) {
      const onBox = f < 150;
      if (onBox && f % 6 === 0) contact[f] = 1.8 + ((f * 7) % 5) * 0.01;
      lowest[f] = onBox ? 1.8 + ((f * 3) % 7) * 0.01 : f < 170 ? 1.8 - (f - 150) * 0.09 : 0.02;
      hips[f] = lowest[f] + 0.9;
    }
    const s = supportLevels(contact, hips, 0.3, Math.round(0.75 * fps), lowest);
    expect(s).not.toBeNull();
    expect(s!.levels[1]).toBeGreaterThan(1.7);
    expect(s!.levels[1]).toBeLessThan(1.9);
    expect(s!.height[60]).toBeCloseTo(s!.levels[1], 6);
    expect(s!.height[200]).toBe(0);
    // Without the lowest feet the box's few still contacts are no level.
    expect(supportLevels(contact, hips, 0.3, Math.round(0.75 * fps))).toBeNull();
  });

  it('raised ground shorter than the hold time is no level', () => {
    const { contact, hips } = series(0.9, 15, 220);
    expect(supportLevels(contact, hips, 0.3, Math.round(0.75 * fps))).toBeNull();
  });
});

describe('the solver on a jump down from raised ground', () => {
  // CMU 02_04 (jump, balance): the first 1.5 s on a 0.8 m platform, from which the jump at about 1 s lands on
  // the floor.
  const doc = readSharedBvh('cmu/cmu_002_04.bvh');
  const src = 1 / doc.frameTime;
  const root = doc.joints[0];
  const yCh = root.channelOffset + root.channels.indexOf('Yposition');
  const rise = (t: number) => (t < 1.5 ? 0.8 : t < 1.8 ? 0.8 * (1 - (t - 1.5) / 0.3) : 0);
  const raised = { ...doc, motion: Float32Array.from(doc.motion) };
  it('stands on the platform and then on the floor, feet on whichever is under them', () => {
    const unitScale = unitScaleOf(doc);
    for (let f = 0; f < doc.frameCount; f++)
      raised.motion[f * doc.channelCount + yCh] += rise(f / src) / unitScale;
    const syn = synthesize(raised, { seed: 11, maxFrames: 240, file: 'cmu/cmu_002_04.bvh (raised)' });
    const { clip, model } = solveDetailed(syn.tracks, {
      focalLengthPx: syn.camera.f,
      focalFromMetadata: true,
    });
    expect(clip.support).toBeDefined();
    const support = clip.support!;
    const at = (t: number) => support[Math.round(t * clip.fps)];
    expect(at(0.5)).toBeGreaterThan(0.7);
    expect(at(0.5)).toBeLessThan(0.9);
    expect(at(3)).toBe(0);
    // Planted feet (the truth's contacts) on the level under them.
    const n = jointCount(clip.skeleton);
    const pose: WorldPose = { positions: new Float64Array(n * 3), rotations: new Float64Array(n * 4) };
    let planted = 0;
    let onLevel = 0;
    for (let f = 0; f < clip.frameCount; f++) {
      if (!syn.truth.planted[0][f] && !syn.truth.planted[1][f]) continue;
      poseToWorld(clip.skeleton, clip.rotations, f * n * 4, readVec3(clip.rootPositions, f), pose);
      planted++;
      if (Math.abs(lowestFootHeight(model, pose) - support[f]) < 0.05) onLevel++;
    }
    expect(onLevel / planted).toBeGreaterThan(0.9);
    // The same walk on flat ground has one level.
    const flat = syntheticFrom('cmu/cmu_002_04.bvh', { maxFrames: 240 });
    const plain = solveDetailed(flat.tracks, { focalLengthPx: flat.camera.f, focalFromMetadata: true });
    expect(plain.clip.support).toBeUndefined();
  });
});
