/**
 * Runs one job in the worker and waits for it: what a request does when its answer needs the worker (an export, a
 * digital human's apply). One job per id: a second request while it runs waits for the same job.
 */
import { AppError, Codes } from '../../errors.ts';
import type { JobQueue } from '../../ports.ts';

export interface AwaitJobOptions {
  /** How long the request waits before answering busy (ms). */
  timeoutMs: number;
  /** The message of a failed job, from the worker's error. */
  failed: (error: string | null | undefined) => string;
  /** The busy answer when the job outlasts the wait. */
  busy: string;
  /** Run a finished job of an earlier request again (its files since removed). */
  rerunFinished?: boolean;
}

/** Enqueues `data` as job `jobId` (high priority, 2 attempts) and resolves when the worker completed it. */
export async function runAndAwait<T>(
  queue: JobQueue<T>,
  jobId: string,
  data: T,
  o: AwaitJobOptions,
): Promise<void> {
  let off: () => void = () => {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  const done = new Promise<void>((resolve, reject) => {
    off = queue.subscribe((e) => {
      if (e.jobId !== jobId) return;
      if (e.type === 'completed') resolve();
      else if (e.type === 'failed') reject(new AppError(Codes.INTERNAL, o.failed(e.error)));
    });
    timer = setTimeout(() => reject(new AppError(Codes.BUSY, o.busy)), o.timeoutMs);
  });
  try {
    if (o.rerunFinished) {
      const prev = await queue.getJob(jobId);
      if (prev && (prev.state === 'completed' || prev.state === 'failed')) await queue.remove(jobId);
    }
    await queue.enqueue(data, { jobId, priority: 'high', attempts: 2 });
    const now = await queue.getJob(jobId);
    if (now?.state === 'completed') return;
    if (now?.state === 'failed') throw new AppError(Codes.INTERNAL, o.failed(now.error));
    await done;
  } finally {
    off();
    if (timer) clearTimeout(timer);
  }
}

/**
 * A queue of jobs that requests run and wait for (`runAndAwait`): the exports, a digital human's apply. A request
 * waits at most `timeoutMs` (default 120 s).
 */
export class AwaitedJobs<T> {
  constructor(
    protected readonly queue: JobQueue<T>,
    /** How long a request waits for its job (default 120 s). */
    private readonly timeoutMs = 120_000,
  ) {}

  /** Enqueues `data` as job `jobId` and resolves when the worker completed it (`o`: the messages, a rerun). */
  protected runJob(jobId: string, data: T, o: Omit<AwaitJobOptions, 'timeoutMs'>): Promise<void> {
    return runAndAwait(this.queue, jobId, data, { ...o, timeoutMs: this.timeoutMs });
  }
}
