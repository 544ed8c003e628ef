/**
 * A small multilayer perceptron for the solver's learned parts (inference only; training lives in
 * `scripts/train/`). Architecture (Martinez et al. 2017, smaller): input → H (ReLU), then `blocks` residual
 * blocks of two H → H layers (ReLU) with an identity skip, then H → output (linear).
 *
 * Weights are stored as JSON: `{ sizes: [in, hidden, out], blocks, data: base64 of little-endian float32 }`,
 * layers in order, each as W (`in × out`, row-major by input) followed by b. Pure and allocation-light:
 * a `Mlp` keeps its scratch buffers.
 */

export interface MlpSpec {
  input: number;
  hidden: number;
  output: number;
  blocks: number;
}

export interface MlpJson {
  format: 'mocap-mlp';
  version: 1;
  spec: MlpSpec;
  /** Base64 of the float32 parameters (little-endian). */
  data: string;
  /** Input normalisation: x' = (x - mean) / std per input (applied by the caller's feature code). */
  meta?: Record<string, unknown>;
}

/** Layer shapes `[in, out]` in storage order. */
export function mlpLayers(spec: MlpSpec): [number, number][] {
  const out: [number, number][] = [[spec.input, spec.hidden]];
  for (let b = 0; b < spec.blocks; b++) out.push([spec.hidden, spec.hidden], [spec.hidden, spec.hidden]);
  out.push([spec.hidden, spec.output]);
  return out;
}

export function mlpParamCount(spec: MlpSpec): number {
  return mlpLayers(spec).reduce((s, [i, o]) => s + i * o + o, 0);
}

export function decodeFloat32(base64: string): Float32Array {
  const bin =
    typeof Buffer !== 'undefined'
      ? Uint8Array.from(Buffer.from(base64, 'base64'))
      : Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const out = new Float32Array(bin.length / 4);
  const dv = new DataView(bin.buffer, bin.byteOffset, bin.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = dv.getFloat32(i * 4, true);
  return out;
}

export function encodeFloat32(data: Float32Array): string {
  const bytes = new Uint8Array(data.length * 4);
  const dv = new DataView(bytes.buffer);
  for (let i = 0; i < data.length; i++) dv.setFloat32(i * 4, data[i], true);
  return Buffer.from(bytes).toString('base64');
}

/** Inference for one sample at a time. */
export class Mlp {
  readonly spec: MlpSpec;
  private readonly params: Float32Array;
  private readonly offsets: { w: number; b: number; i: number; o: number }[];
  private readonly h1: Float64Array;
  private readonly h2: Float64Array;
  private readonly h3: Float64Array;

  constructor(spec: MlpSpec, params: Float32Array) {
    this.spec = spec;
    if (params.length !== mlpParamCount(spec)) throw new Error('Mlp: parameter count mismatch');
    this.params = params;
    let o = 0;
    this.offsets = mlpLayers(spec).map(([i, out]) => {
      const r = { w: o, b: o + i * out, i, o: out };
      o += i * out + out;
      return r;
    });
    this.h1 = new Float64Array(spec.hidden);
    this.h2 = new Float64Array(spec.hidden);
    this.h3 = new Float64Array(spec.hidden);
  }

  static fromJson(json: MlpJson): Mlp {
    return new Mlp(json.spec, decodeFloat32(json.data));
  }

  private layer(k: number, x: ArrayLike<number>, y: Float64Array | Float32Array, relu: boolean): void {
    const { w, b, i: nIn, o: nOut } = this.offsets[k];
    const P = this.params;
    for (let o = 0; o < nOut; o++) y[o] = P[b + o];
    for (let i = 0; i < nIn; i++) {
      const xi = x[i];
      if (xi === 0) continue;
      const row = w + i * nOut;
      for (let o = 0; o < nOut; o++) y[o] += xi * P[row + o];
    }
    if (relu) for (let o = 0; o < nOut; o++) if (y[o] < 0) y[o] = 0;
  }

  /** Runs the network on `x` (length `input`), writing `output` values to `y`. */
  run(x: ArrayLike<number>, y: Float64Array | Float32Array): void {
    const { h1, h2, h3 } = this;
    this.layer(0, x, h1, true);
    let k = 1;
    for (let b = 0; b < this.spec.blocks; b++) {
      this.layer(k++, h1, h2, true);
      this.layer(k++, h2, h3, true);
      for (let i = 0; i < h1.length; i++) h1[i] += h3[i];
    }
    this.layer(k, h1, y, false);
  }
}
