/**
 * The capture path as a pure function of files: `video file → tracks.json, clip.json, one zip per bone type,
 * thumbnail.jpg` in a work folder. No database, no queue, no storage: the job runner (`runner.ts`) moves the
 * outputs into storage and reports the progress this function emits.
 *
 * Stages and their share of the 0..100 progress: probe (0..2), tracking (2..80, by frames), solving (80..90),
 * export (90..99, one bone type after another), thumbnail (99..100).
 *
 * Packaging: each bone type's zip comes from `exportBoneType(clip, boneType)` of `@mocap/motion`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  BONE_TYPES,
  exportBoneType,
  isBoneType,
  type MotionClip,
  motionJson,
  type SolveOptions,
  solve,
} from '@mocap/motion';
import { type PoseModel, probeVideo, type Tracks, trackProbedVideo, type VideoInfo } from '@mocap/vision';
import { ffmpeg } from './ffmpeg.ts';
import { capFrameRate, resampledWarning, TRACK_MAX_FPS } from './fps.ts';
import { type Judgement, judgeTracks } from './judge.ts';

/** A file-system safe version of a bone type name (`CC&iClone` → `CC_iClone`), for storage keys. */
export function boneTypeSlug(boneType: string): string {
  return boneType.replace(/[^A-Za-z0-9.-]+/g, '_');
}

/** The zip of one bone type (`exportBoneType` of `@mocap/motion`). */
export function packageBoneType(
  clip: MotionClip,
  boneType: string,
  options: { lowerBodyOnly?: boolean; baseName?: string } = {},
): { fileName: string; bytes: Uint8Array } {
  if (!isBoneType(boneType)) throw new Error(`unknown bone type "${boneType}"`);
  return exportBoneType(clip, boneType, { lowerBodyOnly: options.lowerBodyOnly, name: options.baseName });
}

/**
 * The solve options a user chooses (upload form, remake dialog, `mocap convert`): smoothing, foot-lock mode,
 * root at origin, the performer's height. Omitted fields take the solver's defaults.
 */
export type UserSolveOptions = Pick<SolveOptions, 'smoothing' | 'footLock' | 'rootAtOrigin' | 'height'>;

/** A stored video's options (`height: null` = as measured) as the solver takes them. */
export function userSolveOptions(o: {
  smoothing?: number;
  footLock?: string;
  rootAtOrigin?: boolean;
  height?: number | null;
}): UserSolveOptions {
  const out: UserSolveOptions = {};
  if (o.smoothing !== undefined) out.smoothing = o.smoothing;
  if (o.footLock !== undefined) out.footLock = o.footLock as SolveOptions['footLock'];
  if (o.rootAtOrigin !== undefined) out.rootAtOrigin = o.rootAtOrigin;
  if (o.height !== undefined && o.height !== null) out.height = o.height;
  return out;
}

export interface CaptureOptions {
  /** How to solve the motion (the user's choices; default: the solver's defaults). */
  solve?: UserSolveOptions;
  /** Body landmark model (default `heavy`). */
  model?: PoseModel;
  /** Track hands (fingers) — a paid-plan feature; default false. */
  hands?: boolean;
  /** Track the face (blendshapes) — a paid-plan feature; default false. */
  face?: boolean;
  /** Bone types to package (default: all). */
  boneTypes?: readonly string[];
  /** Base name of the files inside the zips (default `motion`). */
  baseName?: string;
  /** Tracking worker threads (default: the pipeline's choice, one per core). */
  workers?: number;
  onProgress?: (percent: number, stage: CaptureStage) => void;
  signal?: AbortSignal;
}

export type CaptureStage = 'probe' | 'tracking' | 'solving' | 'export' | 'thumbnail' | 'done';

export interface CaptureResult {
  video: Pick<VideoInfo, 'duration' | 'fps' | 'frameCount' | 'width' | 'height'>;
  tracksPath: string;
  clipPath: string;
  thumbnailPath: string | null;
  zips: { boneType: string; fileName: string; path: string; size: number }[];
  frameCount: number;
  fps: number;
  warnings: string[];
  /** The capture's judgement of its tracks (issue 15.3); absent for runs that do not track. */
  judgement?: Judgement;
}

/** Writes a JPEG frame (at 40 % of the duration, 360 px wide at most) as the card thumbnail. */
export async function makeThumbnail(
  videoPath: string,
  outPath: string,
  durationS: number,
  signal?: AbortSignal,
): Promise<boolean> {
  const at = Math.max(0, Math.min(durationS * 0.4, durationS - 0.05));
  const r = await ffmpeg(
    [
      '-ss',
      at.toFixed(3),
      '-i',
      `file:${resolve(videoPath)}`,
      '-frames:v',
      '1',
      '-vf',
      "scale='min(360,iw)':-2",
      '-q:v',
      '4',
      outPath,
    ],
    { timeoutMs: 30_000, signal },
  );
  return r.code === 0;
}

type Progress = (p: number, stage: CaptureStage) => void;

function progressReporter(options: CaptureOptions): Progress {
  const report = options.onProgress ?? (() => {});
  let last = -1;
  return (p, stage) => {
    const v = Math.max(0, Math.min(100, Math.floor(p)));
    if (v !== last || stage === 'done') {
      last = v;
      report(v, stage);
    }
  };
}

/** Writes the zip of every requested bone type; progress from `from` to `to`. */
async function exportZips(
  clip: MotionClip,
  workDir: string,
  options: CaptureOptions,
  progress: Progress,
  from: number,
  to: number,
): Promise<CaptureResult['zips']> {
  const types = (options.boneTypes ?? BONE_TYPES).filter(
    // OnlyFace is face curves only: made when the face was tracked.
    (t) => t !== 'OnlyFace' || clip.blendshapes !== undefined,
  );
  const zips: CaptureResult['zips'] = [];
  for (let i = 0; i < types.length; i++) {
    const boneType = types[i]!;
    const out = packageBoneType(clip, boneType, { baseName: options.baseName });
    const path = join(workDir, `${boneTypeSlug(boneType)}.zip`);
    await writeFile(path, out.bytes);
    zips.push({ boneType, fileName: out.fileName, path, size: out.bytes.byteLength });
    progress(from + ((to - from) * (i + 1)) / types.length, 'export');
    options.signal?.throwIfAborted();
  }
  return zips;
}

type Solved = Pick<CaptureResult, 'clipPath' | 'zips' | 'frameCount' | 'fps' | 'warnings'>;

/** Tracks → clip.json → zips on this thread (the body of the solve thread). */
export async function solveAndExportHere(
  tracks: Tracks,
  workDir: string,
  options: CaptureOptions = {},
  from = 0,
  progress: Progress = progressReporter(options),
): Promise<Solved> {
  await mkdir(workDir, { recursive: true });
  const span = 100 - from;
  progress(from, 'solving');
  const clip = solve(
    tracks,
    { ...options.solve, hands: options.hands ?? false, face: options.face ?? false },
    ({ fraction }) => progress(from + span * 0.5 * fraction, 'solving'),
  );
  const clipPath = join(workDir, 'clip.json');
  await writeFile(clipPath, motionJson.write(clip));
  options.signal?.throwIfAborted();
  const zips = await exportZips(clip, workDir, options, progress, from + span * 0.5, 99);
  return {
    clipPath,
    zips,
    frameCount: clip.frameCount,
    fps: clip.fps,
    warnings: [...tracks.warnings, ...(clip.metadata.warnings ?? [])],
  };
}

/** clip.json → zips on this thread (the body of the export thread). */
export async function exportFromClipHere(
  clipJson: string,
  workDir: string,
  options: CaptureOptions = {},
): Promise<CaptureResult['zips']> {
  await mkdir(workDir, { recursive: true });
  const clip = motionJson.read(clipJson);
  return exportZips(clip, workDir, options, progressReporter(options), 0, 99);
}

/**
 * Idle solve/export threads kept for the next task: a thread that has solved and exported once has its code
 * compiled and warm and the character textures painted, which a fresh thread pays for again (≈ 1 s of the
 * export of a 60 s clip). At most one is kept; idle threads do not keep the process alive.
 */
const idleThreads: Worker[] = [];
const threadCounts = { started: 0, reused: 0 };

/** How many solve/export threads were started and how many tasks reused an idle one (for tests and logs). */
export function solveThreadCounts(): { started: number; reused: number } {
  return { ...threadCounts };
}

function takeThread(): Worker {
  const idle = idleThreads.pop();
  if (idle) {
    threadCounts.reused++;
    idle.ref();
    return idle;
  }
  threadCounts.started++;
  const w = new Worker(new URL('./solve-entry.mjs', import.meta.url));
  w.on('exit', () => {
    const k = idleThreads.indexOf(w);
    if (k >= 0) idleThreads.splice(k, 1);
  });
  return w;
}

/**
 * Starts the solve/export thread ahead of a first job (its modules load while the worker waits for work), warms
 * its exporters up (solve-thread.ts: every bone type of a rest clip, so the first job's export runs compiled
 * code) and keeps it idle for the first task. Nothing happens when a thread is already idle. Resolves when the
 * warm-up is over (how many bone types it exported, its time), undefined when nothing was started.
 */
export function prestartSolveThread(): Promise<{ boneTypes: number; ms: number } | undefined> {
  if (idleThreads.length > 0) return Promise.resolve(undefined);
  const w = takeThread();
  const warmed = new Promise<{ boneTypes: number; ms: number } | undefined>((resolve) => {
    const onMessage = (m: { type: string; boneTypes?: number; ms?: number }) => {
      if (m.type !== 'warmed') return;
      w.off('message', onMessage);
      w.off('exit', onExit);
      resolve({ boneTypes: m.boneTypes!, ms: m.ms! });
    };
    const onExit = () => {
      w.off('message', onMessage);
      resolve(undefined);
    };
    w.on('message', onMessage);
    w.once('exit', onExit);
  });
  w.postMessage({ kind: 'warm' });
  releaseThread(w);
  return warmed;
}

function releaseThread(w: Worker): void {
  if (idleThreads.length > 0) {
    void w.terminate();
    return;
  }
  w.unref();
  idleThreads.push(w);
}

/**
 * Runs the solve/export half in a worker thread (`solve-thread.ts`), relaying progress, writing into `workDir`
 * (created if needed). The thread is reused by the next task when this one ends normally; an abort or a crash
 * terminates it.
 */
async function inThread<T>(
  kind: 'solve' | 'export',
  inputPath: string,
  workDir: string,
  options: CaptureOptions,
  from: number,
): Promise<T> {
  await mkdir(workDir, { recursive: true });
  options.signal?.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const w = takeThread();
    let settled = false;
    const finish = (fn: () => void, reuse: boolean) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      w.off('message', onMessage);
      w.off('error', onError);
      w.off('exit', onExit);
      if (reuse) releaseThread(w);
      else void w.terminate();
      fn();
    };
    const onAbort = () => finish(() => reject(options.signal?.reason ?? new Error('aborted')), false);
    const onMessage = (m: {
      type: string;
      percent?: number;
      stage?: string;
      result?: unknown;
      message?: string;
    }) => {
      if (m.type === 'progress') options.onProgress?.(m.percent!, m.stage as CaptureStage);
      else if (m.type === 'done') finish(() => resolve(m.result as T), true);
      else if (m.type === 'error') finish(() => reject(new Error(m.message)), true);
    };
    const onError = (err: Error) => finish(() => reject(err), false);
    const onExit = (code: number) =>
      finish(() => reject(new Error(`solve thread exited with code ${code}`)), false);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    w.on('message', onMessage);
    w.on('error', onError);
    w.on('exit', onExit);
    w.postMessage({
      kind,
      inputPath,
      workDir,
      from,
      options: {
        solve: options.solve,
        hands: options.hands,
        face: options.face,
        boneTypes: options.boneTypes,
        baseName: options.baseName,
      },
    });
  });
}

/** Tracks file → clip.json → zips, in a worker thread (the second half of the path; also the 2D-repair re-solve). */
export async function solveAndExport(
  tracksPath: string,
  workDir: string,
  options: CaptureOptions = {},
  from = 0,
): Promise<Solved> {
  return inThread<Solved>('solve', tracksPath, workDir, options, from);
}

/** clip.json file → zips, in a worker thread (regenerating the files from the stored clip). */
export async function exportFromClip(
  clipPath: string,
  workDir: string,
  options: CaptureOptions = {},
): Promise<CaptureResult['zips']> {
  return inThread<CaptureResult['zips']>('export', clipPath, workDir, options, 0);
}

/**
 * Runs the whole capture path on `videoPath`, writing into `workDir` (created if needed). Throws a
 * `VideoError` for an unreadable video and an Error when nobody is found in it.
 */
export async function capture(
  videoPath: string,
  workDir: string,
  options: CaptureOptions = {},
): Promise<CaptureResult> {
  const progress = progressReporter(options);
  await mkdir(workDir, { recursive: true });
  progress(0, 'probe');
  const source = await probeVideo(videoPath, { signal: options.signal });
  // Tracked at <= 60 fps (issue 13.3): a faster video is resampled first, and the result says so.
  const { info, resampled } = await capFrameRate(source, workDir, TRACK_MAX_FPS, options.signal);
  progress(2, 'probe');

  const tracks: Tracks = await trackProbedVideo(info, {
    model: options.model ?? 'heavy',
    hands: options.hands ?? false,
    face: options.face ?? false,
    workers: options.workers,
    signal: options.signal,
    onProgress: ({ done, total }) => progress(2 + (78 * done) / Math.max(1, total), 'tracking'),
  });
  const tracksPath = join(workDir, 'tracks.json');
  await writeFile(tracksPath, JSON.stringify(tracks));
  options.signal?.throwIfAborted();

  // The thumbnail (an ffmpeg process) is made while the solve thread works: it has a core to itself then.
  const thumbnailPath = join(workDir, 'thumbnail.jpg');
  const thumb = makeThumbnail(info.path, thumbnailPath, info.duration, options.signal).catch(() => false);
  const solved = await solveAndExport(tracksPath, workDir, { ...options, onProgress: progress }, 80);
  if (resampled) solved.warnings.unshift(resampledWarning(source.fps, TRACK_MAX_FPS));
  // The capture judges its own result (issue 15.3): lost tracking, another person, flips, with their times.
  const judgement = judgeTracks(tracks);
  solved.warnings.push(...judgement.warnings);
  const thumbOk = await thumb;
  progress(100, 'done');
  return {
    video: {
      duration: info.duration,
      fps: info.fps,
      frameCount: info.frameCount,
      width: info.width,
      height: info.height,
    },
    tracksPath,
    thumbnailPath: thumbOk ? thumbnailPath : null,
    ...solved,
    judgement,
  };
}
