/**
 * The scaffold the export, music, re-track and digital-human workers share: one queue's jobs, one at a time, under
 * this process's name for that queue; a temp folder per job; progress reported only when its whole percent moves.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobContext, JobInfo, JobQueue } from '@mocap/server';
import type { RunningWorker, WorkerOptions } from './runner.ts';

export type Log = (line: string) => void;

/**
 * Runs `kind` jobs from `queue` until closed, one at a time, as `<host>-<pid>-<kind>` (or `options.name`); the
 * handler gets the job and the log. `failedForGood` is logged and called once a job fails for good; `stop` is
 * called when the worker closes, before it waits for the running job.
 */
export function runQueueWorker<T>(
  kind: string,
  queue: JobQueue<T>,
  options: Pick<WorkerOptions, 'log' | 'name'>,
  handle: (job: JobContext<T>, log: Log) => Promise<unknown>,
  more: { failedForGood?: (job: JobInfo<T>, error: string) => Promise<void>; stop?: () => void } = {},
): RunningWorker {
  const name = options.name ?? `${hostname()}-${process.pid}-${kind}`;
  const log: Log = options.log ?? (() => {});
  const { failedForGood, stop } = more;
  const worker = queue.process((job) => handle(job, log), {
    concurrency: 1,
    workerId: name,
    ...(failedForGood && {
      onFailed: async (info: JobInfo<T>, error: string) => {
        log(`${kind} job ${info.id} failed for good: ${error}`);
        await failedForGood(info, error);
      },
    }),
  });
  return {
    name,
    async close(o = {}) {
      stop?.();
      await worker.close(o);
    },
  };
}

/** Runs `work` in a fresh folder `<prefix>…` under `tmpDir` (default the OS's), removed afterwards in any case. */
export async function inTempDir<R>(
  tmpDir: string | undefined,
  prefix: string,
  work: (dir: string) => Promise<R>,
): Promise<R> {
  const dir = await mkdtemp(join(tmpDir ?? tmpdir(), prefix));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true }).catch(() => {});
  }
}

/** A progress callback that rounds to a whole percent and passes it on only when it changed. */
export function wholePercent(report: (percent: number) => void): (percent: number) => void {
  let last = -1;
  return (pct) => {
    const p = Math.round(pct);
    if (p === last) return;
    last = p;
    report(p);
  };
}
