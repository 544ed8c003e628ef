import * as ort from 'onnxruntime-node';
import { convertCached } from '../convert/cache.ts';
import { type ModelName, modelJsonPath } from '../models.ts';
import type { ModelSession, SessionOptions } from './session.ts';

/** Loads a model through our TF.js → ONNX conversion (cached on disk) into onnxruntime-node (CPU). */
export async function createOrtSession(
  model: ModelName,
  options: SessionOptions = {},
): Promise<ModelSession> {
  const cached = await convertCached(modelJsonPath(model), model, { outputs: options.outputs });
  const session = await ort.InferenceSession.create(cached.path, {
    executionProviders: ['cpu'],
    intraOpNumThreads: options.threads ?? 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
  });
  const inputName = session.inputNames[0];
  const meta = session.inputMetadata[0] as { shape?: (number | string)[] } | undefined;
  const inputShape = (meta?.shape ?? []).map(Number);
  return {
    model,
    backend: 'ort',
    inputShape,
    sourceSha256: cached.sourceSha256,
    async run(input) {
      const feeds = { [inputName]: new ort.Tensor('float32', input, inputShape) };
      const result = await session.run(feeds);
      const out: Record<string, Float32Array> = {};
      for (const name of session.outputNames) out[name] = result[name].data as Float32Array;
      return out;
    },
    async dispose() {
      await session.release();
    },
  };
}
