/**
 * A worker prepares at start: the solve/export thread is started ahead of the first job, warms its exporters up
 * (every bone type of a rest clip) and that job uses it.
 * (The tracking threads' warm-up is tested in packages/vision/test/pool.test.ts.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BONE_TYPES, createSkeleton, motionJson, restClip } from '@mocap/motion';
import { afterAll, describe, expect, it } from 'vitest';
import { exportFromClip, prestartSolveThread, solveThreadCounts } from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'mocap-warm-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('worker start', () => {
  it('starts the solve thread once; the first task reuses it', async () => {
    const clipPath = join(dir, 'clip.json');
    writeFileSync(clipPath, motionJson.write(restClip(createSkeleton(), 10, 30)));
    const before = solveThreadCounts();
    const warmed = prestartSolveThread();
    // an idle thread is already there: nothing more
    expect(await prestartSolveThread()).toBeUndefined();
    expect(solveThreadCounts().started).toBe(before.started + 1);
    // The thread warmed its exporters up: every bone type but OnlyFace (face curves only) exported once.
    expect((await warmed)?.boneTypes).toBe(BONE_TYPES.length - 1);
    const zips = await exportFromClip(clipPath, join(dir, 'a'), { boneTypes: ['bvh'] });
    expect(zips.map((z) => z.boneType)).toEqual(['bvh']);
    expect(zips[0].size).toBeGreaterThan(0);
    const after = solveThreadCounts();
    expect(after.started).toBe(before.started + 1);
    expect(after.reused).toBe(before.reused + 1);
  });
});
