import type { ModelName } from '../models.ts';
import { createOrtSession } from './ort.ts';
import type { ModelSession, SessionOptions } from './session.ts';

export type { Backend, ModelSession, SessionOptions } from './session.ts';

/** Loads a model on the chosen backend (default onnxruntime). */
export async function createSession(model: ModelName, options: SessionOptions = {}): Promise<ModelSession> {
  if ((options.backend ?? 'ort') === 'ort') return createOrtSession(model, options);
  // tfjs is loaded lazily: it is the slow reference backend and pulls in a large wasm module.
  const { createTfjsSession } = await import('./tfjs.ts');
  return createTfjsSession(model, options);
}
