/**
 * The solve/export thread is kept between tasks (warm code, textures painted once); an aborted task's thread
 * is terminated, never reused.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSkeleton, motionJson, restClip } from '@mocap/motion';
import { afterAll, describe, expect, it } from 'vitest';
import { exportFromClip, solveThreadCounts } from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'mocap-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('solve/export thread', () => {
  const clipPath = join(dir, 'clip.json');
  writeFileSync(clipPath, motionJson.write(restClip(createSkeleton(), 10, 30)));

  it('is reused by the next task, and the zips are the same', async () => {
    const before = solveThreadCounts();
    const a = await exportFromClip(clipPath, join(dir, 'a'), { boneTypes: ['Mixamo', 'bvh'] });
    const b = await exportFromClip(clipPath, join(dir, 'b'), { boneTypes: ['Mixamo', 'bvh'] });
    const after = solveThreadCounts();
    expect(after.started - before.started).toBeLessThanOrEqual(1);
    expect(after.reused - before.reused).toBeGreaterThanOrEqual(1);
    expect(a.map((z) => [z.boneType, z.size])).toEqual(b.map((z) => [z.boneType, z.size]));
  });

  it('an aborted task terminates its thread; the next task starts a new one', async () => {
    const ac = new AbortController();
    // Aborted while the thread works (at its first progress report).
    const p = exportFromClip(clipPath, join(dir, 'c'), {
      boneTypes: ['Mixamo', 'Unreal4', 'bvh'],
      signal: ac.signal,
      onProgress: () => ac.abort(new Error('stop')),
    });
    await expect(p).rejects.toThrow('stop');
    const before = solveThreadCounts();
    await exportFromClip(clipPath, join(dir, 'd'), { boneTypes: ['bvh'] });
    expect(solveThreadCounts().started - before.started).toBe(1);
  });
});
