import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { loadGraphModel } from '@tensorflow/tfjs-converter';
import * as tf from '@tensorflow/tfjs-core';
import { readTfjsModel } from '../convert/tfjs-graph.ts';
import { type ModelName, modelJsonPath } from '../models.ts';
import type { ModelSession, SessionOptions } from './session.ts';

/**
 * The reference backend: the original TF.js graph model executed by tfjs-wasm (SIMD, one thread).
 * Slow, but it is the implementation the models were published for; tests compare our ONNX path to it.
 */

const require = createRequire(import.meta.url);
let ready: Promise<void> | undefined;

async function initWasm(): Promise<void> {
  const dist = join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist');
  setWasmPaths(`${dist}/`);
  // Node's fetch cannot read file paths: tfjs-wasm then falls back to reading the .wasm with fs.
  tf.env().set('IS_BROWSER', false);
  if (!(await tf.setBackend('wasm'))) throw new Error('tfjs-wasm backend failed to initialise');
  await tf.ready();
}

export async function createTfjsSession(
  model: ModelName,
  options: SessionOptions = {},
): Promise<ModelSession> {
  ready ??= initWasm();
  await ready;
  const source = await readTfjsModel(modelJsonPath(model));
  const json = source.json;
  const graph = await loadGraphModel({
    load: async () => ({
      modelTopology: json.modelTopology,
      format: json.format,
      generatedBy: json.generatedBy,
      convertedBy: json.convertedBy,
      signature: json.signature,
      weightSpecs: json.weightsManifest.flatMap((g) => g.weights) as never,
      weightData: source.weightData.slice().buffer,
    }),
  });
  let sigOutputs = Object.entries(json.signature?.outputs ?? {}).map(([k, o]) => [k, o.name] as const);
  if (sigOutputs.length === 0) sigOutputs = graph.outputNodes.map((n) => [n, `${n}:0`] as const);
  const wanted = sigOutputs.filter(([key]) => !options.outputs || options.outputs.includes(key));
  const placeholder = json.modelTopology.node.find((n) => n.op === 'Placeholder');
  const inputDims = (placeholder?.attr?.shape?.shape?.dim ?? []).map((d) => Number(d.size));
  const inputShape = [1, inputDims[1], inputDims[2], inputDims[3]];
  return {
    model,
    backend: 'tfjs',
    inputShape,
    sourceSha256: source.sha256,
    async run(input) {
      const x = tf.tensor(input, inputShape, 'float32');
      try {
        const names = wanted.map(([, name]) => name);
        const result = graph.execute(x, names) as tf.Tensor | tf.Tensor[];
        const tensors = Array.isArray(result) ? result : [result];
        const out: Record<string, Float32Array> = {};
        for (let i = 0; i < wanted.length; i++) {
          out[wanted[i][0]] = (await tensors[i].data()) as Float32Array;
          tensors[i].dispose();
        }
        return out;
      } finally {
        x.dispose();
      }
    },
    async dispose() {
      graph.dispose();
    },
  };
}
