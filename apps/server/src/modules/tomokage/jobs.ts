/**
 * Applying a motion to a digital human runs in the worker, like the other exports (issue 17.3): the request
 * enqueues the job on the tomokage queue and waits for its end (queue events reach every process), so the API
 * answers as before while the retargeting and the FBX/GLB/VRMA writing happen in a worker.
 */
import { AppError, Codes } from '../../errors.ts';
import type { JobQueue } from '../../ports.ts';
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
  async apply(applyId: number, price: number): Promise<void> {
    const jobId = tomokageApplyJobId(applyId);
    let off: () => void = () => {};
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = new Promise<void>((resolve, reject) => {
      off = this.queue.subscribe((e) => {
        if (e.jobId !== jobId) return;
        if (e.type === 'completed') resolve();
        else if (e.type === 'failed')
          reject(new AppError(Codes.INTERNAL, `applying the motion failed: ${e.error}`));
      });
      timer = setTimeout(
        () =>
          reject(
            new AppError(
              Codes.BUSY,
              'the motion is still being applied: it appears on the character when done',
            ),
          ),
        this.timeoutMs,
      );
    });
    try {
      await this.queue.enqueue(
        { kind: 'tomokageApply', applyId, price },
        { jobId, priority: 'high', attempts: 2 },
      );
      const now = await this.queue.getJob(jobId);
      if (now?.state === 'completed') return;
      if (now?.state === 'failed')
        throw new AppError(Codes.INTERNAL, `applying the motion failed: ${now.error}`);
      await done;
    } finally {
      off();
      if (timer) clearTimeout(timer);
    }
  }
}
