/**
 * Applying a motion to a digital human runs in the worker, like the other exports (issue 17.3): the request
 * enqueues the job on the tomokage queue and waits for its end (queue events reach every process), so the API
 * answers as before while the retargeting and the FBX/GLB/VRMA writing happen in a worker.
 */
import type { JobQueue } from '../../ports.ts';
import { runAndAwait } from '../jobs/await.ts';
import { type TomokageApplyJobData, tomokageApplyJobId } from './ports.ts';

export class TomokageJobs {
  constructor(
    private readonly queue: JobQueue<TomokageApplyJobData>,
    /** How long a request waits for its apply (default 120 s). */
    private readonly timeoutMs = 120_000,
  ) {}

  get applyQueue(): JobQueue<TomokageApplyJobData> {
    return this.queue;
  }

  /** Enqueues the apply of one row and resolves when the worker stored its files. */
  apply(applyId: number, price: number): Promise<void> {
    return runAndAwait(
      this.queue,
      tomokageApplyJobId(applyId),
      { kind: 'tomokageApply', applyId, price },
      {
        timeoutMs: this.timeoutMs,
        failed: (error) => `applying the motion failed: ${error}`,
        busy: 'the motion is still being applied: it appears on the character when done',
      },
    );
  }
}
