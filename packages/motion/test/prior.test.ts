import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { synthetic } from '../../testkit/src/index.ts';
import { poseToWorld, type WorldPose } from '../src/clip.ts';
import { bvh, solveDetailed } from '../src/index.ts';
import { qExp, qFromAxisAngle, qLog, qMul, readVec3, writeQuat } from '../src/math.ts';
import { cameraModel } from '../src/solver/camera.ts';
import { bestComponent, componentCost, fitGmm, type Gmm, meanLogLikelihood } from '../src/solver/gmm.ts';
import { NUM_LANDMARKS } from '../src/solver/input.ts';
import { predictLandmarks } from '../src/solver/model.ts';
import {
  decodePrior,
  encodePrior,
  inverseLeftJacobian,
  mirrorFeatures,
  PRIOR_DIMS,
  PRIOR_JOINTS,
  poseFeatures,
  posePrior,
  posePriorMeta,
} from '../src/solver/prior.ts';
import { fitToImage } from '../src/solver/reproject.ts';
import { bodyModel, projectLandmarks, SHARED } from './helpers.ts';

const gauss = (rand: () => number) => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());

describe('Gaussian mixture (gmm.ts)', () => {
  it('EM recovers a known two-component mixture (means, spreads, weights)', () => {
    const rand = synthetic.mulberry32(7);
    const N = 3000;
    const D = 2;
    const data = new Float64Array(N * D);
    for (let t = 0; t < N; t++) {
      const a = t % 4 !== 0; // 75 % from A
      data[t * 2] = a ? 2 + 0.3 * gauss(rand) : -1 + 0.5 * gauss(rand);
      data[t * 2 + 1] = a ? 1 + 0.1 * gauss(rand) + 0.2 * (data[t * 2] - 2) : -2 + 0.5 * gauss(rand);
    }
    const g = fitGmm(data, N, D, { components: 2, iterations: 50, rand: synthetic.mulberry32(1) });
    const a = g.means[0] > g.means[2] ? 0 : 1;
    const b = 1 - a;
    expect(g.means[a * 2]).toBeCloseTo(2, 1);
    expect(g.means[a * 2 + 1]).toBeCloseTo(1, 1);
    expect(g.means[b * 2]).toBeCloseTo(-1, 1);
    expect(g.means[b * 2 + 1]).toBeCloseTo(-2, 1);
    expect(g.weights[a]).toBeCloseTo(0.75, 1);
    // Covariance of A from its precision factor: |Σ| = (0.3²)(0.1²) for the correlated pair.
    expect(Math.exp(g.logDetCov[a])).toBeCloseTo(0.3 ** 2 * 0.1 ** 2, 3);
    // A point near A's mean is A's, and the whitened residual of the mean is zero.
    expect(bestComponent(g, [2.05, 1.0]).k).toBe(a);
    const r = new Float64Array(2);
    componentCost(g, a, [g.means[a * 2], g.means[a * 2 + 1]], r);
    expect(Math.hypot(r[0], r[1])).toBeLessThan(1e-9);
    // One standard deviation along x (conditional spread 0.3 with the correlation) is |r| = 1.
    componentCost(g, a, [g.means[a * 2] + 0.3, g.means[a * 2 + 1] + 0.06], r);
    expect(Math.hypot(r[0], r[1])).toBeCloseTo(1, 1);
    // The fitted mixture explains the data better than one broad Gaussian.
    const one = fitGmm(data, N, D, { components: 1, iterations: 5, rand: synthetic.mulberry32(1) });
    expect(meanLogLikelihood(g, data, N)).toBeGreaterThan(meanLogLikelihood(one, data, N) + 0.3);
  });

  it('the inverse left Jacobian linearises log(exp(δ)·exp(φ))', () => {
    const J = new Float64Array(9);
    for (const phi of [
      [0.3, -0.2, 0.5],
      [1.5, 0.4, -0.7],
      [0, 0, 1e-6],
    ]) {
      inverseLeftJacobian(phi, J);
      const d = [1e-5, -2e-5, 1.5e-5];
      const q = qMul(qExp(d as [number, number, number]), qExp(phi as [number, number, number]));
      const got = qLog(q);
      for (let i = 0; i < 3; i++) {
        const lin = phi[i] + J[i * 3] * d[0] + J[i * 3 + 1] * d[1] + J[i * 3 + 2] * d[2];
        expect(Math.abs(got[i] - lin)).toBeLessThan(1e-9);
      }
    }
  });
});

describe('pose prior (prior.ts)', () => {
  const { model, sk, n, j } = bodyModel();
  const deg = Math.PI / 180;
  const joints = PRIOR_JOINTS.map((name) => j[name]);

  it('the shipped weights load, state their data, and prefer a standing pose to a one-knee-bent one', () => {
    const g = posePrior();
    expect(g.dims).toBe(PRIOR_DIMS);
    expect(g.weights.length).toBeGreaterThan(1);
    expect(String(posePriorMeta().data)).toMatch(/^CMU motion capture/);
    const local = new Float64Array(n * 4);
    for (let k = 0; k < n; k++) writeQuat(local, k, [0, 0, 0, 1]);
    // Arms down beside the body (A-pose-ish), legs straight.
    writeQuat(local, j.leftUpperArm, qFromAxisAngle([0, 0, 1], -75 * deg));
    writeQuat(local, j.rightUpperArm, qFromAxisAngle([0, 0, 1], 75 * deg));
    const x = new Float64Array(PRIOR_DIMS);
    poseFeatures(local, 0, joints, x);
    const standing = bestComponent(g, x).cost;
    // The same with one knee bent 90° and its thigh straight down (the "lifted foot" of a standing person).
    writeQuat(local, j.leftShin, qFromAxisAngle([1, 0, 0], 90 * deg));
    poseFeatures(local, 0, joints, x);
    const bent = bestComponent(g, x).cost;
    expect(bent).toBeGreaterThan(standing + 10);
    // Mirror images are as likely (trained with mirrors): within 15 % of the cost range.
    writeQuat(local, j.leftShin, [0, 0, 0, 1]);
    writeQuat(local, j.rightShin, qFromAxisAngle([1, 0, 0], 90 * deg));
    const m = new Float64Array(PRIOR_DIMS);
    poseFeatures(local, 0, joints, x);
    mirrorFeatures(x, m);
    const right = bestComponent(g, x).cost;
    expect(Math.abs(right - bent)).toBeLessThan(0.15 * (bent - standing));
  });

  it('encode/decode round-trips exactly', () => {
    const g = posePrior();
    const back = decodePrior(encodePrior(g, { note: 'test' }));
    expect(Array.from(back.means)).toEqual(Array.from(g.means));
    expect(Array.from(back.precChol)).toEqual(Array.from(g.precChol));
    expect(Array.from(back.logDetCov)).toEqual(Array.from(g.logDetCov));
  });

  /** A body 4 m in front of a 1280×720 camera, facing it; `local` the true pose. */
  const cam = cameraModel(1280, 720, { focalLengthPx: 1100 });
  const pose: WorldPose = { positions: new Float64Array(n * 3), rotations: new Float64Array(n * 4) };
  const pts = new Float64Array(NUM_LANDMARKS * 3);
  const imageOf = (local: Float64Array, root: Float64Array, N: number) => {
    const image = new Float64Array(N * NUM_LANDMARKS * 2);
    for (let f = 0; f < N; f++) {
      poseToWorld(sk, local, f * n * 4, readVec3(root, f), pose);
      predictLandmarks(model, pose, pts);
      projectLandmarks(cam, pts, image, f);
    }
    return image;
  };

  it('with no image evidence, the fit goes to the mode of a one-component prior (known answer)', () => {
    // A single Gaussian centred on a chosen pose: knees bent 30°, elbows 60°, head turned 20°.
    const target = new Float64Array(n * 4);
    for (let k = 0; k < n; k++) writeQuat(target, k, [0, 0, 0, 1]);
    writeQuat(target, j.leftShin, qFromAxisAngle([1, 0, 0], 30 * deg));
    writeQuat(target, j.rightShin, qFromAxisAngle([1, 0, 0], 30 * deg));
    writeQuat(target, j.leftForearm, qFromAxisAngle([0, -1, 0], 60 * deg));
    writeQuat(target, j.rightForearm, qFromAxisAngle([0, 1, 0], 60 * deg));
    writeQuat(target, j.head, qFromAxisAngle([0, 1, 0], 20 * deg));
    writeQuat(target, j.leftThigh, qFromAxisAngle([1, 0, 0], -25 * deg));
    const mu = new Float64Array(PRIOR_DIMS);
    poseFeatures(target, 0, joints, mu);
    const L = new Float64Array(PRIOR_DIMS * PRIOR_DIMS);
    for (let d = 0; d < PRIOR_DIMS; d++) L[d * PRIOR_DIMS + d] = 1 / 0.1; // σ 0.1 rad
    const g: Gmm = {
      dims: PRIOR_DIMS,
      weights: Float64Array.of(1),
      means: mu,
      precChol: L,
      logDetCov: Float64Array.of(PRIOR_DIMS * 2 * Math.log(0.1)),
    };
    const local = new Float64Array(n * 4);
    for (let k = 0; k < n; k++) writeQuat(local, k, [0, 0, 0, 1]);
    const root = Float64Array.of(0, 0, -4);
    const series = {
      N: 1,
      image: imageOf(local, root, 1),
      // Only the hip landmarks are seen (they move with the hips and root alone): the prior acts alone.
      weight: new Float64Array(NUM_LANDMARKS).map((_, i) => (i === 23 || i === 24 ? 1 : 0)),
      tracked: Uint8Array.of(1),
    };
    fitToImage(model, cam, series, local, root, 300, {
      prior: g,
      rotationSigma: 100,
      depthSigma: 100,
      iterations: 12,
    });
    const x = new Float64Array(PRIOR_DIMS);
    poseFeatures(local, 0, joints, x);
    let worst = 0;
    for (let d = 0; d < PRIOR_DIMS; d++) worst = Math.max(worst, Math.abs(x[d] - mu[d]));
    expect(worst).toBeLessThan(0.02); // rad
  });

  it('on a held-out mocap trial with depth-biased world landmarks, the prior brings the joint angles closer to the truth', () => {
    // CMU 02_04 is one of the trials the prior never saw (scripts/train/cmu.ts HELD_OUT). Its image landmarks
    // are exact but for 2 px noise; its world landmarks get BlazePose-like depth errors: every landmark's depth
    // off by a slowly varying ±12 cm (the image cannot see depth, so only a prior can tell which is right).
    const doc = bvh.read(readFileSync(join(SHARED, 'testdata', 'bvh', 'cmu', 'cmu_002_04.bvh'), 'utf8'));
    const syn = synthetic.synthesize(doc, {
      seed: 3,
      maxFps: 30,
      noise2d: 2,
      noise3d: 0.01,
      dropouts: false,
      lost: false,
    });
    const rand = synthetic.mulberry32(11);
    const phase = Array.from({ length: NUM_LANDMARKS }, () => [rand() * 6.28, 0.3 + rand()]);
    syn.tracks.frames.forEach((fr, k) => {
      fr.world?.forEach((p, i) => {
        if (i === 23 || i === 24) return; // hip-centred: the hips stay
        p[2] += 0.12 * Math.sin(phase[i][0] + (2 * Math.PI * phase[i][1] * k) / 30);
      });
    });
    const run = (posePrior: number) => {
      const { clip, model: m } = solveDetailed(syn.tracks, { focalLengthPx: syn.camera.f, posePrior });
      return synthetic.landmarkMetrics(synthetic.clipLandmarks(clip, m), syn.truth, true);
    };
    const without = run(0);
    const withPrior = run(1);
    // Measured: angles 17.7° → 15.7°; positions do not improve (48.1 → 50.0 mm): why the prior is not the
    // default (see `SolveOptions.posePrior`).
    expect(withPrior.angleError).toBeLessThan(without.angleError - 1);
    expect(withPrior.mpjpe).toBeLessThan(without.mpjpe * 1.1);
  });
});
