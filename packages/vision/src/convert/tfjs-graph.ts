import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Reads a TF.js graph model (`model.json` + weight shards) into plain data: the node list and
 * every weight decoded to float32 / int32 (float16 and uint8/uint16 affine quantisation included).
 */

export interface TfjsAttr {
  s?: string;
  i?: string | number;
  f?: number;
  b?: boolean;
  type?: string;
  shape?: { dim?: { size: string | number }[]; unknownRank?: boolean };
  list?: { s?: string[]; i?: (string | number)[]; f?: number[]; type?: string[] };
  tensor?: unknown;
}

export interface TfjsNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, TfjsAttr>;
}

export interface TfjsWeightSpec {
  name: string;
  shape: number[];
  dtype: 'float32' | 'int32' | 'bool' | 'string';
  quantization?: {
    dtype: 'float16' | 'uint8' | 'uint16';
    scale?: number;
    min?: number;
    original_dtype?: string;
  };
}

export interface TfjsModelJson {
  format?: string;
  generatedBy?: string;
  convertedBy?: string;
  modelTopology: { node: TfjsNode[]; library?: unknown; versions?: unknown };
  weightsManifest: { paths: string[]; weights: TfjsWeightSpec[] }[];
  signature?: {
    inputs?: Record<string, { name: string; tensorShape?: { dim?: { size: string }[] } }>;
    outputs?: Record<string, { name: string; tensorShape?: { dim?: { size: string }[] } }>;
  };
}

export interface Weight {
  name: string;
  shape: number[];
  dtype: 'float32' | 'int32';
  data: Float32Array | Int32Array;
}

export interface TfjsModel {
  json: TfjsModelJson;
  /** Concatenated weight bytes, in manifest order (what tfjs' IOHandler calls weightData). */
  weightData: Uint8Array;
  weights: Map<string, Weight>;
  /** sha256 over the model JSON and all weight bytes. */
  sha256: string;
}

/** IEEE 754 half → float. */
export function float16ToFloat32(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * 2 ** -14 * (f / 1024);
  if (e === 31) return f ? Number.NaN : s * Number.POSITIVE_INFINITY;
  return s * 2 ** (e - 15) * (1 + f / 1024);
}

const BYTES: Record<string, number> = { float32: 4, int32: 4, bool: 1, float16: 2, uint8: 1, uint16: 2 };

export function decodeWeights(specs: TfjsWeightSpec[], bytes: Uint8Array): Map<string, Weight> {
  const out = new Map<string, Weight>();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  for (const spec of specs) {
    const count = spec.shape.reduce((a, b) => a * b, 1);
    const stored = spec.quantization?.dtype ?? spec.dtype;
    const size = BYTES[stored];
    if (size === undefined) throw new Error(`weight ${spec.name}: unsupported dtype ${stored}`);
    if (offset + count * size > bytes.length) throw new Error(`weight ${spec.name}: weight file too short`);
    if (spec.dtype === 'int32' && !spec.quantization) {
      const data = new Int32Array(count);
      for (let i = 0; i < count; i++) data[i] = view.getInt32(offset + i * 4, true);
      out.set(spec.name, { name: spec.name, shape: spec.shape, dtype: 'int32', data });
    } else if (spec.dtype === 'float32' || spec.quantization) {
      const data = new Float32Array(count);
      const q = spec.quantization;
      if (!q) for (let i = 0; i < count; i++) data[i] = view.getFloat32(offset + i * 4, true);
      else if (q.dtype === 'float16')
        for (let i = 0; i < count; i++) data[i] = float16ToFloat32(view.getUint16(offset + i * 2, true));
      else {
        const scale = q.scale ?? 1;
        const min = q.min ?? 0;
        for (let i = 0; i < count; i++) {
          const v = q.dtype === 'uint8' ? view.getUint8(offset + i) : view.getUint16(offset + i * 2, true);
          data[i] = v * scale + min;
        }
      }
      if (spec.dtype === 'int32') {
        out.set(spec.name, {
          name: spec.name,
          shape: spec.shape,
          dtype: 'int32',
          data: Int32Array.from(data, Math.round),
        });
      } else out.set(spec.name, { name: spec.name, shape: spec.shape, dtype: 'float32', data });
    } else {
      throw new Error(`weight ${spec.name}: unsupported dtype ${spec.dtype}`);
    }
    offset += count * size;
  }
  return out;
}

/**
 * The sha256 of `readTfjsModel` (model JSON, then every weight shard) without parsing or decoding the weights:
 * what the converted-model cache is keyed by, so a cache hit costs a hash, not a decode of the weights.
 */
export async function hashTfjsModel(jsonPath: string): Promise<string> {
  const jsonText = await readFile(jsonPath);
  const json = JSON.parse(jsonText.toString('utf8')) as TfjsModelJson;
  const hash = createHash('sha256').update(jsonText);
  for (const group of json.weightsManifest ?? [])
    for (const p of group.paths) hash.update(await readFile(join(dirname(jsonPath), p)));
  return hash.digest('hex');
}

export async function readTfjsModel(jsonPath: string): Promise<TfjsModel> {
  const jsonText = await readFile(jsonPath);
  const json = JSON.parse(jsonText.toString('utf8')) as TfjsModelJson;
  if (!json.modelTopology?.node)
    throw new Error(`${jsonPath}: not a TF.js graph model (no modelTopology.node)`);
  const hash = createHash('sha256').update(jsonText);
  const parts: Uint8Array[] = [];
  for (const group of json.weightsManifest) {
    for (const p of group.paths) {
      const data = await readFile(join(dirname(jsonPath), p));
      hash.update(data);
      parts.push(data);
    }
  }
  const total = parts.reduce((a, p) => a + p.length, 0);
  const weightData = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    weightData.set(p, o);
    o += p.length;
  }
  const specs = json.weightsManifest.flatMap((g) => g.weights);
  return { json, weightData, weights: decodeWeights(specs, weightData), sha256: hash.digest('hex') };
}
