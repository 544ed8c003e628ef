import { parentPort, workerData } from 'node:worker_threads';
import type { TrackFrame } from '@mocap/contracts';
import { FrameTracker, type FrameTrackerOptions } from './frame-tracker.ts';
import { type RangeRequest, trackRange } from './range.ts';
import { isVideoError, type VideoInfo } from './video/index.ts';

/**
 * Worker thread: loads the models once, then tracks the ranges it is sent, streaming frames back in batches.
 * The worker is not tied to one video: each range message names its video (the pool is kept between jobs).
 * Messages in: { type: 'range', id, request, info }, { type: 'warm', id }, { type: 'close' }.
 * Messages out: { type: 'ready' }, { type: 'frames', id, frames }, { type: 'done', id, result }, { type: 'error', id?, message }.
 */

const { options, info: startInfo } = workerData as { options: FrameTrackerOptions; info?: VideoInfo };
const port = parentPort!;

const tracker = await FrameTracker.create(options).catch((err: unknown) => {
  port.postMessage({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  return undefined;
});
if (tracker) port.postMessage({ type: 'ready', models: tracker.models });

type Message =
  | { type: 'range'; id: number; request: RangeRequest; info?: VideoInfo }
  | { type: 'warm'; id: number }
  | { type: 'close' };

port.on('message', async (msg: Message) => {
  if (!tracker) return;
  if (msg.type === 'close') {
    await tracker.dispose();
    port.close();
    return;
  }
  try {
    if (msg.type === 'warm') {
      await tracker.warmUp();
      port.postMessage({ type: 'done', id: msg.id, result: { frames: [], rejoined: false, warnings: [] } });
      return;
    }
    const info = msg.info ?? startInfo;
    if (!info) throw new Error('no video to track');
    let batch: TrackFrame[] = [];
    const result = await trackRange(tracker, info, msg.request, (f) => {
      batch.push(f);
      if (batch.length >= 8) {
        port.postMessage({ type: 'frames', id: msg.id, frames: batch });
        batch = [];
      }
    });
    if (batch.length) port.postMessage({ type: 'frames', id: msg.id, frames: batch });
    port.postMessage({ type: 'done', id: msg.id, result: { ...result, frames: [] } });
  } catch (err) {
    port.postMessage({
      type: 'error',
      id: msg.id,
      message: err instanceof Error ? err.message : String(err),
      // A VideoError is rebuilt on the other side (its code decides whether a job is retried).
      ...(isVideoError(err) ? { video: { code: err.code, file: err.file, detail: err.detail } } : {}),
    });
  }
});
