/** `mocap convert` end to end, through the real CLI entry point (tracks.json input: no model inference). */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { read as readBvh } from '../src/formats/bvh.ts';
import { read as readJson } from '../src/formats/json.ts';
import { syntheticFrom } from './helpers.ts';

const run = promisify(execFile);
const MOCAP = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'apps',
  'cli',
  'bin',
  'mocap.js',
);

describe('mocap convert', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mocap-convert-'));
  const input = join(dir, 'walk.tracks.json');
  const syn = syntheticFrom('bandai_namco/dataset-1_walk_normal_001.bvh', { maxFrames: 90 });
  writeFileSync(input, JSON.stringify(syn.tracks));

  it('writes a BVH and a JSON clip from tracks.json, with options and a progress report', async () => {
    const bvhOut = join(dir, 'out', 'walk.bvh');
    const r = await run('node', [
      MOCAP,
      'convert',
      input,
      '-o',
      bvhOut,
      '--smoothing',
      '0.7',
      '--height',
      '1.8',
    ]);
    expect(r.stderr).toMatch(/solving .*100%/);
    expect(r.stderr).toMatch(/90 frames at 30\.000 fps, 22 joints, height 1\.80 m/);
    const doc = readBvh(readFileSync(bvhOut, 'utf8'));
    expect(doc.frameCount).toBe(90);
    expect(doc.joints.length).toBe(22);

    const jsonOut = join(dir, 'walk.json');
    await run('node', [
      MOCAP,
      'convert',
      input,
      '-o',
      jsonOut,
      '--foot-lock',
      'grounding',
      '--root-at-origin',
    ]);
    const clip = readJson(readFileSync(jsonOut, 'utf8'));
    expect(clip.frameCount).toBe(90);
    expect(clip.metadata.options).toMatchObject({ footLock: 'grounding', rootAtOrigin: true });
    for (let f = 0; f < 90; f++) expect(clip.rootPositions[f * 3]).toBe(0);
  });

  it('--fps writes the plain BVH at the chosen rate (same duration)', async () => {
    const out = join(dir, 'walk24.bvh');
    await run('node', [MOCAP, 'convert', input, '-o', out, '--fps', '24']);
    const doc = readBvh(readFileSync(out, 'utf8'));
    // 90 frames at 30 fps last 89/30 s: 72 frames at 24 fps (71/24 s, the nearest whole frame).
    expect(doc.frameCount).toBe(72);
    expect(doc.frameTime).toBeCloseTo(1 / 24, 9);
  });

  it('rejects bad arguments with exit code 2 and the usage', async () => {
    for (const args of [
      [input, '-o', join(dir, 'x.bvh'), '--fps', '29.97'],
      [input],
      [input, '-o', join(dir, 'x.fbx')],
      [input, '-o', join(dir, 'x.bvh'), '--smoothing', '2'],
      [input, '-o', join(dir, 'x.bvh'), '--foot-lock', 'sometimes'],
    ]) {
      const err = await run('node', [MOCAP, 'convert', ...args]).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect((err as { code: number }).code).toBe(2);
      expect((err as { stderr: string }).stderr).toMatch(/mocap convert <video \| tracks\.json>/);
    }
  });

  it('fails clearly on a file that is not a tracks document', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"hello": 1}');
    const err = await run('node', [MOCAP, 'convert', bad, '-o', join(dir, 'y.bvh')]).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect((err as { code: number }).code).toBe(1);
    expect((err as { stderr: string }).stderr).toMatch(/not a mocap-tracks document/);
  });
});
