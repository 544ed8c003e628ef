/**
 * Batched training of `Mlp` (packages/motion/src/solver/mlp.ts): forward with cached activations, backward,
 * Adam. Float32 parameters, hand-written loops (2-core CPU, no native TensorFlow here).
 */
import { type MlpSpec, mlpLayers, mlpParamCount } from '../../packages/motion/src/solver/mlp.ts';

export function gaussian(rand: () => number): number {
  let u = 0;
  while (u === 0) u = rand();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

interface Layer {
  w: number;
  b: number;
  i: number;
  o: number;
}

export class MlpTrainer {
  readonly spec: MlpSpec;
  readonly params: Float32Array;
  readonly grad: Float32Array;
  private readonly m: Float32Array;
  private readonly v: Float32Array;
  private readonly layers: Layer[];
  private t = 0;
  private acts: Float32Array[] = [];
  private B = 0;

  constructor(spec: MlpSpec, rand: () => number) {
    this.spec = spec;
    const n = mlpParamCount(spec);
    this.params = new Float32Array(n);
    this.grad = new Float32Array(n);
    this.m = new Float32Array(n);
    this.v = new Float32Array(n);
    let o = 0;
    this.layers = mlpLayers(spec).map(([i, out]) => {
      const r = { w: o, b: o + i * out, i, o: out };
      o += i * out + out;
      return r;
    });
    this.layers.forEach((L, k) => {
      // He initialisation; the second layer of each residual block starts small (the block ≈ identity).
      const inBlock = k > 0 && k < this.layers.length - 1 && k % 2 === 0;
      const sd = Math.sqrt(2 / L.i) * (inBlock ? 0.1 : 1) * (k === this.layers.length - 1 ? 0.5 : 1);
      for (let j = 0; j < L.i * L.o; j++) this.params[L.w + j] = gaussian(rand) * sd;
    });
  }

  private ensure(B: number): void {
    if (this.B === B) return;
    this.B = B;
    const H = this.spec.hidden;
    // a0, (t1, t2, a) per block, out
    this.acts = [new Float32Array(B * H)];
    for (let b = 0; b < this.spec.blocks; b++)
      this.acts.push(new Float32Array(B * H), new Float32Array(B * H), new Float32Array(B * H));
    this.acts.push(new Float32Array(B * this.spec.output));
  }

  private fwd(L: Layer, X: Float32Array, Y: Float32Array, B: number, relu: boolean): void {
    const P = this.params;
    const { i: nI, o: nO } = L;
    for (let r = 0; r < B; r++) {
      const yo = r * nO;
      for (let o = 0; o < nO; o++) Y[yo + o] = P[L.b + o];
      const xo = r * nI;
      for (let i = 0; i < nI; i++) {
        const x = X[xo + i];
        if (x === 0) continue;
        const wo = L.w + i * nO;
        for (let o = 0; o < nO; o++) Y[yo + o] += x * P[wo + o];
      }
      if (relu) for (let o = 0; o < nO; o++) if (Y[yo + o] < 0) Y[yo + o] = 0;
    }
  }

  /** Forward pass of a batch `X` `[B × input]`; returns the output `[B × output]` (a view, reused). */
  forward(X: Float32Array, B: number): Float32Array {
    this.ensure(B);
    const A = this.acts;
    this.fwd(this.layers[0], X, A[0], B, true);
    let k = 1;
    let a = A[0];
    for (let b = 0; b < this.spec.blocks; b++) {
      const t1 = A[1 + b * 3];
      const t2 = A[2 + b * 3];
      const na = A[3 + b * 3];
      this.fwd(this.layers[k++], a, t1, B, true);
      this.fwd(this.layers[k++], t1, t2, B, true);
      for (let j = 0; j < na.length; j++) na[j] = a[j] + t2[j];
      a = na;
    }
    const out = A[A.length - 1];
    this.fwd(this.layers[k], a, out, B, false);
    return out;
  }

  /** dW += Xᵀ G, db += Σ G; returns dX = G Wᵀ (masked by `mask > 0` when given) into `dX` if not null. */
  private bwd(
    L: Layer,
    X: Float32Array,
    G: Float32Array,
    B: number,
    dX: Float32Array | null,
    mask: Float32Array | null,
  ): void {
    const P = this.params;
    const D = this.grad;
    const { i: nI, o: nO } = L;
    for (let r = 0; r < B; r++) {
      const go = r * nO;
      for (let o = 0; o < nO; o++) D[L.b + o] += G[go + o];
      const xo = r * nI;
      for (let i = 0; i < nI; i++) {
        const x = X[xo + i];
        const wo = L.w + i * nO;
        if (x !== 0) for (let o = 0; o < nO; o++) D[wo + o] += x * G[go + o];
        if (dX) {
          if (mask && !(mask[xo + i] > 0)) {
            dX[xo + i] = 0;
            continue;
          }
          let s = 0;
          for (let o = 0; o < nO; o++) s += G[go + o] * P[wo + o];
          dX[xo + i] = s;
        }
      }
    }
  }

  /** Backward pass for the last forward batch with output gradient `dOut` `[B × output]`. */
  backward(X: Float32Array, dOut: Float32Array, B: number): void {
    const A = this.acts;
    const H = this.spec.hidden;
    const nb = this.spec.blocks;
    let k = this.layers.length - 1;
    const aLast = nb > 0 ? A[3 + (nb - 1) * 3] : A[0];
    let da = new Float32Array(B * H);
    this.bwd(this.layers[k--], aLast, dOut, B, da, null);
    const dt1 = new Float32Array(B * H);
    const dt2 = new Float32Array(B * H);
    for (let b = nb - 1; b >= 0; b--) {
      const aPrev = b > 0 ? A[3 + (b - 1) * 3] : A[0];
      const t1 = A[1 + b * 3];
      const t2 = A[2 + b * 3];
      for (let j = 0; j < dt2.length; j++) dt2[j] = t2[j] > 0 ? da[j] : 0;
      this.bwd(this.layers[k--], t1, dt2, B, dt1, t1);
      const daPrev = new Float32Array(B * H);
      this.bwd(this.layers[k--], aPrev, dt1, B, daPrev, null);
      for (let j = 0; j < daPrev.length; j++) daPrev[j] += da[j];
      da = daPrev;
    }
    const a0 = A[0];
    for (let j = 0; j < da.length; j++) if (!(a0[j] > 0)) da[j] = 0;
    this.bwd(this.layers[0], X, da, B, null, null);
  }

  zeroGrad(): void {
    this.grad.fill(0);
  }

  /** Adam step (gradients are sums over the batch: scaled by 1/B here). */
  step(lr: number, B: number, b1 = 0.9, b2 = 0.999, eps = 1e-8): void {
    this.t++;
    const c1 = 1 - b1 ** this.t;
    const c2 = 1 - b2 ** this.t;
    const { params: P, grad: G, m, v } = this;
    for (let i = 0; i < P.length; i++) {
      const g = G[i] / B;
      m[i] = b1 * m[i] + (1 - b1) * g;
      v[i] = b2 * v[i] + (1 - b2) * g * g;
      P[i] -= (lr * (m[i] / c1)) / (Math.sqrt(v[i] / c2) + eps);
    }
  }
}
