import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { convertCached } from '../src/convert/cache.ts';
import { convertTfjsToOnnx, UnsupportedOpError } from '../src/convert/converter.ts';
import { decodeWeights, float16ToFloat32, readTfjsModel } from '../src/convert/tfjs-graph.ts';
import { MODEL_NAMES, modelJsonPath } from '../src/models.ts';
import { useTempCacheDir } from './fixtures/cache-dir.ts';

describe('TF.js graph → ONNX converter', () => {
  const cacheDir = useTempCacheDir('mocap-convert-');

  it('decodes IEEE half floats', () => {
    expect(float16ToFloat32(0x3c00)).toBe(1);
    expect(float16ToFloat32(0xc000)).toBe(-2);
    expect(float16ToFloat32(0x3555)).toBeCloseTo(0.33325, 5);
    expect(float16ToFloat32(0x0001)).toBeCloseTo(5.96e-8, 10);
    expect(float16ToFloat32(0x7c00)).toBe(Number.POSITIVE_INFINITY);
    const bytes = new Uint8Array([0x00, 0x3c, 0x00, 0xc0]);
    const w = decodeWeights(
      [{ name: 'w', shape: [2], dtype: 'float32', quantization: { dtype: 'float16' } }],
      bytes,
    );
    expect(Array.from(w.get('w')!.data)).toEqual([1, -2]);
  });

  it.each(MODEL_NAMES)('converts %s into a model onnxruntime loads and runs', async (name) => {
    const source = await readTfjsModel(modelJsonPath(name));
    const converted = convertTfjsToOnnx(source);
    const session = await ort.InferenceSession.create(converted.onnx);
    const [, h, w, c] = converted.inputShape;
    const input = new ort.Tensor('float32', new Float32Array(h * w * c).fill(0.5), converted.inputShape);
    const out = await session.run({ [session.inputNames[0]]: input });
    expect([...session.outputNames].sort()).toEqual(converted.outputs.map((o) => o.name).sort());
    for (const o of converted.outputs) {
      const data = out[o.name].data as Float32Array;
      expect(data.length).toBe(o.shape.reduce((a, b) => a * b, 1));
      expect(data.every(Number.isFinite)).toBe(true);
    }
    await session.release();
  });

  it('fails on an unknown op with a message naming it', async () => {
    const source = await readTfjsModel(modelJsonPath('iris'));
    const nodes = source.json.modelTopology.node.map((n) => ({ ...n }));
    const victim = nodes.find((n) => n.op === 'Prelu')!;
    victim.op = 'FancyNewOp';
    const broken = {
      ...source,
      json: { ...source.json, modelTopology: { ...source.json.modelTopology, node: nodes } },
    };
    expect(() => convertTfjsToOnnx(broken)).toThrow(UnsupportedOpError);
    expect(() => convertTfjsToOnnx(broken)).toThrow(/FancyNewOp/);
    expect(() => convertTfjsToOnnx(broken)).toThrow(new RegExp(victim.name.replace(/[/]/g, '\\/')));
  });

  it('prunes outputs that are not asked for', async () => {
    const source = await readTfjsModel(modelJsonPath('blazepose-lite'));
    const all = convertTfjsToOnnx(source);
    const pruned = convertTfjsToOnnx(source, { outputs: ['ld_3d', 'output_poseflag'] });
    expect(pruned.outputs.map((o) => o.name)).toEqual(['ld_3d', 'output_poseflag']);
    expect(pruned.onnx.length).toBeLessThan(all.onnx.length);
    expect(() => convertTfjsToOnnx(source, { outputs: ['nope'] })).toThrow(/unknown model output/);
  });

  it('caches converted models by the source hash and the options', async () => {
    const first = await convertCached(modelJsonPath('iris'), 'iris');
    const second = await convertCached(modelJsonPath('iris'), 'iris');
    expect(first.converted).toBe(true);
    expect(second.converted).toBe(false);
    expect(second.path).toBe(first.path);
    expect(first.path.startsWith(cacheDir())).toBe(true);
    expect(first.path).toContain(first.sourceSha256.slice(0, 16));
    const other = await convertCached(modelJsonPath('blazepose-lite'), 'blazepose-lite', {
      outputs: ['ld_3d'],
    });
    const otherAll = await convertCached(modelJsonPath('blazepose-lite'), 'blazepose-lite');
    expect(other.path).not.toBe(otherAll.path);
  });
});
