/**
 * Non-causal robust smoothing (the whole clip is known: look ahead as well as behind).
 *
 * The smoother is a Whittaker–Henderson penalised least squares fit: for a signal y with data weights w it
 * finds z minimising
 *
 *     Σ_t w_t |y_t - z_t|²  +  λ Σ_t v_t |Δ^d z_t|²
 *
 * where Δ^d is the d-th finite difference (d = 3: jerk). Its frequency response is
 * `1 / (1 + λ (2 sin(π f / fs))^(2d))`, so a cut-off frequency fc gives `λ = (2 sin(π fc / fs))^(-2d)`.
 * It is solved exactly with a banded Cholesky factorisation, O(N d²).
 *
 * Robustness, by iteratively reweighted least squares:
 * - data weights get a Tukey-biweight factor from the residuals (outliers, tracking glitches → ignored);
 * - penalty weights v_t get a Huber factor from the size of Δ^d z: differences far above the clip's typical
 *   size (an impact, a clap, a sudden stop) are penalised linearly instead of quadratically, so sharp hits
 *   stay sharp while small noisy wiggles are smoothed away.
 * Multichannel signals (x, y, z of a point; quaternion components) share the robust weights.
 */

export interface SmoothOptions {
  /** Cut-off frequency in Hz; `Infinity` or ≤ 0 disables smoothing (the data is returned as is). */
  cutoffHz: number;
  fps: number;
  /** Difference order d (2 = acceleration, 3 = jerk). Default 3. */
  order?: 2 | 3;
  /** Robust iterations (0 = plain quadratic smoothing). Default 6. */
  robustIterations?: number;
  /** Keep sharp events: Huber threshold on |Δ^d z| in units of its median over the clip (default 3; ∞ = off). */
  hitThreshold?: number;
  /** Tukey threshold on residuals in units of the robust noise scale (default 12: only gross glitches, so the
   *  samples at a sharp hit are not mistaken for outliers; ∞ = off). */
  outlierThreshold?: number;
  /**
   * Data-driven strength: when set, λ is chosen per signal by generalised cross-validation (the λ that best
   * predicts left-out samples, i.e. balances noise against lag for this particular track), multiplied by
   * `autoScale`, and kept between the cut-offs `cutoffHz` (upper bound) and `minCutoffHz`.
   */
  auto?: { scale: number; minCutoffHz: number };
}

/** λ for a cut-off frequency (half-power point) of a d-th order Whittaker smoother. */
export function lambdaForCutoff(cutoffHz: number, fps: number, order: number): number {
  const f = Math.min(cutoffHz, fps / 2) / fps;
  const s = 2 * Math.sin(Math.PI * f);
  return s ** (-2 * order);
}

/**
 * λ minimising the generalised cross-validation score `RSS / (1 - tr(H)/n)²` over a log grid in
 * [lMin, lMax]. tr(H) uses the eigenvalues of the free-boundary difference penalty,
 * `(2 sin(πk / 2n))^(2d)`, a close approximation for long signals.
 */
function gcvLambda(
  y: Float64Array,
  N: number,
  C: number,
  w: Float64Array,
  n: number,
  d: number,
  lMin: number,
  lMax: number,
): number {
  const v = new Float64Array(Math.max(0, N - d)).fill(1);
  const eig = new Float64Array(n);
  for (let k = 0; k < n; k++) eig[k] = (2 * Math.sin((Math.PI * k) / (2 * n))) ** (2 * d);
  const steps = 14;
  let best = lMin;
  let bestScore = Number.POSITIVE_INFINITY;
  for (let i = 0; i <= steps; i++) {
    const lambda = lMin * (lMax / lMin) ** (i / steps);
    const z = solveWhittaker(y, N, C, w, v, lambda, d);
    let rss = 0;
    for (let t = 0; t < N; t++) {
      if (w[t] <= 1e-4) continue;
      for (let c = 0; c < C; c++) rss += w[t] * (y[t * C + c] - z[t * C + c]) ** 2;
    }
    let tr = 0;
    for (let k = 0; k < n; k++) tr += 1 / (1 + lambda * eig[k]);
    const score = rss / n / (1 - tr / n) ** 2;
    if (score < bestScore) {
      bestScore = score;
      best = lambda;
    }
  }
  return best;
}

/** Binomial coefficients of Δ^d with alternating signs: d=2 → [1,-2,1], d=3 → [-1,3,-3,1]. */
function diffCoefficients(d: number): number[] {
  let c = [1];
  for (let k = 0; k < d; k++) {
    const n = new Array(c.length + 1).fill(0);
    for (let i = 0; i < c.length; i++) {
      n[i] -= c[i];
      n[i + 1] += c[i];
    }
    c = n;
  }
  return c;
}

/**
 * Solves (diag(w) + λ Dᵀ diag(v) D) z = diag(w) y for each channel. `y` is `[N × C]` row-major (frame-major).
 * Returns z with the same layout.
 */
function solveWhittaker(
  y: Float64Array,
  N: number,
  C: number,
  w: Float64Array,
  v: Float64Array,
  lambda: number,
  d: number,
  steps?: StepTargets,
): Float64Array {
  const coef = diffCoefficients(d);
  const bw = Math.max(1, d); // half bandwidth
  // Symmetric banded matrix A stored as band[i * (bw + 1) + k] = A[i][i + k], k = 0..bw.
  const W = bw + 1;
  const band = new Float64Array(N * W);
  for (let i = 0; i < N; i++) band[i * W] = w[i];
  // Rows of D: r = 0..N-d-1, D[r][r + a] = coef[a].
  for (let r = 0; r + d < N; r++) {
    const lv = lambda * v[r];
    if (lv === 0) continue;
    for (let a = 0; a <= d; a++) {
      for (let b = a; b <= d; b++) {
        band[(r + a) * W + (b - a)] += lv * coef[a] * coef[b];
      }
    }
  }
  // Step terms c_t |z_t - z_{t-1} - s_t|²: rows (e_t - e_{t-1}).
  if (steps) {
    for (let t = 1; t < N; t++) {
      const c = steps.weight[t];
      if (!(c > 0)) continue;
      band[t * W] += c;
      band[(t - 1) * W] += c;
      band[(t - 1) * W + 1] -= c;
    }
  }
  // Banded LDLᵀ in place: L unit lower (stored as band[(i)*W + k] for L[i+k][i]), D diag in band[i*W].
  for (let i = 0; i < N; i++) {
    // band[i*W] currently A[i][i] minus updates; compute D_i.
    const di = band[i * W];
    if (!(Math.abs(di) > 1e-300)) throw new Error('smoother: singular system');
    for (let k = 1; k <= bw && i + k < N; k++) {
      const lik = band[i * W + k] / di; // L[i+k][i]
      // Update rows i+k: A[i+k][i+m] -= L[i+k][i] * D_i * L[i+m][i] for m >= k.
      for (let m = k; m <= bw && i + m < N; m++) {
        band[(i + k) * W + (m - k)] -= lik * band[i * W + m];
      }
    }
    for (let k = 1; k <= bw && i + k < N; k++) band[i * W + k] /= di;
  }
  const z = new Float64Array(N * C);
  for (let c = 0; c < C; c++) {
    // Forward: L x = b.
    const x = new Float64Array(N);
    const rhs = new Float64Array(N);
    for (let i = 0; i < N; i++) rhs[i] = w[i] * y[i * C + c];
    if (steps) {
      for (let t = 1; t < N; t++) {
        const ct = steps.weight[t];
        if (!(ct > 0)) continue;
        const st = steps.target[t * C + c];
        rhs[t] += ct * st;
        rhs[t - 1] -= ct * st;
      }
    }
    for (let i = 0; i < N; i++) {
      let s = rhs[i];
      for (let k = 1; k <= bw && i - k >= 0; k++) s -= band[(i - k) * W + k] * x[i - k];
      x[i] = s;
    }
    for (let i = 0; i < N; i++) x[i] /= band[i * W];
    // Backward: Lᵀ z = x.
    for (let i = N - 1; i >= 0; i--) {
      let s = x[i];
      for (let k = 1; k <= bw && i + k < N; k++) s -= band[i * W + k] * z[(i + k) * C + c];
      z[i * C + c] = s;
    }
  }
  return z;
}

/**
 * Frames without data (weight ≤ 1e-6) get values by linear interpolation between their neighbours with data,
 * or the nearest data at the ends, and a tiny weight (1e-4), so the smoothing system stays well posed and
 * gaps are bridged sensibly (held, not extrapolated). Null when no frame has data.
 */
function fillGaps(
  y: ArrayLike<number>,
  N: number,
  C: number,
  weights: ArrayLike<number> | null,
): { y: Float64Array; w: Float64Array; valid: number[] } | null {
  const w0 = new Float64Array(N);
  for (let i = 0; i < N; i++) w0[i] = weights ? Math.max(0, weights[i]) : 1;
  const valid: number[] = [];
  for (let i = 0; i < N; i++) if (w0[i] > 1e-6) valid.push(i);
  if (valid.length === 0) return null;
  const yy = Float64Array.from(y);
  for (let i = 0, vi = 0; i < N; i++) {
    if (w0[i] > 1e-6) continue;
    while (vi < valid.length && valid[vi] < i) vi++;
    const hi = valid[Math.min(vi, valid.length - 1)];
    const lo = valid[Math.max(0, vi - 1)];
    const a = hi > lo ? (i - lo) / (hi - lo) : 0;
    const t = Math.max(0, Math.min(1, a));
    for (let c = 0; c < C; c++) yy[i * C + c] = yy[lo * C + c] + (yy[hi * C + c] - yy[lo * C + c]) * t;
    w0[i] = 1e-4;
  }
  return { y: yy, w: w0, valid };
}

/** Copies the first/last frame with data over the frames before/after it (no extrapolation at the ends). */
function holdEnds(z: Float64Array, N: number, C: number, valid: number[]): Float64Array {
  const first = valid[0];
  const last = valid[valid.length - 1];
  for (let i = 0; i < first; i++) for (let c = 0; c < C; c++) z[i * C + c] = z[first * C + c];
  for (let i = last + 1; i < N; i++) for (let c = 0; c < C; c++) z[i * C + c] = z[last * C + c];
  return z;
}

/** Targets for frame-to-frame steps: `weight[t]` for the step t-1 → t (0 = none), `target` `[N × C]`. */
export interface StepTargets {
  weight: ArrayLike<number>;
  target: ArrayLike<number>;
}

/**
 * Whittaker smoothing with extra step constraints: minimises
 * `Σ w_t |y_t - z_t|² + λ Σ |Δ^d z_t|² + Σ c_t |z_t - z_{t-1} - s_t|²` (no robust reweighting).
 * Used for the root trajectory: absolute positions from the image, steps from planted feet.
 */
export function smoothWithSteps(
  y: ArrayLike<number>,
  N: number,
  C: number,
  weights: ArrayLike<number>,
  steps: StepTargets,
  opts: SmoothOptions,
): Float64Array {
  const d = opts.order ?? 2;
  const lambda =
    Number.isFinite(opts.cutoffHz) && opts.cutoffHz > 0 ? lambdaForCutoff(opts.cutoffHz, opts.fps, d) : 0;
  const filled = fillGaps(y, N, C, weights);
  if (!filled) return Float64Array.from(y);
  const v = new Float64Array(Math.max(0, N - d)).fill(1);
  return holdEnds(solveWhittaker(filled.y, N, C, filled.w, v, lambda, d, steps), N, C, filled.valid);
}

function medianOf(a: ArrayLike<number>): number {
  const b = Array.from(a).filter((x) => Number.isFinite(x));
  if (b.length === 0) return 0;
  b.sort((p, q) => p - q);
  const m = b.length >> 1;
  return b.length % 2 ? b[m] : (b[m - 1] + b[m]) / 2;
}

/**
 * Smooths a multichannel signal `y` (`[N × C]`, frame-major) with per-frame data weights `weights` (0 = no
 * data: the frame is interpolated). Frames with zero weight at the ends are held at the nearest data.
 */
export function smoothSignal(
  y: ArrayLike<number>,
  N: number,
  C: number,
  weights: ArrayLike<number> | null,
  opts: SmoothOptions,
): Float64Array {
  const out = Float64Array.from(y);
  if (N === 0) return out;
  const filled = fillGaps(y, N, C, weights);
  if (!filled) return out;
  const { y: yy, w: w0, valid } = filled;
  if (!(opts.cutoffHz > 0) || !Number.isFinite(opts.cutoffHz) || N <= (opts.order ?? 3) + 1) {
    return weights ? yy : out;
  }
  const d = opts.order ?? 3;
  let lambda = lambdaForCutoff(opts.cutoffHz, opts.fps, d);
  if (opts.auto) {
    const lMax = lambdaForCutoff(opts.auto.minCutoffHz, opts.fps, d);
    lambda = Math.min(
      lMax,
      Math.max(lambda, gcvLambda(yy, N, C, w0, valid.length, d, lambda, lMax) * opts.auto.scale),
    );
  }
  const iters = opts.robustIterations ?? 6;
  const hit = opts.hitThreshold ?? 3;
  const outl = opts.outlierThreshold ?? 12;
  const w = Float64Array.from(w0);
  const v = new Float64Array(Math.max(0, N - d)).fill(1);
  let z = solveWhittaker(yy, N, C, w, v, lambda, d);
  const coef = diffCoefficients(d);
  for (let it = 0; it < iters; it++) {
    // Residual scale from frames with real data.
    const res = new Float64Array(N);
    for (let i = 0; i < N; i++) {
      let s = 0;
      for (let c = 0; c < C; c++) s += (yy[i * C + c] - z[i * C + c]) ** 2;
      res[i] = Math.sqrt(s);
    }
    const resValid = valid.map((i) => res[i]);
    const sigma = medianOf(resValid) * 1.4826 + 1e-12;
    if (Number.isFinite(outl)) {
      for (let i = 0; i < N; i++) {
        if (w0[i] <= 1e-4) continue;
        const u = res[i] / (outl * sigma);
        w[i] = u < 1 ? w0[i] * (1 - u * u) ** 2 : w0[i] * 1e-3;
      }
    }
    if (Number.isFinite(hit)) {
      const mags = new Float64Array(N - d);
      for (let r = 0; r + d < N; r++) {
        let s = 0;
        for (let c = 0; c < C; c++) {
          let dz = 0;
          for (let a = 0; a <= d; a++) dz += coef[a] * z[(r + a) * C + c];
          s += dz * dz;
        }
        mags[r] = Math.sqrt(s);
      }
      const scaleD = medianOf(mags) + 1e-12;
      for (let r = 0; r < mags.length; r++) {
        // Only where every frame of the difference has data: gaps are bridged smoothly, not by kinks.
        let data = true;
        for (let a = 0; a <= d; a++) if (w0[r + a] <= 1e-4) data = false;
        const u = mags[r] / (hit * scaleD);
        v[r] = data && u > 1 ? 1 / u : 1;
      }
    }
    z = solveWhittaker(yy, N, C, w, v, lambda, d);
  }
  return holdEnds(z, N, C, valid);
}

/**
 * Smooths a quaternion track (`[N × 4]`, x y z w) by smoothing its components on a sign-continuous path
 * and renormalising. Good for the small-to-moderate frame-to-frame rotations of animation.
 */
export function smoothQuaternions(
  q: ArrayLike<number>,
  N: number,
  weights: ArrayLike<number> | null,
  opts: SmoothOptions,
): Float64Array {
  const y = Float64Array.from(q);
  for (let i = 1; i < N; i++) {
    let dp = 0;
    for (let c = 0; c < 4; c++) dp += y[i * 4 + c] * y[(i - 1) * 4 + c];
    if (dp < 0) for (let c = 0; c < 4; c++) y[i * 4 + c] = -y[i * 4 + c];
  }
  const z = smoothSignal(y, N, 4, weights, opts);
  for (let i = 0; i < N; i++) {
    const l = Math.hypot(z[i * 4], z[i * 4 + 1], z[i * 4 + 2], z[i * 4 + 3]) || 1;
    for (let c = 0; c < 4; c++) z[i * 4 + c] /= l;
  }
  return z;
}
