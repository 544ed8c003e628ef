/** `mocap convert` end to end, through the real CLI entry point (tracks.json input: no model inference). */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { read as readBvh } from '../src/formats/bvh.ts';
import { read as readJson } from '../src/formats/json.ts';
import { mocap, walkTracksFile } from './helpers.ts';

describe('mocap convert', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mocap-convert-'));
  const input = walkTracksFile(dir, 90);

  it('writes a BVH and a JSON clip from tracks.json, with options and a progress report', async () => {
    const bvhOut = join(dir, 'out', 'walk.bvh');
    const r = await mocap('convert', input, '-o', bvhOut, '--smoothing', '0.7', '--height', '1.8');
    expect(r.stderr).toMatch(/solving .*100%/);
    expect(r.stderr).toMatch(/90 frames at 30\.000 fps, 22 joints, height 1\.80 m/);
    const doc = readBvh(readFileSync(bvhOut, 'utf8'));
    expect(doc.frameCount).toBe(90);
    expect(doc.joints.length).toBe(22);

    const jsonOut = join(dir, 'walk.json');
    await mocap('convert', input, '-o', jsonOut, '--foot-lock', 'grounding', '--root-at-origin');
    const clip = readJson(readFileSync(jsonOut, 'utf8'));
    expect(clip.frameCount).toBe(90);
    expect(clip.metadata.options).toMatchObject({ footLock: 'grounding', rootAtOrigin: true });
    for (let f = 0; f < 90; f++) expect(clip.rootPositions[f * 3]).toBe(0);
  });

  it('--fps writes the plain BVH at the chosen rate (same duration)', async () => {
    const out = join(dir, 'walk24.bvh');
    await mocap('convert', input, '-o', out, '--fps', '24');
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
      const err = await mocap('convert', ...args).catch((e: { code: number; stderr: string }) => e);
      expect((err as { code: number }).code).toBe(2);
      expect((err as { stderr: string }).stderr).toMatch(/mocap convert <video \| tracks\.json>/);
    }
  });

  it('fails clearly on a file that is not a tracks document', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"hello": 1}');
    const err = await mocap('convert', bad, '-o', join(dir, 'y.bvh')).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect((err as { code: number }).code).toBe(1);
    expect((err as { stderr: string }).stderr).toMatch(/not a mocap-tracks document/);
  });
});
