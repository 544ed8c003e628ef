import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import {
  type ModelInfo,
  TRACKS_FORMAT,
  TRACKS_VERSION,
  type TrackFrame,
  type Tracks,
} from '@mocap/contracts';
import { convertCached } from './convert/cache.ts';
import { FrameTracker, type FrameTrackerOptions, modelNames } from './frame-tracker.ts';
import { type ModelName, modelJsonPath, type PoseModel } from './models.ts';
import { HAND_OUTPUTS } from './pose/hands.ts';
import { POSE_OUTPUTS } from './pose/landmarks.ts';
import { hipCentre, type RangeRequest, type RangeResult, trackRange } from './range.ts';
import type { Backend } from './runtime/index.ts';
import { probeVideo, toVideoMeta, VideoError, type VideoErrorCode, type VideoInfo } from './video/index.ts';

/**
 * `video → tracks`: probes the video, splits it into contiguous shares tracked in parallel by worker threads
 * (one onnxruntime thread each: measured faster than one process with two intra-op threads), re-aligns the
 * shares so the same person is followed across their boundaries, and assembles the tracks document.
 */

export interface TrackVideoOptions {
  model?: PoseModel;
  hands?: boolean;
  face?: boolean;
  backend?: Backend;
  /** Parallel shares (worker threads). Default: the number of cores (at most 4); 1 = in this thread. */
  workers?: number;
  /** onnxruntime intra-op threads per worker. Default 1. */
  threads?: number;
  /** Frames wider than this are downscaled before inference (0 = never). Default 960. */
  inferenceWidth?: number;
  onProgress?: (p: { done: number; total: number }) => void;
  signal?: AbortSignal;
  /**
   * Keep the tracking threads (models loaded and warmed up) for the next call with the same models
   * (default true, or false with MOCAP_TRACK_KEEP_WARM=0). Idle threads do not keep the process alive; at most
   * one idle pool is kept.
   */
  keepWarm?: boolean;
}

/** Clips shorter than this many frames per share run in one thread (worker start-up would dominate). */
const MIN_FRAMES_PER_SHARE = 90;
export const DEFAULT_INFERENCE_WIDTH = 960;

export async function trackVideo(path: string, options: TrackVideoOptions = {}): Promise<Tracks> {
  const info = await probeVideo(path);
  return trackProbedVideo(info, options);
}

export async function trackProbedVideo(info: VideoInfo, options: TrackVideoOptions = {}): Promise<Tracks> {
  const opts: FrameTrackerOptions = {
    model: options.model ?? 'heavy',
    hands: options.hands ?? false,
    face: options.face ?? false,
    backend: options.backend ?? 'ort',
    threads: options.threads ?? 1,
  };
  const total = info.frameCount;
  const inferenceWidth = options.inferenceWidth ?? DEFAULT_INFERENCE_WIDTH;
  const maxWorkers = options.workers ?? defaultWorkers();
  const shares = Math.max(1, Math.min(maxWorkers, Math.floor(total / MIN_FRAMES_PER_SHARE)));
  const keepWarm = options.keepWarm ?? process.env.MOCAP_TRACK_KEEP_WARM !== '0';
  return trackShares(info, options, opts, total, inferenceWidth, maxWorkers, shares, keepWarm);
}

async function trackShares(
  info: VideoInfo,
  options: TrackVideoOptions,
  opts: FrameTrackerOptions,
  total: number,
  inferenceWidth: number,
  maxWorkers: number,
  shares: number,
  keepWarm: boolean,
): Promise<Tracks> {
  let done = 0;
  const progress = () => options.onProgress?.({ done: Math.min(done, total), total });
  progress();

  let results: RangeResult[];
  let models: Record<string, ModelInfo>;
  // A warm pool serves short clips too (no models to load); without one, a short clip is tracked here.
  const pooled = maxWorkers > 1 && (shares > 1 || (keepWarm && opts.backend === 'ort'));
  if (!pooled) {
    const tracker = await FrameTracker.create(opts);
    try {
      models = tracker.models;
      const r = await trackRange(
        tracker,
        info,
        { start: 0, end: total, inferenceWidth },
        () => {
          done++;
          progress();
        },
        options.signal,
      );
      results = [r];
    } finally {
      await tracker.dispose();
    }
  } else {
    const pool = await acquirePool(maxWorkers, opts, keepWarm);
    let ok = false;
    try {
      models = pool.models;
      const bounds = Array.from({ length: shares + 1 }, (_, k) => Math.round((k * total) / shares));
      results = await Promise.all(
        bounds.slice(0, -1).map((start, k) =>
          pool.run(
            k,
            info,
            { start, end: bounds[k + 1], inferenceWidth, decodeThreads: 1 },
            () => {
              done++;
              progress();
            },
            options.signal,
          ),
        ),
      );
      await realignShares(results, bounds, pool, info, inferenceWidth, options.signal);
      ok = true;
    } finally {
      await releasePool(pool, ok && keepWarm);
    }
  }

  const frames = results.flatMap((r) => r.frames);
  const warnings = [...new Set(results.flatMap((r) => r.warnings))];
  const found = frames.filter((f) => f.state !== 'lost').length;
  if (frames.length === 0) warnings.push('the video has no decodable frames');
  else if (found === 0) warnings.push('nobody was found in the video');
  else if (found < frames.length * 0.5) {
    warnings.push(
      `the person was found on only ${Math.round((100 * found) / frames.length)} % of the frames`,
    );
  }
  const infoOf = (key: string) => models[key];
  return {
    format: TRACKS_FORMAT,
    version: TRACKS_VERSION,
    createdAt: new Date().toISOString(),
    video: { ...toVideoMeta(info), frameCount: frames.length },
    backend: opts.backend,
    models: {
      detector: infoOf('detector'),
      pose: infoOf('pose'),
      ...(models.hands ? { hands: models.hands } : {}),
      ...(models.face ? { face: models.face } : {}),
      ...(models.iris ? { iris: models.iris } : {}),
    },
    inferenceWidth: inferenceWidth > 0 ? Math.min(inferenceWidth, info.width) : info.width,
    frames,
    warnings,
  };
}

function defaultWorkers(): number {
  return Math.min(4, availableParallelism());
}

/**
 * The idle tracking pool kept between calls (models loaded, onnxruntime warmed up), and a warm-up in flight:
 * a job that arrives while the pool is being warmed up waits for it rather than starting a second one.
 */
let idlePool: { key: string; pool: WorkerPool } | undefined;
let warming: { key: string; done: Promise<unknown> } | undefined;
const poolCounts = { started: 0, reused: 0 };

/** How many tracking pools were started and how many calls reused a warm one (for tests and logs). */
export function trackingPoolCounts(): { started: number; reused: number } {
  return { ...poolCounts };
}

const poolKey = (count: number, opts: FrameTrackerOptions) => JSON.stringify([count, opts]);

async function acquirePool(count: number, opts: FrameTrackerOptions, keepWarm: boolean): Promise<WorkerPool> {
  const key = poolKey(count, opts);
  if (keepWarm && warming?.key === key) await warming.done.catch(() => undefined);
  if (idlePool && idlePool.key === key && idlePool.pool.alive) {
    const { pool } = idlePool;
    idlePool = undefined;
    pool.ref();
    poolCounts.reused++;
    return pool;
  }
  // Convert the models once here so the workers only read the cache.
  if (opts.backend === 'ort') await prepareModels(opts);
  poolCounts.started++;
  const pool = await WorkerPool.start(count, opts, key);
  await pool.warm();
  return pool;
}

async function releasePool(pool: WorkerPool, keep: boolean): Promise<void> {
  if (!keep || !pool.alive) {
    await (pool.alive && keep ? pool.close() : pool.terminate());
    return;
  }
  const previous = idlePool;
  pool.unref();
  idlePool = { key: pool.key, pool };
  if (previous && previous.pool !== pool) await previous.pool.close();
}

/**
 * Converts the models of `options` (cached on disk), starts the tracking threads, loads and warms up every
 * model, and keeps them for the next `trackVideo` with the same options: a process calls this at start so its
 * first job runs as fast as the later ones. Only the models of `options`: converting the hand and face models
 * too (≈ 5 s of CPU on an empty cache) slowed the first body-only job that arrived during the warm-up; they are
 * converted, once per model cache, by the first job that needs them.
 */
export async function warmUpTracking(
  options: Pick<TrackVideoOptions, 'model' | 'hands' | 'face' | 'threads' | 'workers'> = {},
): Promise<void> {
  const opts: FrameTrackerOptions = {
    model: options.model ?? 'heavy',
    hands: options.hands ?? false,
    face: options.face ?? false,
    backend: 'ort',
    threads: options.threads ?? 1,
  };
  const count = options.workers ?? defaultWorkers();
  const key = poolKey(count, opts);
  const run = async () => {
    const pool = await acquirePool(count, opts, true);
    await releasePool(pool, true);
  };
  const done = run();
  warming = { key, done };
  try {
    await done;
  } finally {
    if (warming?.done === done) warming = undefined;
  }
}

/** Closes the idle tracking pool (tests; a process that exits needs not: idle threads are unref'd). */
export async function closeTrackingPool(): Promise<void> {
  const idle = idlePool;
  idlePool = undefined;
  await idle?.pool.close();
}

async function prepareModels(opts: FrameTrackerOptions): Promise<{ name: ModelName; converted: boolean }[]> {
  const names = modelNames(opts);
  const jobs: [ModelName, string[] | undefined][] = [
    [names.detector, undefined],
    [names.pose, POSE_OUTPUTS],
  ];
  if (names.hands) jobs.push([names.hands, Object.values(HAND_OUTPUTS)]);
  if (names.face) jobs.push([names.face, ['output_mesh', 'output_faceflag']]);
  if (names.iris) jobs.push([names.iris, undefined]);
  const done: { name: ModelName; converted: boolean }[] = [];
  for (const [name, outputs] of jobs)
    done.push({ name, converted: (await convertCached(modelJsonPath(name), name, { outputs })).converted });
  return done;
}

/**
 * Converts, into the model cache, every model tracking with `models` (default all three pose models) uses —
 * detector, pose, hands and face, with the outputs the tracking threads ask for, so their cache entries are the
 * ones a job reads. Run at install (`npm run models -w @mocap/vision`, which scripts/start.sh calls after
 * `npm install`) so no start and no first job converts anything. Returns each model and whether it was
 * converted now (false: already cached).
 */
export async function convertTrackingModels(
  models: readonly PoseModel[] = ['heavy', 'full', 'lite'],
): Promise<{ name: ModelName; converted: boolean }[]> {
  const done = new Map<ModelName, boolean>();
  for (const model of models) {
    const opts: FrameTrackerOptions = { model, hands: true, face: true, backend: 'ort', threads: 1 };
    for (const r of await prepareModels(opts)) done.set(r.name, (done.get(r.name) ?? false) || r.converted);
  }
  return [...done].map(([name, converted]) => ({ name, converted }));
}

/**
 * Each share starts by detecting the main person on its own. Where a share's first tracked person is not the
 * one the previous share ended with, the share is tracked again from its start, seeded with the previous
 * share's last region, until it re-joins its first run (or to its end).
 */
async function realignShares(
  results: RangeResult[],
  bounds: number[],
  pool: WorkerPool,
  info: VideoInfo,
  inferenceWidth: number,
  signal?: AbortSignal,
): Promise<void> {
  for (let k = 1; k < results.length; k++) {
    const prev = results[k - 1];
    const cur = results[k];
    const last = prev.last;
    if (!last || last.index < bounds[k] - 30) continue; // the previous share lost the person long before
    const first = cur.frames.find((f) => f.state !== 'lost');
    const hip = first && hipCentre(first);
    if (first && hip && first.index - bounds[k] < 30) {
      const dist = Math.hypot(hip[0] - last.roi.cx, hip[1] - last.roi.cy);
      if (dist < 0.5 * last.roi.size) continue; // same person
    }
    const compareTo = new Float64Array(cur.frames.length * 2).fill(Number.NaN);
    cur.frames.forEach((f, i) => {
      const h = hipCentre(f);
      if (h) [compareTo[2 * i], compareTo[2 * i + 1]] = h;
    });
    const redo = await pool.run(
      0,
      info,
      { start: bounds[k], end: bounds[k + 1], inferenceWidth, seed: last, compareTo, decodeThreads: 1 },
      undefined,
      signal,
    );
    const n = redo.frames.length;
    results[k] = {
      frames: [...redo.frames, ...cur.frames.slice(n)],
      last: redo.rejoined ? cur.last : redo.last,
      rejoined: redo.rejoined,
      warnings: [...cur.warnings, ...redo.warnings],
    };
  }
}

type WorkerMessage =
  | { type: 'ready'; models: Record<string, ModelInfo> }
  | { type: 'frames'; id: number; frames: TrackFrame[] }
  | { type: 'done'; id: number; result: RangeResult }
  | {
      type: 'error';
      id?: number;
      message: string;
      video?: { code: VideoErrorCode; file: string; detail?: string };
    };

class WorkerPool {
  private nextId = 0;
  private readonly pending = new Map<
    number,
    {
      frames: TrackFrame[];
      onFrame?: (f: TrackFrame) => void;
      resolve: (r: RangeResult) => void;
      reject: (e: Error) => void;
    }
  >();

  /** False once a worker has exited or failed: the pool is not reused. */
  alive = true;

  private constructor(
    private readonly workers: Worker[],
    readonly models: Record<string, ModelInfo>,
    readonly key: string,
  ) {
    for (const w of workers) {
      w.on('message', (m: WorkerMessage) => this.onMessage(m));
      w.on('error', (err) => {
        this.alive = false;
        this.failAll(err);
      });
      w.on('exit', (code) => {
        this.alive = false;
        if (code !== 0) this.failAll(new Error(`a tracking worker exited with code ${code}`));
      });
    }
  }

  static async start(count: number, options: FrameTrackerOptions, key: string): Promise<WorkerPool> {
    const workers: Worker[] = [];
    const ready: Promise<Record<string, ModelInfo>>[] = [];
    for (let i = 0; i < count; i++) {
      const w = new Worker(new URL('./worker-entry.mjs', import.meta.url), { workerData: { options } });
      workers.push(w);
      ready.push(
        new Promise((resolve, reject) => {
          const onMsg = (m: WorkerMessage) => {
            if (m.type === 'ready') resolve(m.models);
            else if (m.type === 'error') reject(new Error(m.message));
            else return;
            w.off('message', onMsg);
          };
          w.on('message', onMsg);
          w.once('error', reject);
        }),
      );
    }
    try {
      const models = await Promise.all(ready);
      return new WorkerPool(workers, models[0], key);
    } catch (err) {
      await Promise.all(workers.map((w) => w.terminate()));
      throw err;
    }
  }

  run(
    worker: number,
    info: VideoInfo,
    request: RangeRequest,
    onFrame?: (f: TrackFrame) => void,
    signal?: AbortSignal,
  ): Promise<RangeResult> {
    return this.send(worker, { type: 'range', request, info }, onFrame, signal);
  }

  /** Runs every model of every worker once (see FrameTracker.warmUp). */
  async warm(): Promise<void> {
    await Promise.all(this.workers.map((_, k) => this.send(k, { type: 'warm' })));
  }

  private send(
    worker: number,
    message: Record<string, unknown>,
    onFrame?: (f: TrackFrame) => void,
    signal?: AbortSignal,
  ): Promise<RangeResult> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new Error('aborted'));
      // An aborted range leaves its worker busy: the pool is not reused.
      const onAbort = () => {
        this.alive = false;
        this.failAll(new Error('aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      this.pending.set(id, {
        frames: [],
        onFrame,
        resolve: (r) => {
          done();
          resolve(r);
        },
        reject: (e) => {
          done();
          reject(e);
        },
      });
      this.workers[worker % this.workers.length].postMessage({ ...message, id });
    });
  }

  ref(): void {
    for (const w of this.workers) w.ref();
  }

  unref(): void {
    for (const w of this.workers) w.unref();
  }

  async terminate(): Promise<void> {
    this.alive = false;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private onMessage(m: WorkerMessage): void {
    if (m.type === 'ready') return;
    const p = m.id === undefined ? undefined : this.pending.get(m.id);
    if (m.type === 'error') {
      const err = m.video ? new VideoError(m.video.code, m.video.file, m.video.detail) : new Error(m.message);
      if (p) {
        this.pending.delete(m.id!);
        p.reject(err);
      } else this.failAll(err);
      return;
    }
    if (!p) return;
    if (m.type === 'frames') {
      for (const f of m.frames) {
        p.frames.push(f);
        p.onFrame?.(f);
      }
    } else {
      this.pending.delete(m.id);
      p.resolve({ ...m.result, frames: p.frames });
    }
  }

  private failAll(err: Error): void {
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(err);
    }
  }

  async close(): Promise<void> {
    this.alive = false;
    await Promise.all(
      this.workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(() => void w.terminate().then(() => resolve()), 5000);
            w.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            w.postMessage({ type: 'close' });
          }),
      ),
    );
  }
}
