/**
 * Digital-human apply jobs (issue 24): a motion applied to a user's character, made here rather than inside the
 * API request, like the other exports. A job: the tomokage service's `runApply` (the character and the motion
 * read from storage, retargeted onto the character's own skeleton in its engine thread, FBX/GLB/VRMA and the zip
 * stored under the character's prefix, the square-video charge, the row recorded); the request waiting on the job
 * then answers. A job that fails for good has its row and files removed (`applyFailed`).
 */

import { hostname } from 'node:os';
import type { Services } from '@mocap/server';
import type { RunningWorker, WorkerOptions } from './runner.ts';

type Tomokage = Services['tomokage'];

export interface TomokageWorkerInfra {
  queue: Tomokage['applyQueue'];
  tomokage: Pick<Tomokage, 'runApply' | 'applyFailed'>;
}

export function runTomokageWorker(
  infra: TomokageWorkerInfra,
  options: Pick<WorkerOptions, 'log' | 'name'> = {},
): RunningWorker {
  const name = options.name ?? `${hostname()}-${process.pid}-tomokage`;
  const log = options.log ?? (() => {});
  const worker = infra.queue.process(
    async (job) => {
      const r = await infra.tomokage.runApply(job.data);
      log(`tomokage job ${job.id} done: ${'bytes' in r ? `${r.bytes} bytes zipped` : 'row gone, skipped'}`);
      return r;
    },
    {
      concurrency: 1,
      workerId: name,
      onFailed: async (info, error) => {
        log(`tomokage job ${info.id} failed for good: ${error}`);
        await infra.tomokage.applyFailed(info.data);
      },
    },
  );
  return {
    name,
    async close(o = {}) {
      await worker.close(o);
    },
  };
}
