/**
 * Digital-human apply jobs (issue 24): a motion applied to a user's character, made here rather than inside the
 * API request, like the other exports. A job: the tomokage service's `runApply` (the character and the motion
 * read from storage, retargeted onto the character's own skeleton in its engine thread, FBX/GLB/VRMA and the zip
 * stored under the character's prefix, the square-video charge, the row recorded); the request waiting on the job
 * then answers. A job that fails for good has its row and files removed (`applyFailed`).
 */

import type { Services } from '@mocap/server';
import { runQueueWorker } from './queue-worker.ts';
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
  return runQueueWorker(
    'tomokage',
    infra.queue,
    options,
    async (job, log) => {
      const r = await infra.tomokage.runApply(job.data);
      log(`tomokage job ${job.id} done: ${'bytes' in r ? `${r.bytes} bytes zipped` : 'row gone, skipped'}`);
      return r;
    },
    { failedForGood: (info) => infra.tomokage.applyFailed(info.data) },
  );
}
