/**
 * Re-track jobs (issue 23, the 2D repair editor's "re-track from here"): the source video from storage into a
 * temp folder → `retrackFrom` of `@mocap/vision` (the tracker forward from the edited frame, seeded with the
 * corrected pose) → the new track frames as JSON under the video's prefix. Progress on the job; the editor polls
 * `GET /video/2d/retrack`. Nothing of the video changes until the owner saves the repair.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobQueue, ObjectStorage, RetrackJobData } from '@mocap/server';
import { PermanentJobError } from '@mocap/server';
import { type PoseModel, retrackFrom } from '@mocap/vision';
import type { RunningWorker, WorkerOptions } from './runner.ts';

export interface RetrackWorkerInfra {
  queue: JobQueue<RetrackJobData>;
  storage: ObjectStorage;
}

export function runRetrackWorker(
  infra: RetrackWorkerInfra,
  options: Pick<WorkerOptions, 'tmpDir' | 'log' | 'name'> = {},
): RunningWorker {
  const name = options.name ?? `${hostname()}-${process.pid}-retrack`;
  const log = options.log ?? (() => {});
  const worker = infra.queue.process(
    async (job) => {
      const d = job.data;
      const dir = await mkdtemp(join(options.tmpDir ?? tmpdir(), `mocap-retrack-${d.videoId}-`));
      log(`retrack job ${job.id}: video ${d.videoId} from frame ${d.frame}`);
      let last = -1;
      try {
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
            onProgress: ({ done, total }) => {
              const p = Math.round(5 + (90 * done) / Math.max(1, total));
              if (p === last) return;
              last = p;
              job.progress(p).catch(() => {});
            },
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
      } finally {
        await rm(dir, { recursive: true, force: true }).catch(() => {});
      }
    },
    { concurrency: 1, workerId: name },
  );
  return {
    name,
    async close(o = {}) {
      await worker.close(o);
    },
  };
}
