import { mulberry32 } from '@mocap/testkit';
import { describe, expect, it } from 'vitest';
import { gaussian, MlpTrainer } from '../../../scripts/train/mlp-train.ts';
import { qConj, qRotate, readVec3, sub, type Vec3 } from '../src/math.ts';
import { NUM_LANDMARKS } from '../src/solver/input.ts';
import { LIFTER_HEIGHT, liftFrames, MIRROR } from '../src/solver/lifter.ts';
import { lifterMeta, lifterNetwork } from '../src/solver/lifter-net.ts';
import { Mlp, type MlpSpec } from '../src/solver/mlp.ts';
import { syntheticFrom } from './helpers.ts';

describe('MLP (inference and the training code)', () => {
  const spec: MlpSpec = { input: 5, hidden: 7, output: 3, blocks: 1 };

  it('backpropagation matches finite differences, and inference matches the training forward pass', () => {
    const rand = mulberry32(3);
    const net = new MlpTrainer(spec, rand);
    // Random biases too, so every ReLU pattern is exercised.
    for (let i = 0; i < net.params.length; i++) net.params[i] += gaussian(rand) * 0.3;
    const B = 4;
    const X = Float32Array.from({ length: B * spec.input }, () => gaussian(rand));
    const Y = Float32Array.from({ length: B * spec.output }, () => gaussian(rand));
    const loss = () => {
      const out = net.forward(X, B);
      let s = 0;
      for (let j = 0; j < out.length; j++) s += (out[j] - Y[j]) ** 2;
      return s;
    };
    const out = net.forward(X, B);
    const dOut = Float32Array.from(out, (o, j) => 2 * (o - Y[j]));
    net.zeroGrad();
    net.backward(X, dOut, B);
    const analytic = Float64Array.from(net.grad);
    let checked = 0;
    for (let p = 0; p < net.params.length; p += 3) {
      const keep = net.params[p];
      const h = 1e-2;
      net.params[p] = keep + h;
      const a = loss();
      net.params[p] = keep - h;
      const b = loss();
      net.params[p] = keep;
      const numeric = (a - b) / (2 * h);
      expect(Math.abs(numeric - analytic[p])).toBeLessThan(2e-2 * Math.max(1, Math.abs(numeric)));
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
    const inf = new Mlp(spec, net.params);
    const fwd = net.forward(X, B);
    const y = new Float64Array(spec.output);
    for (let b = 0; b < B; b++) {
      inf.run(X.subarray(b * spec.input, (b + 1) * spec.input), y);
      for (let o = 0; o < spec.output; o++) expect(y[o]).toBeCloseTo(fwd[b * spec.output + o], 4);
    }
  });

  it('Adam fits a known nonlinear function', () => {
    const rand = mulberry32(9);
    const net = new MlpTrainer({ input: 2, hidden: 32, output: 1, blocks: 1 }, rand);
    const f = (a: number, b: number) => Math.sin(2 * a) + b * b;
    const B = 32;
    const X = new Float32Array(B * 2);
    const Y = new Float32Array(B);
    const dOut = new Float32Array(B);
    const mse = () => {
      let s = 0;
      for (let i = 0; i < 200; i++) {
        const a = -1 + (2 * i) / 199;
        const b = Math.cos(i);
        const o = net.forward(Float32Array.of(a, b), 1)[0];
        s += (o - f(a, b)) ** 2;
      }
      return s / 200;
    };
    const before = mse();
    for (let step = 0; step < 1500; step++) {
      for (let b = 0; b < B; b++) {
        X[b * 2] = -1 + 2 * rand();
        X[b * 2 + 1] = -1 + 2 * rand();
        Y[b] = f(X[b * 2], X[b * 2 + 1]);
      }
      const out = net.forward(X, B);
      for (let b = 0; b < B; b++) dOut[b] = 2 * (out[b] - Y[b]);
      net.zeroGrad();
      net.backward(X, dOut, B);
      net.step(3e-3, B);
    }
    const after = mse();
    expect(after).toBeLessThan(0.01);
    expect(after).toBeLessThan(before / 20);
  });
});

describe('2D → 3D lifter (shipped weights)', () => {
  it('the mirror permutation swaps left and right landmarks and is its own inverse', () => {
    expect(MIRROR[11]).toBe(12);
    expect(MIRROR[29]).toBe(30);
    expect(MIRROR[0]).toBe(0);
    for (let i = 0; i < NUM_LANDMARKS; i++) expect(MIRROR[MIRROR[i]]).toBe(i);
  });

  it('lifts a held-out CMU trial seen by a synthetic camera: depth close to the truth', () => {
    // cmu_002_04 is held out of training (a quality-bench motion).
    const syn = syntheticFrom('cmu/cmu_002_04.bvh', { maxFrames: 240, dropouts: false, lost: false });
    const { N } = syn.truth;
    const image = new Float64Array(N * NUM_LANDMARKS * 2);
    const weight = new Float64Array(N * NUM_LANDMARKS).fill(1);
    const tracked = new Uint8Array(N).fill(1);
    syn.tracks.frames.forEach((fr, f) => {
      fr.image?.forEach((p, i) => {
        image.set([p[0], p[1]], (f * NUM_LANDMARKS + i) * 2);
      });
    });
    const out = new Float64Array(N * NUM_LANDMARKS * 3);
    liftFrames(lifterNetwork(), N, image, weight, tracked, out);
    // Truth in body space (camera axes, y up, z towards the camera), hip-relative, at 1.75 m.
    const qc = qConj(syn.camera.rotation);
    const k = LIFTER_HEIGHT / syn.truth.height;
    const LIMBS = [11, 12, 13, 14, 15, 16, 23, 24, 25, 26, 27, 28];
    let errLift = 0;
    let errFlat = 0;
    let n = 0;
    for (let f = 0; f < N; f++) {
      const cam = (i: number): Vec3 => {
        const c = qRotate(qc, sub(readVec3(syn.truth.landmarks, f * NUM_LANDMARKS + i), syn.camera.position));
        return [c[0], -c[1], -c[2]];
      };
      const hip = cam(23).map((v, a) => (v + cam(24)[a]) / 2) as Vec3;
      for (const i of LIMBS) {
        const t = sub(cam(i), hip).map((v) => v * k) as Vec3;
        const p = readVec3(out, f * NUM_LANDMARKS + i);
        errLift += Math.hypot(t[0] - p[0], t[1] - p[1], t[2] - p[2]);
        // Baseline: the lifted point with the depth of the hips (a flat figure).
        errFlat += Math.hypot(t[0] - p[0], t[1] - p[1], t[2]);
        n++;
      }
    }
    errLift = (errLift / n) * 1000;
    errFlat = (errFlat / n) * 1000;
    expect(errLift).toBeLessThan(90);
    expect(errLift).toBeLessThan(0.6 * errFlat);
  });

  it('ships its training note (data, commit, validation error)', () => {
    const meta = lifterMeta();
    expect(String(meta.data)).toMatch(/CMU/);
    expect(String(meta.commit)).toMatch(/^[0-9a-f]{40}$/);
    expect(Number(meta.validationMpjpeMm)).toBeGreaterThan(0);
    expect((meta.validationRmsM as number[]).length).toBe(NUM_LANDMARKS);
  });
});
