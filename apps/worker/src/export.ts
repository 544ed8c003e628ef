/**
 * On-demand export jobs (issue 17.3): the lower-body zip of a made video, written here rather than inside the
 * API request. A job: the video's stored clip → `exportBoneType(..., { lowerBodyOnly })` → the zip under the
 * video's prefix → the motion service records it on the video (the request waiting on the job then answers).
 */

import { hostname } from 'node:os';
import { exportBoneType, isBoneType, motionJson } from '@mocap/motion';
import type { JobQueue, LowerBodyJobData, MotionService, ObjectStorage } from '@mocap/server';
import { lowerBodyKey, PermanentJobError } from '@mocap/server';
import type { RunningWorker, WorkerOptions } from './runner.ts';

export interface ExportWorkerInfra {
  queue: JobQueue<LowerBodyJobData>;
  storage: ObjectStorage;
  motion: Pick<MotionService, 'exportSource' | 'lowerBodyMade'>;
}

export function runExportWorker(
  infra: ExportWorkerInfra,
  options: Pick<WorkerOptions, 'log' | 'name'> = {},
): RunningWorker {
  const name = options.name ?? `${hostname()}-${process.pid}-export`;
  const log = options.log ?? (() => {});
  const worker = infra.queue.process(
    async (job) => {
      const d = job.data;
      if (!isBoneType(d.boneType)) throw new PermanentJobError(`unknown bone type "${d.boneType}"`);
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
    },
    { concurrency: 1, workerId: name },
  );
  return {
    name,
    async close(o = {}) {
      await worker.close(o);
    },
  };
}
