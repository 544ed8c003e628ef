/** ffmpeg as the worker runs it. */
import { ffmpegPath, type RunOptions, type RunResult, run } from '@mocap/vision';

/** Runs ffmpeg on `args` without its banner, printing errors only and overwriting the output. */
export function ffmpeg(args: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
  return run(ffmpegPath(), ['-hide_banner', '-v', 'error', '-y', ...args], opts);
}
