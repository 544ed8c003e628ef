/**
 * BullMQ on Redis (REDIS_URL): the scale-out queue. Mapping of the `JobQueue` semantics:
 * - priority high/normal/low → BullMQ priority 1/2/3 (every job is prioritized, so FIFO within a priority);
 * - retries → `attempts` + exponential `backoff`; a job that stalls (its worker stopped renewing the lock for
 *   `lockMs`) is moved back to wait by BullMQ's stalled-job check in any live worker and started again
 *   (`maxStalledCount` stalls allowed, then it fails for good);
 * - events from every process come from a `QueueEvents` stream reader; `onFailed` runs in the worker that saw
 *   the final failure (Worker `failed` event with the job in state `failed`).
 */
import { hostname } from 'node:os';
import { type Job, Queue, QueueEvents, UnrecoverableError, Worker } from 'bullmq';
import type * as Q from '../../ports.ts';
import { errorText, isPermanent, PRIORITY_RANK } from '../../ports.ts';

export interface BullQueueOptions {
  url: string;
  name: string;
  /** Redis key prefix (default `mocap`). */
  prefix?: string;
  /** Lock of a running job (default 30 s). */
  lockMs?: number;
  /** How often workers check for stalled jobs (default lockMs). */
  stalledIntervalMs?: number;
  /** Stalls allowed before a job fails for good (default 2). */
  maxStalledCount?: number;
}

const RANK_TO_PRIORITY: Record<number, Q.Priority> = { 1: 'high', 2: 'normal', 3: 'low' };

function connection(url: string) {
  return { url, maxRetriesPerRequest: null, enableOfflineQueue: true };
}

export class BullQueue<T = unknown> implements Q.JobQueue<T> {
  readonly kind = 'bullmq' as const;
  readonly name: string;
  readonly queue: Queue;
  private events: QueueEvents | undefined;
  private readonly listeners = new Set<(e: Q.QueueEvent) => void>();
  private readonly workers = new Set<BullWorker<T>>();
  private readonly prefix: string;

  constructor(private readonly opts: BullQueueOptions) {
    this.name = opts.name;
    this.prefix = opts.prefix ?? 'mocap';
    this.queue = new Queue(opts.name, { connection: connection(opts.url), prefix: this.prefix });
  }

  async enqueue(data: T, o: Q.EnqueueOptions): Promise<void> {
    await this.queue.add('job', data, {
      jobId: o.jobId,
      priority: PRIORITY_RANK[o.priority ?? 'normal'],
      attempts: Math.max(1, o.attempts ?? 3),
      backoff: { type: 'exponential', delay: Math.max(0, o.backoffMs ?? 2000) },
      removeOnComplete: { age: 30 * 24 * 3600 },
      removeOnFail: { age: 90 * 24 * 3600 },
    });
  }

  /**
   * A consistent snapshot: the job's hash and its state are two reads, and the job may finish between
   * them (state "completed" with the hash read before the return value was written). Read the state on
   * both sides of the hash and retry until they agree.
   */
  private async snapshot(jobId: string): Promise<Q.JobInfo<T> | null> {
    for (let i = 0; ; i++) {
      const before = await this.queue.getJobState(jobId);
      const job = await this.queue.getJob(jobId);
      if (!job) return null;
      const after = await this.queue.getJobState(jobId);
      if (before === after || i >= 20) return this.info(job, after);
    }
  }

  private info(job: Job, raw: string): Q.JobInfo<T> {
    let state: Q.JobState;
    switch (raw) {
      case 'active':
      case 'completed':
      case 'failed':
      case 'delayed':
        state = raw;
        break;
      default:
        state = 'waiting';
    }
    const progress = typeof job.progress === 'number' ? job.progress : 0;
    const info: Q.JobInfo<T> = {
      id: job.id!,
      data: job.data as T,
      state,
      progress: state === 'completed' ? 100 : progress,
      attempts: job.attemptsStarted ?? job.attemptsMade,
      maxAttempts: job.opts.attempts ?? 1,
      priority: RANK_TO_PRIORITY[job.opts.priority ?? 2] ?? 'normal',
      createdAt: job.timestamp,
    };
    if (job.failedReason) info.error = job.failedReason;
    if (job.returnvalue !== undefined && job.returnvalue !== null) info.result = job.returnvalue;
    if (job.finishedOn) info.finishedAt = job.finishedOn;
    return info;
  }

  async getJob(jobId: string): Promise<Q.JobInfo<T> | null> {
    return this.snapshot(jobId);
  }

  async position(jobId: string): Promise<number | null> {
    const job = await this.queue.getJob(jobId);
    if (!job) return null;
    const state = await job.getState();
    if (state !== 'prioritized' && state !== 'waiting') return null;
    const waiting = await this.queue.getWaiting();
    const idx = waiting.findIndex((j) => j.id === jobId);
    if (idx >= 0) return idx;
    const prioritized = await this.queue.getPrioritized();
    const p = prioritized.findIndex((j) => j.id === jobId);
    return p >= 0 ? waiting.length + p : null;
  }

  async counts(): Promise<Record<Q.JobState, number>> {
    const c = await this.queue.getJobCounts(
      'waiting',
      'prioritized',
      'delayed',
      'active',
      'completed',
      'failed',
    );
    return {
      waiting: (c.waiting ?? 0) + (c.prioritized ?? 0),
      delayed: c.delayed ?? 0,
      active: c.active ?? 0,
      completed: c.completed ?? 0,
      failed: c.failed ?? 0,
    };
  }

  async remove(jobId: string): Promise<boolean> {
    const job = await this.queue.getJob(jobId);
    if (!job) return false;
    if ((await job.getState()) === 'active') return false;
    try {
      await job.remove();
      return true;
    } catch {
      return false;
    }
  }

  subscribe(listener: (e: Q.QueueEvent) => void): () => void {
    this.listeners.add(listener);
    if (!this.events) {
      const ev = new QueueEvents(this.name, { connection: connection(this.opts.url), prefix: this.prefix });
      this.events = ev;
      const emit = (e: Q.QueueEvent) => {
        for (const l of this.listeners) l(e);
      };
      ev.on('active', ({ jobId }) => {
        this.queue
          .getJob(jobId)
          .then((j) => emit({ type: 'active', jobId, attempt: j?.attemptsStarted ?? 1 }))
          .catch(() => {});
      });
      ev.on('progress', ({ jobId, data }) => {
        if (typeof data === 'number') emit({ type: 'progress', jobId, progress: data });
      });
      ev.on('completed', ({ jobId }) => emit({ type: 'completed', jobId }));
      const retrying = (jobId: string) => {
        this.queue
          .getJob(jobId)
          .then((j) => {
            if (j && j.attemptsMade > 0) {
              emit({ type: 'retrying', jobId, attempt: j.attemptsMade, error: j.failedReason ?? '' });
            }
          })
          .catch(() => {});
      };
      ev.on('delayed', ({ jobId }) => retrying(jobId));
      ev.on('waiting', ({ jobId, prev }) => {
        if (prev === 'active' || prev === 'failed') retrying(jobId);
      });
      ev.on('stalled', ({ jobId }) => emit({ type: 'retrying', jobId, attempt: 0, error: 'worker stalled' }));
      ev.on('failed', ({ jobId, failedReason }) => {
        this.queue
          .getJob(jobId)
          .then(async (j) => {
            const state = j ? await j.getState() : 'failed';
            if (state === 'failed') emit({ type: 'failed', jobId, error: failedReason });
          })
          .catch(() => {});
      });
    }
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Resolves once the event stream reader is connected (events before that are not seen). */
  async eventsReady(): Promise<void> {
    await this.events?.waitUntilReady();
  }

  process<R>(handler: Q.JobHandler<T, R>, options: Q.ProcessOptions<T> = {}): Q.QueueWorker {
    const w = new BullWorker<T>(this, this.opts, handler as Q.JobHandler<T, unknown>, options);
    this.workers.add(w);
    return w;
  }

  /** @internal */
  forget(w: BullWorker<T>): void {
    this.workers.delete(w);
  }

  /** @internal */
  get redisPrefix(): string {
    return this.prefix;
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await Promise.all([...this.workers].map((w) => w.close()));
    await this.events?.close();
    await this.queue.close();
  }
}

class BullWorker<T> implements Q.QueueWorker {
  readonly id: string;
  private readonly worker: Worker;
  private active = 0;
  private paused = false;

  constructor(
    private readonly q: BullQueue<T>,
    opts: BullQueueOptions,
    handler: Q.JobHandler<T, unknown>,
    options: Q.ProcessOptions<T>,
  ) {
    this.id = options.workerId ?? `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
    const lockMs = opts.lockMs ?? 30_000;
    this.worker = new Worker(
      opts.name,
      async (job: Job, _token?: string, signal?: AbortSignal) => {
        this.active++;
        try {
          const ac = new AbortController();
          signal?.addEventListener('abort', () => ac.abort(signal.reason), { once: true });
          const ctx: Q.JobContext<T> = {
            id: job.id!,
            data: job.data as T,
            attempt: Math.max(1, job.attemptsStarted ?? job.attemptsMade + 1),
            maxAttempts: job.opts.attempts ?? 1,
            signal: ac.signal,
            progress: async (p: number) => {
              await job.updateProgress(Math.max(0, Math.min(100, Math.round(p))));
            },
          };
          try {
            return await handler(ctx);
          } catch (err) {
            if (isPermanent(err)) throw new UnrecoverableError(errorText(err));
            throw err;
          }
        } finally {
          this.active--;
        }
      },
      {
        connection: connection(opts.url),
        prefix: q.redisPrefix,
        name: this.id,
        concurrency: Math.max(1, options.concurrency ?? 1),
        lockDuration: lockMs,
        stalledInterval: opts.stalledIntervalMs ?? lockMs,
        maxStalledCount: opts.maxStalledCount ?? 2,
      },
    );
    this.worker.on('error', () => {});
    this.worker.on('failed', (job, err) => {
      if (!job || !options.onFailed) return;
      job
        .getState()
        .then(async (state) => {
          if (state !== 'failed') return;
          const info = await q.getJob(job.id!);
          if (info) await options.onFailed!(info, errorText(err));
        })
        .catch(() => {});
    });
  }

  running(): number {
    return this.active;
  }

  async pause(): Promise<void> {
    if (this.paused) return;
    this.paused = true;
    // Stops fetching at once (the blocking fetch in flight is cut, so it cannot bring one more job); resolves
    // when the running jobs, which keep their locks, have finished.
    await this.worker.pause();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.worker.resume();
  }

  isPaused(): boolean {
    return this.paused;
  }

  async close(options: { abandon?: boolean } = {}): Promise<void> {
    if (options.abandon) {
      // A crash: stop renewing locks and taking jobs without finishing or releasing what runs.
      await this.worker.close(true);
    } else {
      await this.worker.close();
    }
    this.q.forget(this);
  }
}
