import { mulberry32 } from '@mocap/testkit';
import { describe, expect, it } from 'vitest';
import { forwardKinematics, jointCount, type MotionClip } from '../src/clip.ts';
import { readVec3, sub, type Vec3 } from '../src/math.ts';
import { cameraModel } from '../src/solver/camera.ts';
import { lifterShare, solve, worldImageDisagreement } from '../src/solver/index.ts';
import { readLandmarks } from '../src/solver/input.ts';
import { syntheticFrom } from './helpers.ts';

/**
 * The lifter as the solver's depth evidence (`depth: 'lifter'`, the default; `lifterWeight` fixes its share):
 * where the world landmarks' depths are biased the way BlazePose's are (knees pushed off the hip–ankle line in
 * depth: standing people solved with bent knees), the lifter's depths, made from the picture alone, bring the
 * knees back. The default share follows the world landmarks' lasting disagreement with the image
 * (`worldImageDisagreement`): ~0 for clean synthetic landmarks, large for a tracker that draws another body.
 * cmu_002_04 is held out of the lifter's training.
 */
describe('lifter depths in the solve', () => {
  const angle = (a: Vec3, b: Vec3, c: Vec3) => {
    const u = sub(a, b);
    const v = sub(c, b);
    const d = (u[0] * v[0] + u[1] * v[1] + u[2] * v[2]) / Math.hypot(...u) / Math.hypot(...v);
    return (Math.acos(Math.max(-1, Math.min(1, d))) * 180) / Math.PI;
  };
  const syn = syntheticFrom('cmu/cmu_002_04.bvh', { maxFrames: 150, dropouts: false, lost: false });
  const opts = { focalLengthPx: syn.camera.f, focalFromMetadata: true, hands: false, face: false };
  // BlazePose-like depth bias: both knees 15 cm off in depth (the picture is untouched). Measured: knee angle
  // error 3.5° clean, 20.4° biased with world depths, 4.9° biased with the lifter's.
  const biased = structuredClone(syn.tracks);
  for (const fr of biased.frames) {
    if (!fr.world) continue;
    for (const i of [25, 26]) fr.world[i] = [fr.world[i][0], fr.world[i][1], fr.world[i][2] + 0.15];
  }
  /** Mean |knee angle error| (degrees) of a solved clip against the truth's landmarks (hip, knee, ankle). */
  const kneeError = (clip: MotionClip) => {
    const n = jointCount(clip.skeleton);
    const { positions } = forwardKinematics(clip);
    const j = (name: string) => clip.skeleton.names.indexOf(name);
    const L = syn.truth.landmarks;
    let s = 0;
    let c = 0;
    for (let f = 0; f < Math.min(clip.frameCount, syn.truth.N); f++) {
      for (const [side, [h, k, a]] of [
        ['left', [23, 25, 27]],
        ['right', [24, 26, 28]],
      ] as const) {
        const P = (name: string) => readVec3(positions, f * n + j(name));
        const solved = angle(P(`${side}Thigh`), P(`${side}Shin`), P(`${side}Foot`));
        const T = (i: number) => readVec3(L, f * 33 + i);
        s += Math.abs(solved - angle(T(h), T(k), T(a)));
        c++;
      }
    }
    return s / c;
  };

  it('with biased knee depths, the lifter brings the solved knee angles closer to the truth', () => {
    const clean = kneeError(solve(syn.tracks, opts));
    const world = kneeError(solve(biased, { ...opts, depth: 'world' }));
    const lifted = kneeError(solve(biased, { ...opts, depth: 'lifter', lifterWeight: 1 }));
    // The bias shows in the world-landmark solve …
    expect(world).toBeGreaterThan(clean + 3);
    // … and the lifter takes most of it back.
    expect(lifted).toBeLessThan(world - 0.5 * (world - clean));
  });

  // BlazePose-like: besides the knee depths, the world landmarks draw another body than the picture shows —
  // every landmark off by its own lasting offset (2.5 cm RMS per axis across the image), plus white noise.
  const another = structuredClone(biased);
  const rand = mulberry32(3);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const offsets = Array.from({ length: 33 }, () => [gauss() * 0.025, gauss() * 0.025]);
  for (const fr of another.frames) {
    if (!fr.world) continue;
    fr.world = fr.world.map((p, i) => [p[0] + offsets[i][0], p[1] + offsets[i][1], p[2]]);
  }
  const disagreement = (t: typeof syn.tracks) => {
    const series = readLandmarks(t);
    return worldImageDisagreement(cameraModel(series.width, series.height, opts), series);
  };

  it("measures the world landmarks' lasting disagreement with the image: ~0 when they agree, cm when not", () => {
    const clean = disagreement(syn.tracks);
    const other = disagreement(another);
    // The synthetic tracks' 2 cm white noise averages out over ±0.25 s.
    expect(clean).toBeLessThan(0.008);
    // Depth-only bias cannot be seen across the image …
    expect(disagreement(biased)).toBeLessThan(0.008);
    // … another body can: about the 2.5 cm RMS offsets.
    expect(other).toBeGreaterThan(0.018);
    expect(other).toBeLessThan(0.035);
    // The lifter's share: its own depths for agreeing landmarks, a large part for disagreeing ones.
    expect(lifterShare(clean)).toBeLessThan(0.05);
    expect(lifterShare(other)).toBeGreaterThan(0.2);
    expect(lifterShare(other)).toBeLessThan(lifterShare(0.06));
  });

  it("by default, takes the lifter's depths where the world landmarks disagree with the image", () => {
    const clean = kneeError(solve(syn.tracks, opts));
    const world = kneeError(solve(another, { ...opts, depth: 'world' }));
    const auto = kneeError(solve(another, opts));
    expect(world).toBeGreaterThan(clean + 3);
    expect(auto).toBeLessThan(world - 0.25 * (world - clean));
    // Clean synthetic tracks: the default solve is the world-landmark solve within a hair.
    const a = solve(syn.tracks, { ...opts, depth: 'world' });
    const b = solve(syn.tracks, opts);
    let d = 0;
    for (let i = 0; i < a.rootPositions.length; i++)
      d = Math.max(d, Math.abs(a.rootPositions[i] - b.rootPositions[i]));
    expect(d).toBeLessThan(0.01);
  });

  it('a lifter share of 0 is the world-landmark solve, exactly', () => {
    const a = solve(biased, { ...opts, depth: 'world' });
    const b = solve(biased, { ...opts, depth: 'lifter', lifterWeight: 0 });
    expect(Array.from(b.rotations)).toEqual(Array.from(a.rotations));
    expect(Array.from(b.rootPositions)).toEqual(Array.from(a.rootPositions));
  });
});
