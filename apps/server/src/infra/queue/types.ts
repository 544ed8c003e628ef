/**
 * Job queue: one interface, two implementations chosen by config — a database-backed queue (`db.ts`, the
 * embedded default: jobs are rows, so a restart or a killed worker loses nothing; works across processes that
 * share the database) and BullMQ on Redis (`bullmq.ts`, REDIS_URL).
 *
 * Semantics shared by both (the queue test suite runs the same tests against each):
 * - `enqueue` is idempotent per job id; `priority` high > normal > low, FIFO within a priority.
 * - A handler that throws is retried after `backoffMs · 2^(attempt-1)` until `attempts` runs out; then the job
 *   fails for good and the worker's `onFailed` hook runs (once per job, in the worker that saw it).
 * - A worker that dies mid-job (its lock not renewed for `lockMs`) has the job put back and retried by another
 *   worker; a death counts as an attempt.
 * - Progress (0..100) is stored on the job and published to `subscribe` listeners in every process.
 */

export type Priority = 'low' | 'normal' | 'high';
export type JobState = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed';

export interface EnqueueOptions {
  jobId: string;
  priority?: Priority;
  /** Total attempts, first run included (default 3). */
  attempts?: number;
  /** Base retry delay (default 2000 ms), doubled after each failure. */
  backoffMs?: number;
}

export interface JobInfo<T = unknown> {
  id: string;
  data: T;
  state: JobState;
  progress: number;
  /** Attempts started so far. */
  attempts: number;
  maxAttempts: number;
  priority: Priority;
  error?: string;
  result?: unknown;
  createdAt: number;
  finishedAt?: number;
}

export interface JobContext<T = unknown> {
  id: string;
  data: T;
  /** 1 for the first run. */
  attempt: number;
  maxAttempts: number;
  /** Reports progress 0..100 (stored and published). */
  progress(percent: number): Promise<void>;
  /** Aborted when the worker closes or loses the job's lock. */
  signal: AbortSignal;
}

export type JobHandler<T, R = unknown> = (job: JobContext<T>) => Promise<R>;

export interface ProcessOptions<T> {
  /** Jobs run at the same time by this worker (default 1). */
  concurrency?: number;
  /** Name of this worker (default host:pid:random). */
  workerId?: string;
  /** Called once when a job fails for good (after its last attempt, or a stall past the last attempt). */
  onFailed?: (job: JobInfo<T>, error: string) => Promise<void> | void;
}

export interface QueueWorker {
  readonly id: string;
  /** Jobs this worker is running now. */
  running(): number;
  /**
   * Stops taking new jobs at once; running ones go on to their end (an administrator drained or disabled the
   * machine). The promise resolves once the running jobs are done. `resume()` takes jobs again. Idempotent.
   */
  pause(): Promise<void>;
  resume(): void;
  isPaused(): boolean;
  /**
   * Stops taking jobs. Default: waits for running jobs to finish. `{ abandon: true }` stops at once and
   * leaves running jobs locked, as a crashed process would (they are recovered once their lock expires).
   */
  close(options?: { abandon?: boolean }): Promise<void>;
}

export type QueueEvent =
  | { type: 'active'; jobId: string; attempt: number }
  | { type: 'progress'; jobId: string; progress: number }
  | { type: 'completed'; jobId: string }
  | { type: 'retrying'; jobId: string; attempt: number; error: string }
  | { type: 'failed'; jobId: string; error: string };

export interface JobQueue<T = unknown> {
  readonly kind: 'db' | 'bullmq';
  readonly name: string;
  enqueue(data: T, options: EnqueueOptions): Promise<void>;
  process<R>(handler: JobHandler<T, R>, options?: ProcessOptions<T>): QueueWorker;
  getJob(jobId: string): Promise<JobInfo<T> | null>;
  /** Number of jobs that will run before this waiting job (0 = next); null when it is not waiting. */
  position(jobId: string): Promise<number | null>;
  counts(): Promise<Record<JobState, number>>;
  /** Removes a job that is not running. Returns false when absent or active. */
  remove(jobId: string): Promise<boolean>;
  /** Events of every job, from every process. Returns the unsubscribe function. */
  subscribe(listener: (e: QueueEvent) => void): () => void;
  close(): Promise<void>;
}

export const PRIORITY_RANK: Record<Priority, number> = { high: 1, normal: 2, low: 3 };

export function backoffDelay(baseMs: number, attempt: number): number {
  return baseMs * 2 ** Math.max(0, attempt - 1);
}

/**
 * Thrown by a handler for a failure that another attempt cannot fix (an unreadable video, nobody in it): the
 * job fails for good at once instead of being retried.
 */
export class PermanentJobError extends Error {
  override readonly name = 'PermanentJobError';
}

export function isPermanent(err: unknown): boolean {
  return err instanceof PermanentJobError || (err as { permanent?: unknown })?.permanent === true;
}

export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
