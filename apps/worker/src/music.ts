/**
 * Music jobs (issue 22): music → dance. A job: hooks.started → the audio from storage into a temp folder →
 * decoded by ffmpeg → `analyzeMusic` → `generateDance` with the card's seed (the shipped CMU library, prepared
 * once per process) → clip.json and one zip per bone type under the card's storage prefix → hooks.completed,
 * with progress on the card. A failure is retried by the queue; after the last attempt hooks.failedForGood
 * refunds. Undecodable audio fails at once (permanent).
 *
 * `startWorker` here is the worker of the whole product: the capture worker (`runner.ts`), this one and the
 * re-track worker (`retrack.ts`), closed together — what the server's in-process mode and `npm run worker` start.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { analyzeMusic, generateDance } from '@mocap/dance';
import { decodeAudioFile, shippedLibrary } from '@mocap/dance/node';
import { BONE_TYPES, exportBoneType, motionJson } from '@mocap/motion';
import type {
  Config,
  Infra,
  JobQueue,
  MusicJobData,
  MusicOutputs,
  MusicService,
  ObjectStorage,
  Services,
} from '@mocap/server';
import { PermanentJobError } from '@mocap/server';
import { boneTypeSlug } from './capture.ts';
import { runExportWorker } from './export.ts';
import { inTempDir, runQueueWorker, wholePercent } from './queue-worker.ts';
import { reconcileEvery } from './reconcile.ts';
import { runRetrackWorker } from './retrack.ts';
import { type RunningWorker, startWorker as startCaptureWorker, type WorkerOptions } from './runner.ts';
import { runTomokageWorker } from './tomokage.ts';

/** Every bone type but OnlyFace (a dance has no face curves). */
export const DANCE_BONE_TYPES = BONE_TYPES.filter((b) => b !== 'OnlyFace');

export interface MusicWorkerInfra {
  queue: JobQueue<MusicJobData>;
  storage: ObjectStorage;
  jobs: Pick<MusicService, 'started' | 'progress' | 'completed' | 'failedForGood'> &
    Partial<Pick<MusicService, 'reconcile'>>;
}

/** Runs music jobs until closed. */
export function runMusicWorker(
  infra: MusicWorkerInfra,
  options: Pick<WorkerOptions, 'tmpDir' | 'log' | 'name' | 'reconcileMs'> = {},
): RunningWorker {
  const log = options.log ?? (() => {});
  const stopReconcile = reconcileEvery(infra.jobs, options.reconcileMs ?? 60_000, log, 'music reconcile');
  return runQueueWorker(
    'music',
    infra.queue,
    options,
    async (job) => {
      const data = job.data;
      const m = await infra.jobs.started(data, job.attempt);
      if (!m) return { skipped: true };
      return inTempDir(options.tmpDir, `mocap-music-${data.musicId}-`, async (dir) => {
        log(
          `music job ${job.id} attempt ${job.attempt}/${job.maxAttempts}: music ${data.musicId}, seed ${data.seed}`,
        );
        const progress = wholePercent((p) => {
          job.progress(p).catch(() => {});
          infra.jobs.progress(data, p).catch(() => {});
        });
        try {
          const src = join(dir, 'audio');
          await infra.storage.download(m.audioKey, src);
          progress(5);
          let audio: Awaited<ReturnType<typeof decodeAudioFile>>;
          try {
            audio = await decodeAudioFile(src, { maxSeconds: 600 });
          } catch (e) {
            throw new PermanentJobError(e instanceof Error ? e.message : String(e));
          }
          progress(10);
          const analysis = analyzeMusic(audio, (p) => {
            if (p.stage === 'spectrum') progress(10 + p.fraction * 20);
          });
          progress(32);
          const prep = shippedLibrary();
          const { clip, steps } = generateDance(analysis, prep, {
            seed: data.seed,
            onProgress: (f) => progress(35 + f * 15),
          });
          clip.metadata.source = m.name;
          const outputs: MusicOutputs = {
            zips: {},
            tempo: Math.round(analysis.tempo * 10) / 10,
            beats: analysis.beats.length,
            frameCount: clip.frameCount,
            fps: clip.fps,
            moves: steps.length,
          };
          const clipPath = join(dir, 'clip.json');
          await writeFile(clipPath, motionJson.write(clip));
          outputs.clipKey = `${m.storagePrefix}/clip.json`;
          await infra.storage.putFile(outputs.clipKey, clipPath, { contentType: 'application/json' });
          let i = 0;
          for (const boneType of DANCE_BONE_TYPES) {
            if (job.signal?.aborted) throw new Error('aborted');
            const z = exportBoneType(clip, boneType, { name: m.name });
            const key = `${m.storagePrefix}/zips/${boneTypeSlug(boneType)}.zip`;
            await infra.storage.put(key, z.bytes, { contentType: 'application/zip' });
            outputs.zips![boneType] = { key, fileName: z.fileName, size: z.bytes.length };
            progress(50 + (++i / DANCE_BONE_TYPES.length) * 49);
          }
          await infra.jobs.completed(data, outputs);
          log(`music job ${job.id} done: ${analysis.tempo.toFixed(0)} BPM, ${steps.length} moves`);
          return { zips: i };
        } catch (err) {
          log(`music job ${job.id} failed: ${err instanceof Error ? err.message : String(err)}`);
          throw err;
        }
      });
    },
    { failedForGood: (info, error) => infra.jobs.failedForGood(info.data, error), stop: stopReconcile },
  );
}

/** The product's worker: capture jobs and music jobs over the app's infrastructure and services. */
export function startWorker(
  app: { infra: Infra; services: Services; config: Config },
  options: WorkerOptions = {},
): RunningWorker {
  const capture = startCaptureWorker(app, options);
  const music = runMusicWorker(
    { queue: app.services.music.queue, storage: app.infra.storage, jobs: app.services.music },
    {
      tmpDir: options.tmpDir ?? join(app.config.dataDir, 'tmp'),
      log: options.log,
      reconcileMs: options.reconcileMs,
    },
  );
  const retrack = runRetrackWorker(
    { queue: app.services.retrack.queue, storage: app.infra.storage },
    { tmpDir: options.tmpDir ?? join(app.config.dataDir, 'tmp'), log: options.log },
  );
  const exports = runExportWorker(
    {
      queue: app.services.motion.exportQueue,
      storage: app.infra.storage,
      motion: app.services.motion,
      animation: app.services.animation,
    },
    { log: options.log },
  );
  const tomokage = runTomokageWorker(
    { queue: app.services.tomokage.applyQueue, tomokage: app.services.tomokage },
    { log: options.log },
  );
  return {
    name: capture.name,
    async close(o = {}) {
      await Promise.all([
        capture.close(o),
        music.close(o),
        retrack.close(o),
        exports.close(o),
        tomokage.close(o),
      ]);
    },
  };
}
