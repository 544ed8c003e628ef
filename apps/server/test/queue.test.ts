/**
 * The queue suite: the same tests against the database-backed queue (SQLite and PostgreSQL) and BullMQ on
 * Redis. PostgreSQL/Redis parts skip when the service is down locally and must run under CI=true.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BullQueue, createQueue } from '../src/infra/queue/index.ts';
import { type JobQueue, PermanentJobError, type QueueEvent, type QueueWorker } from '../src/ports.ts';
import {
  postgresDb,
  REDIS_URL,
  runPg,
  runRedis,
  sqliteDb,
  type TestDb,
  uid,
  waitFor,
} from './queue-helpers.ts';

interface Backend {
  name: string;
  enabled: boolean;
  /** A queue named `name`; `second` gives another instance over the same store (another process). */
  setup(): Promise<{ open(name: string, second?: boolean): JobQueue<Payload>; cleanup(): Promise<void> }>;
}

interface Payload {
  n: number;
  tag?: string;
}

const LOCK_MS = 1000;

function dbBackend(name: string, enabled: boolean, make: () => Promise<TestDb>): Backend {
  return {
    name,
    enabled,
    async setup() {
      const t = await make();
      return {
        open: (q, second) =>
          createQueue<Payload>(q, {
            kind: 'memory',
            db: second ? t.reopen() : t.db,
            dialect: t.dialect,
            lockMs: LOCK_MS,
            pollMs: 50,
          }),
        cleanup: () => t.cleanup(),
      };
    },
  };
}

const backends: Backend[] = [
  dbBackend('db queue on SQLite', true, sqliteDb),
  dbBackend('db queue on PostgreSQL', runPg, postgresDb),
  {
    name: 'BullMQ on Redis',
    enabled: runRedis,
    async setup() {
      const prefix = uid('mocaptest');
      const made: BullQueue<Payload>[] = [];
      return {
        open: (q) => {
          const b = new BullQueue<Payload>({
            name: q,
            url: REDIS_URL,
            prefix,
            lockMs: LOCK_MS,
            stalledIntervalMs: 300,
          });
          made.push(b);
          return b;
        },
        cleanup: async () => {
          const first = made[0];
          if (first) await first.queue.obliterate({ force: true }).catch(() => {});
        },
      };
    },
  },
];

for (const backend of backends) {
  describe.skipIf(!backend.enabled)(backend.name, () => {
    const queues: JobQueue<Payload>[] = [];
    const workers: QueueWorker[] = [];
    let env: Awaited<ReturnType<Backend['setup']>> | undefined;
    const open = async (name: string, second = false) => {
      env ??= await backend.setup();
      const q = env.open(name, second);
      queues.push(q);
      return q;
    };
    const subscribeAll = async (q: JobQueue<Payload>) => {
      const events: QueueEvent[] = [];
      q.subscribe((e) => events.push(e));
      if (q instanceof BullQueue) await q.eventsReady();
      return events;
    };
    /** A worker on `q` whose every run throws `error`: its runs, and the `id:error` of each onFailed. */
    const failingWorker = (q: JobQueue<Payload>, error: Error) => {
      const seen = { runs: 0, failed: [] as string[] };
      workers.push(
        q.process(
          async () => {
            seen.runs++;
            throw error;
          },
          { onFailed: (job, e) => void seen.failed.push(`${job.id}:${e}`) },
        ),
      );
      return seen;
    };

    afterEach(async () => {
      await Promise.all(workers.splice(0).map((w) => w.close({ abandon: true })));
      await Promise.all(queues.splice(0).map((q) => q.close()));
    });
    afterAll(async () => {
      await env?.cleanup();
    });

    it('runs a job once per id, reports progress to subscribers and stores the result', async () => {
      const q = await open(uid('q'));
      const events = await subscribeAll(q);
      let calls = 0;
      await q.enqueue({ n: 21 }, { jobId: 'job-a' });
      await q.enqueue({ n: 99 }, { jobId: 'job-a' }); // same id: ignored
      expect((await q.getJob('job-a'))?.state).toBe('waiting');
      workers.push(
        q.process(async (job) => {
          calls++;
          await job.progress(30);
          await job.progress(60);
          return { doubled: job.data.n * 2 };
        }),
      );
      const done = await waitFor(async () => {
        const j = await q.getJob('job-a');
        return j?.state === 'completed' ? j : null;
      });
      expect(calls).toBe(1);
      expect(done.result).toEqual({ doubled: 42 });
      expect(done.progress).toBe(100);
      expect(done.attempts).toBe(1);
      await waitFor(
        () => events.some((e) => e.type === 'completed' && e.jobId === 'job-a'),
        10_000,
        'completed event',
      );
      const progress = events
        .filter((e) => e.type === 'progress')
        .map((e) => (e as { progress: number }).progress);
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.every((p) => p >= 30)).toBe(true);
      expect(await q.getJob('nope')).toBeNull();
    });

    it('takes jobs by priority (high, normal, low), FIFO within a priority, and reports queue positions', async () => {
      const q = await open(uid('q'));
      await q.enqueue({ n: 1, tag: 'low' }, { jobId: 'p-low', priority: 'low' });
      await q.enqueue({ n: 2, tag: 'normal1' }, { jobId: 'p-n1', priority: 'normal' });
      await q.enqueue({ n: 3, tag: 'high' }, { jobId: 'p-high', priority: 'high' });
      await q.enqueue({ n: 4, tag: 'normal2' }, { jobId: 'p-n2', priority: 'normal' });
      expect(await q.position('p-high')).toBe(0);
      expect(await q.position('p-n1')).toBe(1);
      expect(await q.position('p-n2')).toBe(2);
      expect(await q.position('p-low')).toBe(3);
      expect((await q.counts()).waiting).toBe(4);
      const order: string[] = [];
      workers.push(
        q.process(
          async (job) => {
            order.push(job.data.tag!);
          },
          { concurrency: 1 },
        ),
      );
      await waitFor(() => order.length === 4, 20_000, 'four jobs');
      expect(order).toEqual(['high', 'normal1', 'normal2', 'low']);
      expect(await q.position('p-low')).toBeNull();
      await waitFor(async () => (await q.counts()).completed === 4, 5000, 'counts');
    });

    it('retries a failing job with exponential backoff, then succeeds', async () => {
      const q = await open(uid('q'));
      const events = await subscribeAll(q);
      const starts: number[] = [];
      const attemptsSeen: number[] = [];
      workers.push(
        q.process(async (job) => {
          starts.push(Date.now());
          attemptsSeen.push(job.attempt);
          if (job.attempt < 3) throw new Error(`boom ${job.attempt}`);
          return 'ok';
        }),
      );
      await q.enqueue({ n: 1 }, { jobId: 'r1', attempts: 3, backoffMs: 150 });
      const j = await waitFor(async () => {
        const x = await q.getJob('r1');
        return x?.state === 'completed' ? x : null;
      });
      expect(attemptsSeen).toEqual([1, 2, 3]);
      expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(140);
      expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(290); // doubled
      expect(j.attempts).toBe(3);
      await waitFor(
        () => events.filter((e) => e.type === 'retrying' && e.jobId === 'r1').length >= 1,
        10_000,
        'retrying events',
      );
    });

    it('fails a job for good after its last attempt and runs onFailed exactly once', async () => {
      const q = await open(uid('q'));
      const events = await subscribeAll(q);
      const w = failingWorker(q, new Error('corrupt video'));
      await q.enqueue({ n: 1 }, { jobId: 'f1', attempts: 2, backoffMs: 50 });
      await waitFor(() => w.failed.length > 0, 20_000, 'onFailed');
      const j = await q.getJob('f1');
      expect(j?.state).toBe('failed');
      expect(j?.error).toContain('corrupt video');
      expect(w.runs).toBe(2);
      await waitFor(
        () => events.some((e) => e.type === 'failed' && e.jobId === 'f1'),
        10_000,
        'failed event',
      );
      // Nothing more happens afterwards.
      await new Promise((r) => setTimeout(r, 300));
      expect(w.failed).toEqual(['f1:corrupt video']);
      expect(w.runs).toBe(2);
    });

    it('fails at once, without retries, on a permanent error', async () => {
      const q = await open(uid('q'));
      const w = failingWorker(q, new PermanentJobError('nobody in the video'));
      await q.enqueue({ n: 1 }, { jobId: 'perm', attempts: 3, backoffMs: 10 });
      await waitFor(() => w.failed.length > 0, 20_000, 'onFailed');
      expect(w.runs).toBe(1);
      const j = await q.getJob('perm');
      expect(j?.state).toBe('failed');
      expect(j?.error).toContain('nobody in the video');
    });

    it('runs jobs concurrently up to the worker concurrency', async () => {
      const q = await open(uid('q'));
      let running = 0;
      let peak = 0;
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      const w = q.process(
        async () => {
          running++;
          peak = Math.max(peak, running);
          await gate;
          running--;
        },
        { concurrency: 2 },
      );
      workers.push(w);
      for (let i = 0; i < 3; i++) await q.enqueue({ n: i }, { jobId: `c${i}` });
      await waitFor(() => running === 2, 10_000, 'two running');
      expect(w.running()).toBe(2);
      release();
      await waitFor(async () => (await q.counts()).completed === 3, 10_000, 'all done');
      expect(peak).toBe(2);
    });

    it('recovers a job whose worker died (lock not renewed) and completes it in another worker', async () => {
      const name = uid('q');
      const q1 = await open(name);
      const q2 = await open(name, true);
      let started = false;
      const dying = q1.process(async (job) => {
        started = true;
        await job.progress(10);
        await new Promise<void>((resolve) => job.signal.addEventListener('abort', () => resolve()));
        throw new Error('aborted');
      });
      await q1.enqueue({ n: 7 }, { jobId: 's1', attempts: 3, backoffMs: 10 });
      await waitFor(() => started, 10_000, 'first worker started');
      await waitFor(async () => (await q1.getJob('s1'))?.progress === 10, 10_000, 'progress 10');
      await dying.close({ abandon: true }); // like kill -9: the lock is neither released nor renewed
      const attempts: number[] = [];
      workers.push(
        q2.process(async (job) => {
          attempts.push(job.attempt);
          return 'second';
        }),
      );
      const j = await waitFor(
        async () => {
          const x = await q2.getJob('s1');
          return x?.state === 'completed' ? x : null;
        },
        30_000,
        'recovered job',
      );
      expect(j.result).toBe('second');
      expect(attempts).toEqual([2]);
    });

    it('a paused worker (machine disabled) takes no new jobs and finishes its running one; resumed, it takes them again', async () => {
      const name = uid('q');
      const qa = await open(name);
      const qb = await open(name, true);
      const ran: Record<string, string> = {};
      let releaseA: (() => void) | undefined;
      const a = qa.process(async (job) => {
        ran[job.id] = 'a';
        if (job.data.n === 1) await new Promise<void>((r) => (releaseA = r));
        return 'a';
      });
      workers.push(a);
      await qa.enqueue({ n: 1 }, { jobId: 'p1' });
      await waitFor(() => ran.p1 === 'a', 10_000, 'a runs p1');
      // Disabled while p1 runs: p1 finishes, the next jobs go to b.
      const drained = a.pause();
      expect(a.isPaused()).toBe(true);
      const b = qb.process(async (job) => {
        ran[job.id] = 'b';
        return 'b';
      });
      workers.push(b);
      for (const id of ['p2', 'p3', 'p4']) await qa.enqueue({ n: 2 }, { jobId: id });
      releaseA!();
      await drained;
      await waitFor(async () => (await qa.getJob('p1'))?.state === 'completed', 10_000, 'p1 completed');
      await waitFor(
        async () => {
          const states = await Promise.all(
            ['p2', 'p3', 'p4'].map(async (id) => (await qa.getJob(id))?.state),
          );
          return states.every((st) => st === 'completed');
        },
        20_000,
        'p2-p4 completed',
      );
      expect([ran.p2, ran.p3, ran.p4]).toEqual(['b', 'b', 'b']);
      // Enabled again (and b disabled): a takes the next one.
      await b.pause();
      a.resume();
      expect(a.isPaused()).toBe(false);
      await qa.enqueue({ n: 3 }, { jobId: 'p5' });
      await waitFor(async () => (await qa.getJob('p5'))?.state === 'completed', 20_000, 'p5 completed');
      expect(ran.p5).toBe('a');
    });

    it('keeps waiting jobs across a restart of the queue', async () => {
      const name = uid('q');
      const q1 = await open(name);
      await q1.enqueue({ n: 5 }, { jobId: 'keep' });
      await q1.close();
      const q2 = await open(name, true);
      let seen = 0;
      workers.push(
        q2.process(async (job) => {
          seen = job.data.n;
        }),
      );
      await waitFor(() => seen === 5, 10_000, 'job after restart');
      expect(await q2.remove('keep')).toBe(true);
      expect(await q2.getJob('keep')).toBeNull();
    });
  });
}
