import type { Tracks } from '@mocap/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashTfjsModel, readTfjsModel } from '../src/convert/tfjs-graph.ts';
import { modelJsonPath } from '../src/models.ts';
import {
  closeTrackingPool,
  trackingPoolCounts,
  trackProbedVideo,
  trackVideo,
  warmUpTracking,
} from '../src/pipeline.ts';
import { probeVideo, VideoError } from '../src/video/index.ts';
import { CLIPS, makeTempDir, makeUndecodable, removeDir } from './fixtures/video-fixtures.ts';

/**
 * The tracking threads are kept warm between calls (models loaded, onnxruntime run once): a second job reuses
 * them and gets exactly the tracks a fresh pool gives; a failed or aborted job's pool is not reused.
 */
describe('warm tracking pool', () => {
  let dir: string;
  let fresh: Tracks;
  beforeAll(async () => {
    dir = await makeTempDir('mocap-pool-');
    await closeTrackingPool();
    // The old path: threads started for this call and closed after it.
    fresh = await trackVideo(CLIPS.treadmill, { model: 'lite', workers: 2, keepWarm: false });
  });
  afterAll(async () => {
    await closeTrackingPool();
    await removeDir(dir);
  });

  const landmarks = (t: Tracks) => t.frames.map((f) => [f.state, f.image, f.world]);

  it('warm-up at start, then jobs reuse the same threads and track exactly as a fresh pool', async () => {
    const before = trackingPoolCounts();
    await warmUpTracking({ model: 'lite', workers: 2 });
    expect(trackingPoolCounts().started).toBe(before.started + 1);
    const a = await trackVideo(CLIPS.treadmill, { model: 'lite', workers: 2 });
    const b = await trackVideo(CLIPS.treadmill, { model: 'lite', workers: 2 });
    const after = trackingPoolCounts();
    expect(after.started).toBe(before.started + 1);
    expect(after.reused).toBe(before.reused + 2);
    expect(a.frames.length).toBe(fresh.frames.length);
    expect(landmarks(a)).toEqual(landmarks(fresh));
    expect(landmarks(b)).toEqual(landmarks(fresh));
  });

  it('other models start another pool (and replace the idle one)', async () => {
    const before = trackingPoolCounts();
    const t = await trackVideo(CLIPS.treadmill, { model: 'lite', workers: 2, hands: true });
    expect(t.models.hands).toBeDefined();
    expect(trackingPoolCounts().started).toBe(before.started + 1);
  });

  it('a job that fails keeps its VideoError and does not hand its threads to the next job', async () => {
    await warmUpTracking({ model: 'lite', workers: 2 });
    const file = await makeUndecodable(CLIPS.treadmill, dir);
    const err = await trackVideo(file, { model: 'lite', workers: 2 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(VideoError);
    expect((err as VideoError).code).toBe('decode_failed');
    const before = trackingPoolCounts();
    await trackVideo(CLIPS.treadmill, { model: 'lite', workers: 2 });
    expect(trackingPoolCounts().started).toBe(before.started + 1);
  });

  it('an aborted job does not hand its threads to the next job', async () => {
    await warmUpTracking({ model: 'lite', workers: 2 });
    const info = await probeVideo(CLIPS.treadmill);
    const ac = new AbortController();
    const run = trackProbedVideo(info, {
      model: 'lite',
      workers: 2,
      signal: ac.signal,
      onProgress: ({ done }) => {
        if (done === 5) ac.abort();
      },
    });
    await expect(run).rejects.toThrow(/abort/);
    const before = trackingPoolCounts();
    const t = await trackVideo(CLIPS.treadmill, { model: 'lite', workers: 2 });
    expect(trackingPoolCounts().started).toBe(before.started + 1);
    expect(landmarks(t)).toEqual(landmarks(fresh));
  });
});

describe('converted-model cache key', () => {
  it('hashTfjsModel (a cache hit: no weight decoding) is the sha256 readTfjsModel computes', async () => {
    const path = modelJsonPath('blazepose-lite');
    expect(await hashTfjsModel(path)).toBe((await readTfjsModel(path)).sha256);
  });
});
