/**
 * Frame-rate cap of the capture path (issue 13.3): a video faster than TRACK_MAX_FPS is resampled to it before
 * tracking (uploads are billed per second, tracking costs per frame; 60 fps is more than body motion needs).
 * The result says so in its warnings. The server refuses sources above 240 fps up front.
 */
import { join, resolve } from 'node:path';
import { probeVideo, type VideoInfo } from '@mocap/vision';
import { ffmpeg } from './ffmpeg.ts';

export const TRACK_MAX_FPS = 60;

/** The warning a capture's result carries when its video was resampled. */
export const resampledWarning = (from: number, to: number) =>
  `the video has ${Math.round(from)} frames per second: motion was tracked at ${to} fps`;

/**
 * Returns `info` unchanged when its frame rate is at most `maxFps`; otherwise writes `workDir/tracked.mp4`
 * (every frame kept at `maxFps` by ffmpeg's fps filter, upright, near-lossless) and returns its probe.
 */
export async function capFrameRate(
  info: VideoInfo,
  workDir: string,
  maxFps = TRACK_MAX_FPS,
  signal?: AbortSignal,
): Promise<{ info: VideoInfo; resampled: boolean }> {
  if (!(info.fps > maxFps + 0.5)) return { info, resampled: false };
  const out = join(workDir, 'tracked.mp4');
  const r = await ffmpeg(
    [
      '-i',
      `file:${resolve(info.path)}`,
      '-an',
      '-vf',
      `fps=${maxFps}`,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '14',
      '-pix_fmt',
      'yuv420p',
      `file:${out}`,
    ],
    { timeoutMs: 10 * 60_000, signal, maxStdoutBytes: 1 << 20 },
  );
  if (r.code !== 0) throw new Error(`resampling to ${maxFps} fps failed: ${r.stderr.slice(-500)}`);
  return { info: await probeVideo(out, { signal }), resampled: true };
}
