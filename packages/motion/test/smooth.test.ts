import { mulberry32 } from '@mocap/testkit';
import { describe, expect, it } from 'vitest';
import { lambdaForCutoff, smoothSignal, smoothWithSteps } from '../src/solver/smooth.ts';

function gauss(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(Math.max(1e-12, rand()))) * Math.cos(2 * Math.PI * rand());
}

const rms = (a: ArrayLike<number>, b: ArrayLike<number>, from = 0, to = a.length) => {
  let s = 0;
  for (let i = from; i < to; i++) s += (a[i] - b[i]) ** 2;
  return Math.sqrt(s / (to - from));
};

describe('robust non-causal smoother', () => {
  const fps = 30;
  const N = 300;
  const truth = Float64Array.from({ length: N }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 0.7 * i) / fps));
  const rand = mulberry32(3);
  const noisy = truth.map((v) => v + 0.02 * gauss(rand));

  it('λ matches the half-power cut-off of its frequency response', () => {
    const lambda = lambdaForCutoff(3, 30, 2);
    const s = 2 * Math.sin((Math.PI * 3) / 30);
    expect(1 / (1 + lambda * s ** 4)).toBeCloseTo(0.5, 10);
  });

  it('removes most white noise from a smooth motion', () => {
    const z = smoothSignal(noisy, N, 1, null, { cutoffHz: 3, fps, order: 2 });
    expect(rms(z, truth, 5, N - 5)).toBeLessThan(0.5 * rms(noisy, truth));
    // Cross-validation picks a stronger smoothing for this slow motion than a fixed 3 Hz.
    const auto = smoothSignal(noisy, N, 1, null, {
      cutoffHz: 8,
      fps,
      order: 2,
      auto: { scale: 1, minCutoffHz: 0.8 },
    });
    expect(rms(auto, truth, 5, N - 5)).toBeLessThan(rms(z, truth, 5, N - 5));
  });

  it('ignores outliers and bridges frames without data (held at the ends)', () => {
    const y = Float64Array.from(noisy);
    for (const i of [50, 51, 120, 200]) y[i] += 0.5;
    const w = new Float64Array(N).fill(1);
    for (let i = 150; i < 158; i++) {
      w[i] = 0;
      y[i] = 99; // garbage where there is no data
    }
    for (let i = 0; i < 10; i++) w[i] = 0;
    const z = smoothSignal(y, N, 1, w, { cutoffHz: 3, fps, order: 2 });
    for (const i of [50, 51, 120, 200]) expect(Math.abs(z[i] - truth[i])).toBeLessThan(0.03);
    for (let i = 150; i < 158; i++) expect(Math.abs(z[i] - truth[i])).toBeLessThan(0.04);
    for (let i = 0; i < 10; i++) expect(z[i]).toBe(z[10]);
  });

  it('keeps sharp hits: a clap still touches, unlike with a plain low-pass', () => {
    // Two hands approach at 2 m/s, touch for one frame and bounce apart: distance |x|.
    const M = 120;
    const t0 = 60;
    const clap = Float64Array.from({ length: M }, (_, i) => Math.min(0.6, (2 * Math.abs(i - t0)) / fps));
    const r = mulberry32(9);
    const y = clap.map((v) => v + 0.01 * gauss(r));
    const robust = smoothSignal(y, M, 1, null, { cutoffHz: 3, fps, order: 2 });
    const plain = smoothSignal(y, M, 1, null, { cutoffHz: 3, fps, order: 2, robustIterations: 0 });
    const minNear = (z: Float64Array) => Math.min(...Array.from(z.subarray(t0 - 3, t0 + 4)));
    expect(minNear(plain)).toBeGreaterThan(0.05);
    expect(minNear(robust)).toBeLessThan(0.015);
    expect(rms(robust, clap)).toBeLessThan(0.7 * rms(plain, clap));
  });

  it('step constraints carry the trajectory where the absolute data is noisy', () => {
    // A root moving at 1 m/s: noisy absolute positions, exact steps from a planted foot.
    const M = 90;
    const truthR = Float64Array.from({ length: M }, (_, i) => i / fps);
    const r = mulberry32(4);
    const y = truthR.map((v) => v + 0.05 * gauss(r));
    const stepW = new Float64Array(M).fill(400);
    stepW[0] = 0;
    const stepT = Float64Array.from({ length: M }, () => 1 / fps);
    const z = smoothWithSteps(
      y,
      M,
      1,
      new Float64Array(M).fill(1),
      { weight: stepW, target: stepT },
      {
        cutoffHz: 2,
        fps,
        order: 2,
      },
    );
    for (let i = 1; i < M; i++) expect(Math.abs(z[i] - z[i - 1] - 1 / fps)).toBeLessThan(0.002);
    expect(rms(z, truthR)).toBeLessThan(0.3 * rms(y, truthR));
  });
});
