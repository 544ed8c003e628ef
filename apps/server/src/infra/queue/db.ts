/**
 * Database-backed job queue (the embedded default), over Kysely on SQLite or PostgreSQL. Table `queue_jobs`
 * (migration `100_queue_jobs`). Every state change is one UPDATE, so jobs survive restarts and crashes, and any
 * number of processes sharing the database can work the queue:
 * - claim: one atomic `UPDATE … WHERE id = (SELECT … ORDER BY priority, created_at LIMIT 1 [FOR UPDATE SKIP
 *   LOCKED]) RETURNING *` sets the job active, takes a lease (`lock_until`) and counts the attempt;
 * - a running job's lease is renewed every `lockMs / 3`; a job whose lease ran out (its worker died) is put
 *   back by whichever worker notices (or failed for good when it had no attempt left);
 * - progress and results are columns; `subscribe` polls rows changed since the last look (`updated_at`) so
 *   listeners in every process see every job's events.
 */
import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import { type Kysely, sql } from 'kysely';
import type * as Q from '../../ports.ts';
import { backoffDelay, errorText, isPermanent, PRIORITY_RANK } from '../../ports.ts';

export interface QueueJobsTable {
  id: string;
  queue: string;
  data: string;
  priority: number;
  state: string;
  progress: number;
  attempts: number;
  max_attempts: number;
  backoff_ms: number;
  run_at: number | string;
  locked_by: string | null;
  lock_until: number | string | null;
  error: string | null;
  result: string | null;
  created_at: number | string;
  updated_at: number | string;
  finished_at: number | string | null;
}

interface QDB {
  queue_jobs: QueueJobsTable;
}

export interface DbQueueOptions {
  /** Kysely instance over the app database (any schema type). */
  // biome-ignore lint/suspicious/noExplicitAny: the app's Database type is not this module's concern.
  db: Kysely<any>;
  dialect: 'sqlite' | 'postgres';
  name: string;
  /** Lease of a running job (default 30 s): a worker silent this long is presumed dead. */
  lockMs?: number;
  /** How often idle workers look for jobs and subscribers for changes (default 500 ms). */
  pollMs?: number;
}

const RANK_TO_PRIORITY: Record<number, Q.Priority> = { 1: 'high', 2: 'normal', 3: 'low' };
const num = (v: number | string | null | undefined): number =>
  v === null || v === undefined ? 0 : Number(v);

function toInfo<T>(r: QueueJobsTable): Q.JobInfo<T> {
  const info: Q.JobInfo<T> = {
    id: r.id,
    data: JSON.parse(r.data) as T,
    state: r.state as Q.JobState,
    progress: r.progress,
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    priority: RANK_TO_PRIORITY[r.priority] ?? 'normal',
    createdAt: num(r.created_at),
  };
  if (r.state === 'waiting' && num(r.run_at) > Date.now()) info.state = 'delayed';
  if (r.error) info.error = r.error;
  if (r.result) info.result = JSON.parse(r.result);
  if (r.finished_at !== null) info.finishedAt = num(r.finished_at);
  return info;
}

export class DbQueue<T = unknown> implements Q.JobQueue<T> {
  readonly kind = 'db' as const;
  readonly name: string;
  private readonly db: Kysely<QDB>;
  private readonly lockMs: number;
  private readonly pollMs: number;
  private readonly local = new EventEmitter();
  private readonly listeners = new Set<(e: Q.QueueEvent) => void>();
  private pollTimer: NodeJS.Timeout | undefined;
  private pollCursor = 0;
  private readonly seen = new Map<string, string>();
  private readonly workers = new Set<DbWorker<T>>();
  private closed = false;

  constructor(private readonly opts: DbQueueOptions) {
    this.db = opts.db as Kysely<QDB>;
    this.name = opts.name;
    this.lockMs = opts.lockMs ?? 30_000;
    this.pollMs = opts.pollMs ?? 500;
    this.local.setMaxListeners(0);
  }

  async enqueue(data: T, o: Q.EnqueueOptions): Promise<void> {
    const now = Date.now();
    await this.db
      .insertInto('queue_jobs')
      .values({
        id: o.jobId,
        queue: this.name,
        data: JSON.stringify(data),
        priority: PRIORITY_RANK[o.priority ?? 'normal'],
        state: 'waiting',
        progress: 0,
        attempts: 0,
        max_attempts: Math.max(1, o.attempts ?? 3),
        backoff_ms: Math.max(0, o.backoffMs ?? 2000),
        run_at: now,
        locked_by: null,
        lock_until: null,
        error: null,
        result: null,
        created_at: now,
        updated_at: now,
        finished_at: null,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    this.local.emit('wake');
  }

  async getJob(jobId: string): Promise<Q.JobInfo<T> | null> {
    const r = await this.db
      .selectFrom('queue_jobs')
      .selectAll()
      .where('id', '=', jobId)
      .where('queue', '=', this.name)
      .executeTakeFirst();
    return r ? toInfo<T>(r) : null;
  }

  async position(jobId: string): Promise<number | null> {
    const r = await this.db
      .selectFrom('queue_jobs')
      .select(['priority', 'created_at', 'state'])
      .where('id', '=', jobId)
      .where('queue', '=', this.name)
      .executeTakeFirst();
    if (r?.state !== 'waiting') return null;
    const ahead = await this.db
      .selectFrom('queue_jobs')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('queue', '=', this.name)
      .where('state', '=', 'waiting')
      .where((eb) =>
        eb.or([
          eb('priority', '<', r.priority),
          eb.and([eb('priority', '=', r.priority), eb('created_at', '<', r.created_at)]),
          eb.and([
            eb('priority', '=', r.priority),
            eb('created_at', '=', r.created_at),
            eb('id', '<', jobId),
          ]),
        ]),
      )
      .executeTakeFirstOrThrow();
    return Number(ahead.n);
  }

  async counts(): Promise<Record<Q.JobState, number>> {
    const rows = await this.db
      .selectFrom('queue_jobs')
      .select(['state', 'run_at'])
      .where('queue', '=', this.name)
      .where('state', 'in', ['waiting', 'active'])
      .execute();
    const out: Record<Q.JobState, number> = { waiting: 0, delayed: 0, active: 0, completed: 0, failed: 0 };
    const now = Date.now();
    for (const r of rows) {
      if (r.state === 'waiting' && num(r.run_at) > now) out.delayed++;
      else out[r.state as Q.JobState]++;
    }
    const done = await this.db
      .selectFrom('queue_jobs')
      .select(['state', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('queue', '=', this.name)
      .where('state', 'in', ['completed', 'failed'])
      .groupBy('state')
      .execute();
    for (const d of done) out[d.state as Q.JobState] = Number(d.n);
    return out;
  }

  async remove(jobId: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('queue_jobs')
      .where('id', '=', jobId)
      .where('queue', '=', this.name)
      .where('state', '!=', 'active')
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  subscribe(listener: (e: Q.QueueEvent) => void): () => void {
    this.listeners.add(listener);
    if (!this.pollTimer) {
      this.pollCursor = Date.now() - 1000;
      const tick = () => {
        this.pollEvents()
          .catch(() => {})
          .finally(() => {
            if (this.listeners.size > 0 && !this.closed) this.pollTimer = setTimeout(tick, this.pollMs);
            else this.pollTimer = undefined;
          });
      };
      this.pollTimer = setTimeout(tick, 0);
    }
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Emits the events implied by rows changed since the last poll (deduplicated per job state). */
  private async pollEvents(): Promise<void> {
    const since = this.pollCursor;
    const rows = await this.db
      .selectFrom('queue_jobs')
      .select(['id', 'state', 'progress', 'attempts', 'max_attempts', 'error', 'updated_at'])
      .where('queue', '=', this.name)
      .where('updated_at', '>=', since - 2000)
      .execute();
    let max = since;
    for (const r of rows) {
      max = Math.max(max, num(r.updated_at));
      const sig = `${r.state}|${r.progress}|${r.attempts}`;
      if (this.seen.get(r.id) === sig) continue;
      const prev = this.seen.get(r.id);
      this.seen.set(r.id, sig);
      if (prev === undefined && num(r.updated_at) < since) continue; // old news at subscription time
      const events: Q.QueueEvent[] = [];
      const [pState, pProgress, pAttempts] = prev?.split('|') ?? [];
      if (r.state === 'active' && (pState !== 'active' || Number(pAttempts) !== r.attempts)) {
        events.push({ type: 'active', jobId: r.id, attempt: r.attempts });
      }
      // a claimed job starts at 0: that is activation, not a report of the handler's (BullMQ sends none either)
      const justActive = pState !== 'active' || Number(pAttempts) !== r.attempts;
      if (r.state === 'active' && String(r.progress) !== pProgress && !(justActive && r.progress === 0)) {
        events.push({ type: 'progress', jobId: r.id, progress: r.progress });
      }
      if (
        r.state === 'waiting' &&
        r.attempts > 0 &&
        r.error !== null &&
        (pState === 'active' || Number(pAttempts) !== r.attempts)
      ) {
        events.push({ type: 'retrying', jobId: r.id, attempt: r.attempts, error: r.error ?? '' });
      }
      if (r.state === 'completed' && pState !== 'completed') {
        if (String(r.progress) !== pProgress)
          events.push({ type: 'progress', jobId: r.id, progress: r.progress });
        events.push({ type: 'completed', jobId: r.id });
      }
      if (r.state === 'failed' && pState !== 'failed') {
        events.push({ type: 'failed', jobId: r.id, error: r.error ?? '' });
      }
      for (const e of events) for (const l of this.listeners) l(e);
    }
    this.pollCursor = max;
    if (this.seen.size > 10_000) this.seen.clear();
  }

  process<R>(handler: Q.JobHandler<T, R>, options: Q.ProcessOptions<T> = {}): Q.QueueWorker {
    const w = new DbWorker<T>(this, handler as Q.JobHandler<T, unknown>, options);
    this.workers.add(w);
    w.start();
    return w;
  }

  /** @internal */
  get internals() {
    return {
      db: this.db,
      dialect: this.opts.dialect,
      lockMs: this.lockMs,
      pollMs: this.pollMs,
      local: this.local,
      forget: (w: DbWorker<T>) => this.workers.delete(w),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    if (this.pollTimer) clearTimeout(this.pollTimer);
    await Promise.all([...this.workers].map((w) => w.close()));
  }
}

class DbWorker<T> implements Q.QueueWorker {
  readonly id: string;
  private readonly active = new Map<string, AbortController>();
  private stopping = false;
  private paused = false;
  private abandoned = false;
  private timer: NodeJS.Timeout | undefined;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly onWake = () => this.wake?.();
  private readonly concurrency: number;
  private readonly running_ = new Set<Promise<void>>();

  constructor(
    private readonly q: DbQueue<T>,
    private readonly handler: Q.JobHandler<T, unknown>,
    private readonly opts: Q.ProcessOptions<T>,
  ) {
    this.id = opts.workerId ?? `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
    this.concurrency = Math.max(1, opts.concurrency ?? 1);
  }

  running(): number {
    return this.active.size;
  }

  async pause(): Promise<void> {
    this.paused = true;
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.onWake();
  }

  isPaused(): boolean {
    return this.paused;
  }

  start(): void {
    this.q.internals.local.on('wake', this.onWake);
    this.loop = this.run();
  }

  private async sleep(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(resolve, ms);
    });
    this.wake = undefined;
    if (this.timer) clearTimeout(this.timer);
  }

  private async run(): Promise<void> {
    const { pollMs } = this.q.internals;
    let lastRecover = 0;
    while (!this.stopping) {
      try {
        if (Date.now() - lastRecover >= pollMs) {
          lastRecover = Date.now();
          await this.recoverStalled();
        }
        let claimed = false;
        while (!this.stopping && !this.paused && this.active.size < this.concurrency) {
          const row = await this.claim();
          if (!row) break;
          claimed = true;
          const p = this.execute(row).finally(() => this.running_.delete(p));
          this.running_.add(p);
        }
        if (!claimed || this.active.size >= this.concurrency) await this.sleep(pollMs);
      } catch {
        if (!this.stopping) await this.sleep(pollMs);
      }
    }
  }

  private async claim(): Promise<QueueJobsTable | undefined> {
    const { db, dialect, lockMs } = this.q.internals;
    const now = Date.now();
    return db
      .updateTable('queue_jobs')
      .set({
        state: 'active',
        locked_by: this.id,
        lock_until: now + lockMs,
        attempts: sql`attempts + 1`,
        updated_at: now,
      })
      .where('id', '=', (eb) => {
        let sub = eb
          .selectFrom('queue_jobs')
          .select('id')
          .where('queue', '=', this.q.name)
          .where('state', '=', 'waiting')
          .where('run_at', '<=', now)
          .orderBy('priority')
          .orderBy('created_at')
          .orderBy('id')
          .limit(1);
        if (dialect === 'postgres') sub = sub.forUpdate().skipLocked();
        return sub;
      })
      .where('state', '=', 'waiting')
      .returningAll()
      .executeTakeFirst();
  }

  /** Puts back (or fails for good) active jobs whose lease ran out. */
  private async recoverStalled(): Promise<void> {
    const { db } = this.q.internals;
    const now = Date.now();
    const stalled = await db
      .selectFrom('queue_jobs')
      .selectAll()
      .where('queue', '=', this.q.name)
      .where('state', '=', 'active')
      .where('lock_until', '<', now)
      .execute();
    for (const s of stalled) {
      // Our own running job only looks stalled when this event loop was busy: renew instead.
      if (s.locked_by === this.id && this.active.has(s.id)) {
        await db
          .updateTable('queue_jobs')
          .set({ lock_until: now + this.q.internals.lockMs })
          .where('id', '=', s.id)
          .where('locked_by', '=', this.id)
          .execute();
        continue;
      }
      const last = s.attempts >= s.max_attempts;
      const error = `worker ${s.locked_by ?? '?'} stopped responding (lease expired)`;
      const r = await db
        .updateTable('queue_jobs')
        .set({
          state: last ? 'failed' : 'waiting',
          locked_by: null,
          lock_until: null,
          error,
          run_at: now,
          updated_at: now,
          finished_at: last ? now : null,
        })
        .where('id', '=', s.id)
        .where('state', '=', 'active')
        .where('lock_until', '=', s.lock_until)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) > 0) {
        if (last) await this.failedForGood({ ...s, state: 'failed', error }, error);
        else this.q.internals.local.emit('wake');
      }
    }
  }

  private async failedForGood(row: QueueJobsTable, error: string): Promise<void> {
    if (!this.opts.onFailed) return;
    try {
      await this.opts.onFailed(toInfo<T>(row), error);
    } catch {
      // The hook's own failure must not crash the worker; hooks are idempotent and reconciled elsewhere.
    }
  }

  private async execute(row: QueueJobsTable): Promise<void> {
    const { db, lockMs } = this.q.internals;
    const ac = new AbortController();
    this.active.set(row.id, ac);
    let lost = false;
    // Lease renewal; a lost lease (someone else took the job back) aborts the handler.
    const renew = setInterval(
      () => {
        if (this.abandoned) return;
        db.updateTable('queue_jobs')
          .set({ lock_until: Date.now() + lockMs })
          .where('id', '=', row.id)
          .where('locked_by', '=', this.id)
          .where('state', '=', 'active')
          .executeTakeFirst()
          .then((r) => {
            if (Number(r.numUpdatedRows) === 0 && !this.abandoned) {
              lost = true;
              ac.abort(new Error('lost the job lock'));
            }
          })
          .catch(() => {});
      },
      Math.max(50, Math.floor(lockMs / 3)),
    );
    const mine = (qb: ReturnType<typeof db.updateTable<'queue_jobs'>>) =>
      qb.where('id', '=', row.id).where('locked_by', '=', this.id).where('state', '=', 'active');
    const ctx: Q.JobContext<T> = {
      id: row.id,
      data: JSON.parse(row.data) as T,
      attempt: row.attempts,
      maxAttempts: row.max_attempts,
      signal: ac.signal,
      progress: async (percent: number) => {
        if (this.abandoned) return;
        const p = Math.max(0, Math.min(100, Math.round(percent)));
        await mine(db.updateTable('queue_jobs').set({ progress: p, updated_at: Date.now() })).execute();
      },
    };
    try {
      const result = await this.handler(ctx);
      if (this.abandoned || lost) return;
      const now = Date.now();
      await mine(
        db.updateTable('queue_jobs').set({
          state: 'completed',
          progress: 100,
          result: result === undefined ? null : JSON.stringify(result),
          error: null,
          locked_by: null,
          lock_until: null,
          updated_at: now,
          finished_at: now,
        }),
      ).execute();
    } catch (err) {
      if (this.abandoned || lost) return;
      const error = errorText(err);
      const now = Date.now();
      const last = row.attempts >= row.max_attempts || isPermanent(err);
      const r = await mine(
        db.updateTable('queue_jobs').set({
          state: last ? 'failed' : 'waiting',
          error,
          locked_by: null,
          lock_until: null,
          run_at: last ? now : now + backoffDelay(row.backoff_ms, row.attempts),
          updated_at: now,
          finished_at: last ? now : null,
        }),
      ).executeTakeFirst();
      if (last && Number(r.numUpdatedRows) > 0)
        await this.failedForGood({ ...row, state: 'failed', error }, error);
    } finally {
      clearInterval(renew);
      this.active.delete(row.id);
      this.wake?.();
    }
  }

  async close(options: { abandon?: boolean } = {}): Promise<void> {
    this.stopping = true;
    this.q.internals.local.off('wake', this.onWake);
    if (options.abandon) {
      this.abandoned = true;
      for (const ac of this.active.values()) ac.abort(new Error('worker abandoned its jobs'));
    }
    this.wake?.();
    await this.loop;
    if (!options.abandon) await Promise.allSettled([...this.running_]);
    this.q.internals.forget(this);
  }
}
