/**
 * Gaussian mixtures with full covariances: EM fitting (training scripts, tests) and evaluation (the pose
 * prior, `prior.ts`). Pure and deterministic for a seed; only the Cholesky factorisation from `math.ts`.
 *
 * A component is stored by its mean and the Cholesky factor `L` of its precision (`Σ⁻¹ = L Lᵀ`, L lower
 * triangular, row-major `D × D`), so `r = Lᵀ (x − μ)` is a whitened residual with `|r|² = (x − μ)ᵀ Σ⁻¹ (x − μ)`,
 * and `logDetCov = log |Σ|`.
 */

import { cholesky } from '../math.ts';

export interface Gmm {
  dims: number;
  /** Mixture weights (sum 1). */
  weights: Float64Array;
  /** `[K × D]` means. */
  means: Float64Array;
  /** `[K × D × D]` lower Cholesky factors of the precisions. */
  precChol: Float64Array;
  /** `[K]` log determinants of the covariances. */
  logDetCov: Float64Array;
}

/** Inverse of a lower triangular matrix (row-major). */
function invertLower(L: Float64Array, n: number): Float64Array {
  const X = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    X[j * n + j] = 1 / L[j * n + j];
    for (let i = j + 1; i < n; i++) {
      let s = 0;
      for (let k = j; k < i; k++) s -= L[i * n + k] * X[k * n + j];
      X[i * n + j] = s / L[i * n + i];
    }
  }
  return X;
}

/**
 * Precision Cholesky factor from a covariance: with `Σ = C Cᵀ`, `Σ⁻¹ = C⁻ᵀ C⁻¹`; the lower factor of that is
 * obtained from the upper-triangular `C⁻ᵀ` by a second factorisation of `Σ⁻¹`.
 */
function precisionCholesky(cov: Float64Array, n: number): { L: Float64Array; logDet: number } | null {
  const C = cholesky(cov, n);
  if (!C) return null;
  let logDet = 0;
  for (let i = 0; i < n; i++) logDet += 2 * Math.log(C[i * n + i]);
  const Ci = invertLower(C, n);
  // Σ⁻¹ = Ciᵀ Ci
  const P = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let k = Math.max(i, j); k < n; k++) s += Ci[k * n + i] * Ci[k * n + j];
      P[i * n + j] = s;
      P[j * n + i] = s;
    }
  const L = cholesky(P, n);
  return L ? { L, logDet } : null;
}

/**
 * Twice the negative log density of component k at x, without the `D log 2π` constant:
 * `|Lᵀ(x − μ)|² + log|Σ| − 2 log π`. `r` (length D) receives the whitened residual when given.
 */
export function componentCost(g: Gmm, k: number, x: ArrayLike<number>, r?: Float64Array): number {
  const D = g.dims;
  const m = k * D;
  const Lo = k * D * D;
  let s = 0;
  for (let j = 0; j < D; j++) {
    // (Lᵀ d)_j = Σ_{i ≥ j} L[i][j] d_i
    let v = 0;
    for (let i = j; i < D; i++) v += g.precChol[Lo + i * D + j] * (x[i] - g.means[m + i]);
    if (r) r[j] = v;
    s += v * v;
  }
  return s + g.logDetCov[k] - 2 * Math.log(g.weights[k]);
}

/** The component with the lowest cost at x (SMPLify's max-component approximation), and that cost. */
export function bestComponent(g: Gmm, x: ArrayLike<number>): { k: number; cost: number } {
  let best = 0;
  let bestCost = Number.POSITIVE_INFINITY;
  for (let k = 0; k < g.weights.length; k++) {
    const c = componentCost(g, k, x);
    if (c < bestCost) {
      bestCost = c;
      best = k;
    }
  }
  return { k: best, cost: bestCost };
}

/** Mean log-likelihood per sample (nats, with the 2π constant) of `[N × D]` data under the mixture. */
export function meanLogLikelihood(g: Gmm, data: ArrayLike<number>, N: number): number {
  const D = g.dims;
  const K = g.weights.length;
  const c = new Float64Array(K);
  const x = new Float64Array(D);
  let s = 0;
  for (let t = 0; t < N; t++) {
    for (let d = 0; d < D; d++) x[d] = data[t * D + d];
    s += posterior(g, x, c);
  }
  return s / N;
}

/**
 * Log-likelihood (nats, with the 2π constant) of one sample `x` under the mixture; writes each component's
 * responsibility (posterior probability) to `c`.
 */
function posterior(g: Gmm, x: Float64Array, c: Float64Array): number {
  const K = g.weights.length;
  let mx = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < K; k++) {
    c[k] = -0.5 * componentCost(g, k, x);
    mx = Math.max(mx, c[k]);
  }
  let z = 0;
  for (let k = 0; k < K; k++) {
    c[k] = Math.exp(c[k] - mx);
    z += c[k];
  }
  for (let k = 0; k < K; k++) c[k] /= z;
  return mx + Math.log(z) - 0.5 * g.dims * Math.log(2 * Math.PI);
}

export interface GmmFitOptions {
  components: number;
  iterations?: number;
  /** Added to every covariance's diagonal (variance floor). Default 1e-4. */
  regularization?: number;
  /** Seeds the k-means++ initialisation. */
  rand: () => number;
  onIteration?: (it: number, logLikelihood: number) => void;
}

/** Fits a mixture to `[N × D]` data by EM (k-means++ initialisation; responsibilities in log space). */
export function fitGmm(data: ArrayLike<number>, N: number, D: number, options: GmmFitOptions): Gmm {
  const K = Math.min(options.components, N);
  const iterations = options.iterations ?? 60;
  const reg = options.regularization ?? 1e-4;
  const rand = options.rand;
  // k-means++ seeds.
  const means = new Float64Array(K * D);
  const d2 = new Float64Array(N).fill(Number.POSITIVE_INFINITY);
  let pick = Math.floor(rand() * N);
  for (let k = 0; k < K; k++) {
    for (let d = 0; d < D; d++) means[k * D + d] = data[pick * D + d];
    let total = 0;
    for (let t = 0; t < N; t++) {
      let s = 0;
      for (let d = 0; d < D; d++) s += (data[t * D + d] - means[k * D + d]) ** 2;
      if (s < d2[t]) d2[t] = s;
      total += d2[t];
    }
    let u = rand() * total;
    pick = N - 1;
    for (let t = 0; t < N; t++) {
      u -= d2[t];
      if (u <= 0) {
        pick = t;
        break;
      }
    }
  }
  // Start: every point to its nearest seed (hard responsibilities).
  const resp = new Float64Array(N * K);
  for (let t = 0; t < N; t++) {
    let best = 0;
    let bd = Number.POSITIVE_INFINITY;
    for (let k = 0; k < K; k++) {
      let s = 0;
      for (let d = 0; d < D; d++) s += (data[t * D + d] - means[k * D + d]) ** 2;
      if (s < bd) {
        bd = s;
        best = k;
      }
    }
    resp[t * K + best] = 1;
  }
  const g: Gmm = {
    dims: D,
    weights: new Float64Array(K),
    means,
    precChol: new Float64Array(K * D * D),
    logDetCov: new Float64Array(K),
  };
  const cov = new Float64Array(D * D);
  const x = new Float64Array(D);
  const c = new Float64Array(K);
  for (let it = 0; it <= iterations; it++) {
    // M step.
    for (let k = 0; k < K; k++) {
      let nk = 0;
      means.fill(0, k * D, (k + 1) * D);
      for (let t = 0; t < N; t++) {
        const r = resp[t * K + k];
        if (r === 0) continue;
        nk += r;
        for (let d = 0; d < D; d++) means[k * D + d] += r * data[t * D + d];
      }
      if (nk < 1e-9) {
        // An empty component: re-seed it on a random point with a broad covariance.
        const t = Math.floor(rand() * N);
        for (let d = 0; d < D; d++) means[k * D + d] = data[t * D + d];
        cov.fill(0);
        for (let d = 0; d < D; d++) cov[d * D + d] = 0.1;
        nk = 1e-9;
      } else {
        for (let d = 0; d < D; d++) means[k * D + d] /= nk;
        cov.fill(0);
        for (let t = 0; t < N; t++) {
          const r = resp[t * K + k];
          if (r < 1e-12) continue;
          for (let d = 0; d < D; d++) x[d] = data[t * D + d] - means[k * D + d];
          for (let a = 0; a < D; a++) {
            const ra = r * x[a];
            for (let b = 0; b <= a; b++) cov[a * D + b] += ra * x[b];
          }
        }
        for (let a = 0; a < D; a++)
          for (let b = 0; b <= a; b++) {
            cov[a * D + b] /= nk;
            cov[b * D + a] = cov[a * D + b];
          }
      }
      for (let d = 0; d < D; d++) cov[d * D + d] += reg;
      const pc = precisionCholesky(cov, D);
      if (!pc) throw new Error('fitGmm: a covariance is not positive definite');
      g.precChol.set(pc.L, k * D * D);
      g.logDetCov[k] = pc.logDet;
      g.weights[k] = Math.max(1e-12, nk / N);
    }
    if (it === iterations) break;
    // E step.
    let ll = 0;
    for (let t = 0; t < N; t++) {
      for (let d = 0; d < D; d++) x[d] = data[t * D + d];
      ll += posterior(g, x, c);
      for (let k = 0; k < K; k++) resp[t * K + k] = c[k];
    }
    options.onIteration?.(it, ll / N);
  }
  return g;
}
