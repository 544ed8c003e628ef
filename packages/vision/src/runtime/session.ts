import type { ModelName } from '../models.ts';

/** Which engine runs the models: onnxruntime-node on our converted ONNX (default) or tfjs-wasm (reference). */
export type Backend = 'ort' | 'tfjs';

export interface SessionOptions {
  backend?: Backend;
  /** Intra-op threads (onnxruntime) — default 1: we parallelise over frames instead. */
  threads?: number;
  /** Signature outputs to compute (others are pruned from the converted graph). Default: all. */
  outputs?: string[];
}

/** One loaded model, batch 1, NHWC float32 input. */
export interface ModelSession {
  readonly model: ModelName;
  readonly backend: Backend;
  /** [1, height, width, channels]. */
  readonly inputShape: readonly number[];
  /** sha256 of the source TF.js model. */
  readonly sourceSha256: string;
  /** Runs the model; outputs keyed by signature output name, flattened in NHWC order. */
  run(input: Float32Array): Promise<Record<string, Float32Array>>;
  dispose(): Promise<void>;
}
