/**
 * Re-track jobs (issue 23, the 2D repair editor's "re-track from here"): the source video from storage into a
 * temp folder → `retrackFrom` of `@mocap/vision` (the tracker forward from the edited frame, seeded with the
 * corrected pose) → the new track frames as JSON under the video's prefix. Progress on the job; the editor polls
 * `GET /video/2d/retrack`. Nothing of the video changes until the owner saves the repair.
 */
import { join } from 'node:path';
import type { JobQueue, ObjectStorage, RetrackJobData } from '@mocap/server';
import { PermanentJobError } from '@mocap/server';
import { type PoseModel, retrackFrom } from '@mocap/vision';
import { inTempDir, runQueueWorker, wholePercent } from './queue-worker.ts';
import type { RunningWorker, WorkerOptions } from './runner.ts';

export interface RetrackWorkerInfra {
  queue: JobQueue<RetrackJobData>;
  storage: ObjectStorage;
}

export function runRetrackWorker(
  infra: RetrackWorkerInfra,
  options: Pick<WorkerOptions, 'tmpDir' | 'log' | 'name'> = {},
): RunningWorker {
  return runQueueWorker('retrack', infra.queue, options, async (job, log) => {
    const d = job.data;
    return inTempDir(options.tmpDir, `mocap-retrack-${d.videoId}-`, async (dir) => {
      log(`retrack job ${job.id}: video ${d.videoId} from frame ${d.frame}`);
      const progress = wholePercent((p) => job.progress(p).catch(() => {}));
      const src = join(dir, 'source.mp4');
      await infra.storage.download(d.sourceKey, src);
      await job.progress(5);
      let r: Awaited<ReturnType<typeof retrackFrom>>;
      try {
        r = await retrackFrom(src, d.frame, d.pose, {
          model: d.model as PoseModel,
          hands: d.hands,
          to: d.to,
          signal: job.signal,
          onProgress: ({ done, total }) => progress(5 + (90 * done) / Math.max(1, total)),
        });
      } catch (e) {
        if (e instanceof Error && /pose needs/.test(e.message)) throw new PermanentJobError(e.message);
        throw e;
      }
      await infra.storage.put(d.resultKey, JSON.stringify({ frames: r.frames, warnings: r.warnings }), {
        contentType: 'application/json',
      });
      log(`retrack job ${job.id} done: ${r.frames.length} frames`);
      return { frames: r.frames.length };
    });
  });
}
