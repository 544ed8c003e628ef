import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FrameTracker } from '../src/frame-tracker.ts';
import { convertTrackingModels } from '../src/pipeline.ts';
import { useTempCacheDir } from './fixtures/cache-dir.ts';

/** Install-time conversion (`npm run models -w @mocap/vision`): the cache entries are the ones tracking reads. */
describe('convertTrackingModels', () => {
  const cacheDir = useTempCacheDir('mocap-models-');

  it('converts every model a tracking thread loads, once, and the thread then converts nothing', async () => {
    const first = await convertTrackingModels(['lite']);
    expect(first.map((m) => m.name).sort()).toEqual(
      ['blazepose-detector', 'blazepose-lite', 'facemesh', 'handlandmark-full', 'iris'].sort(),
    );
    expect(first.every((m) => m.converted)).toBe(true);
    const files = (await readdir(join(cacheDir(), 'onnx'))).sort();
    expect(files).toHaveLength(5);
    // Again: all already cached.
    expect((await convertTrackingModels(['lite'])).every((m) => !m.converted)).toBe(true);
    // A tracking thread's sessions (body, hands, face) read exactly those entries: no new file appears.
    const tracker = await FrameTracker.create({ model: 'lite', hands: true, face: true, backend: 'ort' });
    await tracker.dispose();
    expect((await readdir(join(cacheDir(), 'onnx'))).sort()).toEqual(files);
  });
});
