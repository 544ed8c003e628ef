/**
 * On-demand exports run in the worker (issue 17.3): the request enqueues the job on the export queue and waits for
 * its end (events of every process), so the API answers as before while the writing happens in a worker process.
 */
import { AppError, Codes } from '../../errors.ts';
import type { JobQueue } from '../../ports.ts';
import { type ExportJobData, lowerBodyJobId } from './ports.ts';

export class ExportJobs {
  constructor(
    private readonly queue: JobQueue<ExportJobData>,
    /** How long a request waits for its export (default 120 s). */
    private readonly timeoutMs = 120_000,
  ) {}

  get exportQueue(): JobQueue<ExportJobData> {
    return this.queue;
  }

  /** Runs the lower-body export of (video, bone type) in the worker; resolves when its zip is stored. */
  lowerBody(videoId: number, boneType: string): Promise<void> {
    return this.run(
      lowerBodyJobId(videoId, boneType),
      { kind: 'lowerBody', videoId, boneType },
      'lower-body',
    );
  }

  /**
   * Enqueues one export job (one job per id: a second request while it runs waits for the same job) and resolves
   * when the worker completed it; `what` names the file in the errors.
   */
  async run(jobId: string, data: ExportJobData, what: string): Promise<void> {
    let off: () => void = () => {};
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = new Promise<void>((resolve, reject) => {
      off = this.queue.subscribe((e) => {
        if (e.jobId !== jobId) return;
        if (e.type === 'completed') resolve();
        else if (e.type === 'failed')
          reject(new AppError(Codes.INTERNAL, `${what} export failed: ${e.error}`));
      });
      timer = setTimeout(
        () => reject(new AppError(Codes.BUSY, `the ${what} file is still being made: try again in a minute`)),
        this.timeoutMs,
      );
    });
    try {
      // A finished job of an earlier request (its zip since removed) is run again.
      const prev = await this.queue.getJob(jobId);
      if (prev && (prev.state === 'completed' || prev.state === 'failed')) await this.queue.remove(jobId);
      await this.queue.enqueue(data, { jobId, priority: 'high', attempts: 2 });
      const now = await this.queue.getJob(jobId);
      if (now?.state === 'completed') return;
      if (now?.state === 'failed') throw new AppError(Codes.INTERNAL, `${what} export failed: ${now.error}`);
      await done;
    } finally {
      off();
      if (timer) clearTimeout(timer);
    }
  }
}
