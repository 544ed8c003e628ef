/**
 * Applying a motion to a digital human runs in the worker, like the other exports (issue 17.3): the request
 * enqueues the job on the tomokage queue and waits for its end (queue events reach every process), so the API
 * answers as before while the retargeting and the FBX/GLB/VRMA writing happen in a worker.
 */
import type { JobQueue } from '../../ports.ts';
import { AwaitedJobs } from '../jobs/await.ts';
import { type TomokageApplyJobData, tomokageApplyJobId } from './ports.ts';

export class TomokageJobs extends AwaitedJobs<TomokageApplyJobData> {
  get applyQueue(): JobQueue<TomokageApplyJobData> {
    return this.queue;
  }

  /** Enqueues the apply of one row and resolves when the worker stored its files. */
  apply(applyId: number, price: number): Promise<void> {
    return this.runJob(
      tomokageApplyJobId(applyId),
      { kind: 'tomokageApply', applyId, price },
      {
        failed: (error) => `applying the motion failed: ${error}`,
        busy: 'the motion is still being applied: it appears on the character when done',
      },
    );
  }
}
