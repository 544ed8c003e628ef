/**
 * `startWorker(infra)`: consumes capture jobs. Used in-process by the server's `npm start` (embedded mode) and
 * by `src/main.ts` as a process of its own (scale-out: any number, on any machine sharing the database, the
 * storage and — with BullMQ — Redis).
 *
 * A job: hooks.started → fetch inputs from storage into a temp folder → run the capture path (`capture.ts`),
 * reporting progress through the queue and onto the video → store tracks, clip, thumbnail and zips under the
 * video's storage prefix → hooks.completed. A failure is retried by the queue; after the last attempt
 * hooks.failedForGood refunds. Failures that a retry cannot fix (unreadable video, nobody in it) are
 * permanent. The worker registers itself as a machine and sends a heartbeat every `heartbeatMs`.
 */
import { mkdtemp, readFile, rm, utimes } from 'node:fs/promises';
import { cpus, hostname, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  CaptureJobData,
  CaptureJobs,
  Config,
  Infra,
  JobQueue,
  MachineService,
  ObjectStorage,
  Services,
  VideoOutputs,
} from '@mocap/server';
import { PermanentJobError } from '@mocap/server';
import { closeTrackingPool, isVideoError, type PoseModel, type Tracks, warmUpTracking } from '@mocap/vision';
import {
  boneTypeSlug,
  type CaptureResult,
  capture,
  exportFromClip,
  prestartSolveThread,
  solveAndExport,
  userSolveOptions,
} from './capture.ts';
import { judgeTracks } from './judge.ts';
import { reconcileEvery } from './reconcile.ts';

export interface WorkerInfra {
  queue: JobQueue<CaptureJobData>;
  storage: ObjectStorage;
  jobs: Pick<CaptureJobs, 'started' | 'progress' | 'completed' | 'failedForGood'> &
    Partial<Pick<CaptureJobs, 'reconcile'>>;
  machines?: Pick<MachineService, 'heartbeat'>;
}

export interface WorkerOptions {
  /** Machine name (default `<host>-<pid>`). */
  name?: string;
  /** Jobs at once (default 1: tracking already uses every core). */
  concurrency?: number;
  /** Body model (default heavy). */
  model?: PoseModel;
  /** Tracking threads per job (default: one per core). */
  trackingWorkers?: number;
  /** Temp folder for job files (default the OS temp dir). */
  tmpDir?: string;
  heartbeatMs?: number;
  /** How often lost or unfinished jobs are reconciled (default 60 s; 0 = never). */
  reconcileMs?: number;
  /** 'embedded' (inside the server) or 'process'. */
  kind?: string;
  log?: (msg: string) => void;
  /**
   * At start, convert the models and load and warm up the tracking threads for `model` in the background, so
   * the first job runs like the later ones (default: on in `startWorker`, off in `runWorker`). A job arriving
   * during the warm-up waits for it instead of loading the models a second time.
   */
  warmUp?: boolean;
}

export interface RunningWorker {
  name: string;
  close(options?: { abandon?: boolean }): Promise<void>;
}

const VERSION = '0.1.0';

function permanent(err: unknown): boolean {
  if (isVideoError(err) && err.code !== 'timeout') return true;
  const m = err instanceof Error ? err.message : '';
  return /no frame (has a|with a tracked) body|nobody|no person|unknown bone type|clip has no frames/i.test(
    m,
  );
}

async function storeOutputs(
  storage: ObjectStorage,
  prefix: string,
  r: Partial<
    Pick<
      CaptureResult,
      'tracksPath' | 'clipPath' | 'thumbnailPath' | 'frameCount' | 'fps' | 'warnings' | 'judgement'
    >
  > &
    Pick<CaptureResult, 'zips'>,
): Promise<VideoOutputs> {
  const out: VideoOutputs = { zips: {} };
  if (r.tracksPath) {
    out.tracksKey = `${prefix}/tracks.json`;
    await storage.putFile(out.tracksKey, r.tracksPath, { contentType: 'application/json' });
  }
  if (r.clipPath) {
    out.clipKey = `${prefix}/clip.json`;
    await storage.putFile(out.clipKey, r.clipPath, { contentType: 'application/json' });
  }
  if (r.thumbnailPath) {
    out.thumbKey = `${prefix}/thumbnail.jpg`;
    await storage.putFile(out.thumbKey, r.thumbnailPath, { contentType: 'image/jpeg' });
  }
  for (const z of r.zips) {
    const key = `${prefix}/zips/${boneTypeSlug(z.boneType)}.zip`;
    await storage.putFile(key, z.path, { contentType: 'application/zip' });
    out.zips![z.boneType] = { key, fileName: z.fileName, size: z.size };
  }
  if (r.frameCount !== undefined) out.frameCount = r.frameCount;
  if (r.fps !== undefined) out.fps = r.fps;
  const judged = new Set(r.judgement?.warnings ?? []);
  // The judgement is stored as data (the web words its ranges in the user's language), not as English warnings.
  if (r.warnings) out.warnings = r.warnings.filter((w) => !judged.has(w)).slice(0, 20);
  if (r.judgement) {
    const { confidence, ranges, unusable } = r.judgement;
    out.judgement = { confidence, ranges: ranges.slice(0, 50), unusable };
  }
  return out;
}

/**
 * Starts a worker over the app's infrastructure and services — the contract of the server's `npm start`
 * (in-process worker) and of `main.ts`.
 */
export function startWorker(
  app: { infra: Infra; services: Services; config: Config },
  options: WorkerOptions = {},
): RunningWorker {
  const { infra, services, config } = app;
  return runWorker(
    {
      queue: services.captureJobs.queue,
      storage: infra.storage,
      jobs: services.captureJobs,
      machines: services.machines,
    },
    {
      model: config.CAPTURE_MODEL,
      concurrency: config.WORKER_CONCURRENCY,
      tmpDir: join(config.dataDir, 'tmp'),
      kind: 'embedded',
      warmUp: true,
      ...options,
    },
  );
}

/** Runs capture jobs from `infra.queue` until closed. */
export function runWorker(infra: WorkerInfra, options: WorkerOptions = {}): RunningWorker {
  const name = options.name ?? `${hostname()}-${process.pid}`;
  const log = options.log ?? (() => {});
  const concurrency = Math.max(1, options.concurrency ?? 1);
  let running = 0;
  // What the heartbeat reports besides the counts: jobs done/failed since start, the videos in hand.
  let done = 0;
  let failed = 0;
  let lastJobAt: number | null = null;
  const inHand = new Set<number>();
  if (options.warmUp) {
    void prestartSolveThread().then(
      (w) =>
        w &&
        log(
          `solve/export thread ready and warm (${w.boneTypes} bone types exported, ${Math.round(w.ms)} ms)`,
        ),
    );
    const t0 = Date.now();
    warmUpTracking({ model: options.model ?? 'heavy', workers: options.trackingWorkers }).then(
      () => log(`tracking models ready and warm (${Date.now() - t0} ms)`),
      (e: unknown) => log(`tracking warm-up failed: ${e instanceof Error ? e.message : String(e)}`),
    );
  }

  const worker = infra.queue.process(
    async (job) => {
      const data = job.data;
      const jv = await infra.jobs.started(data, job.attempt);
      if (!jv) return { skipped: true };
      running++;
      inHand.add(data.videoId);
      lastJobAt = Date.now();
      const dir = await mkdtemp(join(options.tmpDir ?? tmpdir(), `mocap-job-${data.videoId}-`));
      log(`job ${job.id} (${data.mode}) attempt ${job.attempt}/${job.maxAttempts}: video ${data.videoId}`);
      let lastWrite = 0;
      let lastTouch = Date.now();
      let lastPct = -1;
      const onProgress = (pct: number) => {
        const now = Date.now();
        // A live job's folder stays young: the tmp sweeper removes only folders untouched for 10 minutes.
        if (now - lastTouch > 60_000) {
          lastTouch = now;
          void utimes(dir, now / 1000, now / 1000).catch(() => {});
        }
        if (pct === lastPct || (now - lastWrite < 500 && pct < 99)) return;
        lastPct = pct;
        lastWrite = now;
        job.progress(pct).catch(() => {});
        infra.jobs.progress(data, pct).catch(() => {});
      };
      const v = jv.video;
      const opts = {
        model: (['lite', 'full', 'heavy'].includes(v.modelType)
          ? v.modelType
          : (options.model ?? 'heavy')) as PoseModel,
        // The options stored with the video (upload form, last remake); older rows: the solver's defaults.
        solve: v.solveOptions ? userSolveOptions(v.solveOptions) : undefined,
        hands: v.captureType === 'hands' || v.captureType === 'full',
        face: v.captureType === 'face' || v.captureType === 'full',
        baseName: v.name,
        workers: options.trackingWorkers,
        signal: job.signal,
        onProgress,
      };
      try {
        let outputs: VideoOutputs;
        if (data.mode === 'capture') {
          const src = join(dir, 'source.mp4');
          await infra.storage.download(jv.sourceKey, src);
          const r = await capture(src, join(dir, 'out'), opts);
          outputs = await storeOutputs(infra.storage, jv.prefix, r);
        } else if (data.mode === 'resolve') {
          if (!v.outputs.tracksKey) throw new PermanentJobError('no tracks to solve from');
          const tracksPath = join(dir, 'tracks.json');
          await infra.storage.download(v.outputs.tracksKey, tracksPath);
          const r = await solveAndExport(tracksPath, join(dir, 'out'), opts);
          // The repaired tracks are judged again (a repair may mend what the capture flagged).
          const judgement = judgeTracks(JSON.parse(await readFile(tracksPath, 'utf8')) as Tracks);
          outputs = await storeOutputs(infra.storage, jv.prefix, { ...r, judgement });
          outputs.tracksKey = v.outputs.tracksKey;
        } else {
          if (!v.outputs.clipKey) throw new PermanentJobError('no clip to export from');
          const clipPath = join(dir, 'clip.json');
          await infra.storage.download(v.outputs.clipKey, clipPath);
          const zips = await exportFromClip(clipPath, join(dir, 'out'), opts);
          outputs = await storeOutputs(infra.storage, jv.prefix, { zips });
        }
        await infra.jobs.completed(data, outputs);
        done++;
        log(`job ${job.id} done`);
        return { zips: Object.keys(outputs.zips ?? {}).length };
      } catch (err) {
        failed++;
        log(`job ${job.id} failed: ${err instanceof Error ? err.message : String(err)}`);
        if (permanent(err)) throw new PermanentJobError(err instanceof Error ? err.message : String(err));
        throw err;
      } finally {
        running--;
        inHand.delete(data.videoId);
        await rm(dir, { recursive: true, force: true }).catch(() => {});
      }
    },
    {
      concurrency,
      workerId: name,
      onFailed: async (info, error) => {
        log(`job ${info.id} failed for good: ${error}`);
        await infra.jobs.failedForGood(info.data, error);
      },
    },
  );

  // CPU of this process since the last beat, in % of one core (a capture uses threads: may exceed 100).
  let cpuMark = { usage: process.cpuUsage(), at: Date.now() };
  const cpuPercent = () => {
    const usage = process.cpuUsage();
    const at = Date.now();
    const used = usage.user - cpuMark.usage.user + (usage.system - cpuMark.usage.system);
    const pct = at > cpuMark.at ? used / 1000 / (at - cpuMark.at) : 0;
    cpuMark = { usage, at };
    return Math.round(pct * 1000) / 10;
  };
  // An administrator's "disable" (the heartbeat answers enabled: false) drains the worker: running jobs finish,
  // no new one is taken until it is enabled again.
  let closing = false;
  const beat = (status: 'online' | 'busy' | 'offline') =>
    infra.machines
      ?.heartbeat({
        name,
        host: hostname(),
        kind: options.kind ?? 'process',
        capacity: concurrency,
        running,
        version: VERSION,
        status:
          status === 'offline' ? 'offline' : worker.isPaused() ? 'draining' : running > 0 ? 'busy' : 'online',
        meta: {
          pid: process.pid,
          queue: infra.queue.kind,
          model: options.model ?? 'heavy',
          cpu: cpuPercent(),
          load1: Math.round(loadavg()[0]! * 100) / 100,
          cores: cpus().length,
          rssMb: Math.round(process.memoryUsage().rss / 1048576),
          jobsDone: done,
          jobsFailed: failed,
          lastJobAt,
          videos: [...inHand],
        },
      })
      .then((m) => {
        if (!m || closing || status === 'offline') return;
        if (m.enabled === false && !worker.isPaused()) {
          log(
            `machine ${name} disabled by an administrator: finishing the running job(s), taking no new ones`,
          );
          void worker.pause().catch(() => {});
        } else if (m.enabled !== false && worker.isPaused()) {
          log(`machine ${name} enabled again: taking jobs`);
          worker.resume();
        }
      })
      .catch(() => undefined);
  void beat('online');
  const timer = setInterval(() => void beat('online'), options.heartbeatMs ?? 10_000);
  timer.unref();
  const stopReconcile = reconcileEvery(infra.jobs, options.reconcileMs ?? 60_000, log);

  return {
    name,
    async close(closeOptions = {}) {
      closing = true;
      clearInterval(timer);
      stopReconcile();
      await worker.close(closeOptions);
      await beat('offline');
      if (options.warmUp) await closeTrackingPool();
    },
  };
}
