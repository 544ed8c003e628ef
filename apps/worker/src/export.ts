/**
 * On-demand export jobs (issue 17.3): zips written here rather than inside the API request.
 * - `lowerBody`: the video's stored clip → `exportBoneType(..., { lowerBodyOnly })` → the zip under the video's
 *   prefix → the motion service records it on the video;
 * - `animationZip` (issue 22): a library animation's stored clip → `exportBoneType` → `animation/<id>/zips/` → the
 *   animation service records it.
 * The request waiting on the job then answers.
 */

import { exportBoneType, isBoneType, motionJson } from '@mocap/motion';
import type { AnimationService, ExportJobData, JobQueue, MotionService, ObjectStorage } from '@mocap/server';
import { animationZipKey, lowerBodyKey, PermanentJobError } from '@mocap/server';
import { runQueueWorker } from './queue-worker.ts';
import type { RunningWorker, WorkerOptions } from './runner.ts';

export interface ExportWorkerInfra {
  queue: JobQueue<ExportJobData>;
  storage: ObjectStorage;
  motion: Pick<MotionService, 'exportSource' | 'lowerBodyMade'>;
  /** For the library animations' zips (without it such a job fails for good). */
  animation?: Pick<AnimationService, 'exportSource' | 'zipMade'>;
}

export function runExportWorker(
  infra: ExportWorkerInfra,
  options: Pick<WorkerOptions, 'log' | 'name'> = {},
): RunningWorker {
  return runQueueWorker('export', infra.queue, options, async (job, log) => {
    const d = job.data;
    if (!isBoneType(d.boneType)) throw new PermanentJobError(`unknown bone type "${d.boneType}"`);
    if (d.kind === 'animationZip') {
      if (!infra.animation) throw new PermanentJobError('this worker makes no animation zips');
      const a = await infra.animation.exportSource(d.animationId);
      if (!a) throw new PermanentJobError(`animation ${d.animationId} has no clip to export from`);
      const clip = motionJson.read((await infra.storage.getBytes(a.clipKey)).toString('utf8'));
      const out = exportBoneType(clip, d.boneType, { name: a.name });
      const key = animationZipKey(d.animationId, d.boneType);
      await infra.storage.put(key, out.bytes, { contentType: 'application/zip' });
      await infra.animation.zipMade(d.animationId, d.boneType, {
        key,
        fileName: out.fileName,
        size: out.bytes.byteLength,
      });
      log(`export job ${job.id} done: ${out.bytes.byteLength} bytes`);
      return { bytes: out.bytes.byteLength };
    }
    const src = await infra.motion.exportSource(d.videoId);
    if (!src) throw new PermanentJobError(`video ${d.videoId} has no clip to export from`);
    const clip = motionJson.read((await infra.storage.getBytes(src.clipKey)).toString('utf8'));
    const out = exportBoneType(clip, d.boneType, { lowerBodyOnly: true, name: src.name });
    const key = lowerBodyKey(src.storagePrefix, d.boneType);
    await infra.storage.put(key, out.bytes, { contentType: 'application/zip' });
    await infra.motion.lowerBodyMade(d.videoId, d.boneType, {
      key,
      fileName: out.fileName.replace(/\.zip$/, '_lower.zip'),
      size: out.bytes.byteLength,
    });
    log(`export job ${job.id} done: ${out.bytes.byteLength} bytes`);
    return { bytes: out.bytes.byteLength };
  });
}
