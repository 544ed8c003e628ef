import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CONVERTER_VERSION, type ConvertOptions, convertTfjsToOnnx } from './converter.ts';
import { hashTfjsModel, readTfjsModel } from './tfjs-graph.ts';

/**
 * On-disk cache of converted models, keyed by the sha256 of the source model (JSON + weights), the converter
 * version and the conversion options. Writes are atomic (temp file + rename), so concurrent processes are safe.
 */

export function cacheDir(): string {
  return process.env.MOCAP_CACHE_DIR ?? join(homedir(), '.cache', 'mocap');
}

export interface CachedModel {
  path: string;
  /** sha256 of the source TF.js model. */
  sourceSha256: string;
  /** True when this call converted the model (cache miss). */
  converted: boolean;
}

/** Source hashes by path, size and modification time: a process hashes each model file once. */
const hashes = new Map<string, Promise<string>>();

async function sourceHash(jsonPath: string): Promise<string> {
  const st = await stat(jsonPath);
  const key = `${jsonPath}:${st.size}:${st.mtimeMs}`;
  let h = hashes.get(key);
  if (!h) {
    h = hashTfjsModel(jsonPath);
    hashes.set(key, h);
    h.catch(() => hashes.delete(key));
  }
  return h;
}

export async function convertCached(
  jsonPath: string,
  name: string,
  options: ConvertOptions = {},
): Promise<CachedModel> {
  const sha256 = await sourceHash(jsonPath);
  const optKey = [
    options.outputs?.slice().sort().join('+') ?? 'all',
    options.inputSize?.join('x') ?? '',
  ].join('_');
  const key = `${name}-${sha256.slice(0, 16)}-c${CONVERTER_VERSION}-${optKey.replace(/[^A-Za-z0-9_+x-]/g, '')}`;
  const dir = join(cacheDir(), 'onnx');
  const path = join(dir, `${key}.onnx`);
  try {
    if ((await stat(path)).size > 0) return { path, sourceSha256: sha256, converted: false };
  } catch {
    // miss: convert below
  }
  const source = await readTfjsModel(jsonPath);
  const result = convertTfjsToOnnx(source, options);
  await mkdir(dir, { recursive: true });
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(tmp, result.onnx);
  await rename(tmp, path);
  return { path, sourceSha256: source.sha256, converted: true };
}
