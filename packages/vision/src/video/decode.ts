/**
 * Streamed frame decoding: ffmpeg writes raw rgb24 frames to its stdout, we cut them into `Frame`s and
 * yield them one at a time. Only one frame (plus the pipe's buffer) is in memory at once, and a consumer
 * that does not ask for the next frame stops ffmpeg (the pipe fills up and ffmpeg blocks on write).
 *
 * Frame numbering is exact and matches `VideoInfo.frameTimes`: every decoded frame is passed through
 * (no duplication or dropping on VFR clips), and a share `[startFrame, endFrame)` seeks to the key frame
 * at or before `startFrame`, then drops, by timestamp, the frames before the midpoint between the
 * previous frame and `startFrame`. So two workers decoding `[0, k)` and `[k, n)` together see exactly the
 * frames of `[0, n)`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { VideoError } from './errors.ts';
import {
  ffmpegPath,
  isRunning,
  passthroughSyncArgs,
  run,
  summarizeStderr,
  TailBuffer,
  waitForExit,
} from './ffmpeg.ts';
import { ffmpegInput, type VideoInfo } from './probe.ts';

/** One decoded picture: rgb24, tightly packed (`data.length === width * height * 3`), upright. */
export interface Frame {
  /** Frame number in the video (0-based, as in `VideoInfo.frameTimes`). */
  index: number;
  /** Presentation time in seconds from the first frame. */
  time: number;
  width: number;
  height: number;
  data: Uint8Array;
}

export interface DecodeOptions {
  /** Downscale to this width (aspect ratio kept, even dimensions). Never upscales. */
  width?: number;
  /** First frame to decode (default 0). */
  startFrame?: number;
  /** One past the last frame to decode (default `info.frameCount`). */
  endFrame?: number;
  /** Stops decoding (ffmpeg is killed) and makes the generator throw the signal's reason. */
  signal?: AbortSignal;
  /** Decoder threads (default: ffmpeg's choice, one per core). Use 1 when running decoders in parallel. */
  threads?: number;
  /** Called with human-readable notes: truncated file, decoding errors ffmpeg recovered from... */
  onWarning?: (message: string) => void;
  /** Give up (VideoError `timeout`) when ffmpeg produces no data for this long, ms. Default 120 s. */
  stallTimeoutMs?: number;
}

/** Containers whose seeking is index-based, hence lands exactly on a key frame at or before the target. */
const PRECISE_SEEK_CONTAINERS = /(^|,)(mov|mp4|matroska|webm)(,|$)/;

/** The size of the frames `decodeFrames(info, { width })` yields. */
export function outputSize(
  info: Pick<VideoInfo, 'width' | 'height'>,
  width?: number,
): { width: number; height: number } {
  if (width === undefined || !(width < info.width)) return { width: info.width, height: info.height };
  if (!Number.isFinite(width) || width < 2) throw new RangeError(`width must be a number >= 2, got ${width}`);
  const w = Math.max(2, 2 * Math.floor(width / 2));
  const h = Math.max(2, 2 * Math.round((info.height * w) / info.width / 2));
  return { width: w, height: h };
}

function checkRange(info: VideoInfo, opts: DecodeOptions): { start: number; end: number } {
  const start = opts.startFrame ?? 0;
  const end = opts.endFrame ?? info.frameCount;
  for (const [name, v] of [
    ['startFrame', start],
    ['endFrame', end],
  ] as const) {
    if (!Number.isInteger(v) || v < 0 || v > info.frameCount) {
      throw new RangeError(
        `${name} must be an integer in [0, ${info.frameCount}] for ${info.file}, got ${v}`,
      );
    }
  }
  if (end < start) throw new RangeError(`endFrame (${end}) is before startFrame (${start}) for ${info.file}`);
  return { start, end };
}

function seconds(t: number): string {
  return t.toFixed(6);
}

/** ffmpeg arguments that decode frames [start, end) of `info` to raw rgb24 on stdout. */
async function decodeArgs(
  bin: string,
  info: VideoInfo,
  start: number,
  end: number,
  size: { width: number; height: number },
  threads: number | undefined,
): Promise<string[]> {
  const args = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-noautorotate'];
  if (threads !== undefined) args.push('-threads', String(threads));
  const filters: string[] = [];
  if (start > 0) {
    // Key frame at or before `start`: decoding from it yields every frame from `start` on.
    let key = 0;
    for (const k of info.keyFrames) {
      if (k > start) break;
      key = k;
    }
    if (key > 0 && PRECISE_SEEK_CONTAINERS.test(info.container)) {
      // -ss is relative to the container start; +1 µs so rounding never lands before the key frame's pts
      // (that would only cost time: the demuxer would pick the previous key frame).
      const target = info.startTime + info.frameTimes[key]! - info.containerStartTime + 1e-6;
      // Our own trim below drops the frames before `start`, on the stream's own timestamps (-copyts).
      args.push('-noaccurate_seek', '-ss', seconds(Math.max(0, target)));
    }
    const cut = info.startTime + (info.frameTimes[start - 1]! + info.frameTimes[start]!) / 2;
    filters.push(`trim=start=${seconds(cut)}`);
  }
  args.push('-copyts', '-i', ffmpegInput(info.path), '-map', `0:${info.streamIndex}`, '-an', '-sn', '-dn');

  // Orientation is applied here rather than by ffmpeg's autorotation so the output size always matches
  // the probe (ffmpeg versions differ in which display matrices they apply).
  if (info.rotation === 90) filters.push('transpose=clock');
  else if (info.rotation === 180) filters.push('hflip', 'vflip');
  else if (info.rotation === 270) filters.push('transpose=cclock');
  const rotated = info.rotation === 90 || info.rotation === 270;
  const naturalW = rotated ? info.codedHeight : info.codedWidth;
  const naturalH = rotated ? info.codedWidth : info.codedHeight;
  if (size.width !== naturalW || size.height !== naturalH) {
    filters.push(`scale=${size.width}:${size.height}:flags=bilinear`, 'setsar=1');
  }
  filters.push('format=rgb24');
  args.push('-vf', filters.join(','));
  args.push(...(await passthroughSyncArgs(bin)));
  args.push('-frames:v', String(end - start), '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1');
  return args;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

/** Stderr lines that report a problem (ffmpeg at `-loglevel error` prints nothing on a clean run). */
function problemSummary(stderr: string, filePath: string): string {
  const lines = stderr.split(/\r?\n/).filter((l) => l.trim().length > 0);
  if (lines.length === 0) return '';
  const last = summarizeStderr(stderr, filePath);
  return lines.length > 1 ? `${last} (${lines.length} error lines from ffmpeg)` : last;
}

/**
 * Decodes frames `[startFrame, endFrame)` of a probed video as upright rgb24 frames, streamed.
 *
 * ffmpeg is killed when the consumer stops early (`break`/`return`), on abort and on error, and the
 * generator's cleanup waits until it has exited. A truncated or damaged file yields the frames that
 * decode and then reports the shortfall through `onWarning`; when no frame at all decodes it throws a
 * VideoError `decode_failed`.
 */
export async function* decodeFrames(
  info: VideoInfo,
  opts: DecodeOptions = {},
): AsyncGenerator<Frame, void, undefined> {
  const { start, end } = checkRange(info, opts);
  const size = outputSize(info, opts.width);
  const signal = opts.signal;
  signal?.throwIfAborted();
  if (end === start) return;
  const warn = opts.onWarning ?? (() => {});
  const expected = end - start;
  const frameBytes = size.width * size.height * 3;
  const bin = ffmpegPath();
  const args = await decodeArgs(bin, info, start, end, size, opts.threads);
  signal?.throwIfAborted();

  const child: ChildProcess = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
  const exited = waitForExit(child);
  let spawnError: Error | undefined;
  child.once('error', (e) => {
    spawnError ??= e;
  });
  const stderr = new TailBuffer();
  child.stderr!.on('data', (c: Buffer) => stderr.push(c));
  const kill = () => {
    if (isRunning(child)) child.kill('SIGKILL');
  };
  const onAbort = () => kill();
  signal?.addEventListener('abort', onAbort, { once: true });

  const stallMs = opts.stallTimeoutMs ?? 120_000;
  let stalled = false;
  let produced = 0;
  let filled = 0;
  const alloc = () => {
    const b = Buffer.allocUnsafeSlow(frameBytes);
    return new Uint8Array(b.buffer, b.byteOffset, frameBytes);
  };
  let data = alloc();
  const chunks = child.stdout![Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  // One watchdog for the whole decode instead of a timer per chunk (a 960 px frame comes in ~25 chunks: the
  // timers were ~0.6 ms of CPU per frame). `waitingSince` is when the current wait for ffmpeg's output began
  // (undefined while the consumer holds a frame, which never counts as a stall); the watchdog fires when a
  // wait may have reached `stallMs` and re-arms itself for the rest when it has not.
  let waitingSince: number | undefined;
  let watchdog: NodeJS.Timeout | undefined;
  const check = () => {
    const waited = waitingSince === undefined ? 0 : performance.now() - waitingSince;
    if (waited >= stallMs) {
      stalled = true;
      kill();
    } else watchdog = setTimeout(check, stallMs - waited).unref();
  };
  try {
    reading: while (true) {
      waitingSince = performance.now();
      watchdog ??= setTimeout(check, stallMs).unref();
      let next: IteratorResult<Buffer>;
      try {
        next = await chunks.next();
      } finally {
        waitingSince = undefined;
      }
      if (next.done) break;
      const chunk = next.value;
      let off = 0;
      while (off < chunk.length) {
        const n = Math.min(frameBytes - filled, chunk.length - off);
        data.set(chunk.subarray(off, off + n), filled);
        filled += n;
        off += n;
        if (filled < frameBytes) continue;
        const index = start + produced;
        produced++;
        filled = 0;
        const frame: Frame = {
          index,
          time: info.frameTimes[index]!,
          width: size.width,
          height: size.height,
          data,
        };
        yield frame;
        if (signal?.aborted) throw abortReason(signal);
        if (produced === expected) break reading;
        data = alloc();
      }
    }
    if (signal?.aborted) throw abortReason(signal);
    // ffmpeg exits by itself after -frames:v / at the end of the input; make sure it cannot linger.
    child.stdout!.resume();
    let reaped = false;
    const reaper = setTimeout(() => {
      reaped = isRunning(child);
      kill();
    }, 10_000);
    const { code, signal: killedBy } = await exited;
    clearTimeout(reaper);
    if (signal?.aborted) throw abortReason(signal);
    if (spawnError)
      throw new Error(`could not run ffmpeg (${bin}): ${spawnError.message}`, { cause: spawnError });
    if (stalled) {
      throw new VideoError(
        'timeout',
        info.path,
        `ffmpeg produced no frame for ${Math.round(stallMs / 1000)} s (after ${produced} of ${expected} frames)`,
      );
    }
    const problems = problemSummary(stderr.toString(), info.path);
    if (produced === 0) {
      throw new VideoError(
        'decode_failed',
        info.path,
        problems || (code !== 0 ? `ffmpeg exited with ${code ?? killedBy}` : 'ffmpeg produced no frame'),
      );
    }
    if (produced < expected) {
      warn(
        `${info.file}: only ${produced} of the ${expected} frames ${start}..${end - 1} could be decoded ` +
          `(the last ${expected - produced} are missing; the file may be truncated or damaged)` +
          (problems ? `: ${problems}` : '.'),
      );
    } else if (problems) {
      warn(`${info.file}: ffmpeg reported errors while decoding frames ${start}..${end - 1}: ${problems}`);
    } else if (code !== 0 && !reaped) {
      warn(`${info.file}: ffmpeg exited with ${code ?? killedBy} after decoding every frame.`);
    }
    if (filled > 0)
      warn(`${info.file}: ffmpeg's output ended inside a frame (${filled} of ${frameBytes} bytes).`);
  } finally {
    clearTimeout(watchdog);
    signal?.removeEventListener('abort', onAbort);
    kill();
    child.stdout!.destroy();
    await exited;
  }
}

/** The frame at `index` (decodes a one-frame share, seeking to the key frame before it). */
export async function readFrameAt(
  info: VideoInfo,
  index: number,
  opts: Omit<DecodeOptions, 'startFrame' | 'endFrame'> = {},
): Promise<Frame> {
  for await (const frame of decodeFrames(info, { ...opts, startFrame: index, endFrame: index + 1 }))
    return frame;
  throw new VideoError('decode_failed', info.path, `frame ${index} could not be decoded`);
}

export interface DecodeImageOptions {
  /** Downscale to this width (aspect ratio kept, even dimensions). Never upscales. */
  width?: number;
  /** Time limit, ms. Default 60 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Parses a binary PPM (P6, maxval 255) as written by ffmpeg. */
function parsePpm(buf: Buffer): { width: number; height: number; data: Uint8Array } | undefined {
  const m = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(buf.subarray(0, 64).toString('latin1'));
  if (!m || Number(m[3]) !== 255) return undefined;
  const width = Number(m[1]);
  const height = Number(m[2]);
  const headerLen = m[0].length;
  const len = width * height * 3;
  if (width <= 0 || height <= 0 || buf.length < headerLen + len) return undefined;
  const data = new Uint8Array(len);
  data.set(buf.subarray(headerLen, headerLen + len));
  return { width, height, data };
}

/**
 * Decodes a still image (JPEG, PNG, WebP, BMP... anything ffmpeg reads; for a video, its first frame) to
 * one rgb24 Frame with index 0 and time 0. Throws a VideoError like `probeVideo` for missing, empty or
 * unreadable files.
 */
export async function decodeImage(filePath: string, opts: DecodeImageOptions = {}): Promise<Frame> {
  const absPath = path.resolve(filePath);
  let size: number;
  try {
    const st = await stat(absPath);
    if (!st.isFile()) throw new VideoError('not_a_video', absPath, 'it is not a regular file');
    size = st.size;
  } catch (err) {
    if (err instanceof VideoError) throw err;
    throw new VideoError('not_found', absPath, undefined, { cause: err });
  }
  if (size === 0) throw new VideoError('empty_file', absPath);
  const filters: string[] = [];
  if (opts.width !== undefined) {
    if (!Number.isFinite(opts.width) || opts.width < 2)
      throw new RangeError(`width must be >= 2, got ${opts.width}`);
    const w = 2 * Math.floor(opts.width / 2);
    // Downscale only; -2 keeps the aspect ratio with an even height.
    filters.push(`scale='if(lt(${w},iw),${w},iw)':'if(lt(${w},iw),-2,ih)':flags=bilinear`);
  }
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const args = [
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    '-i',
    ffmpegInput(absPath),
    '-map',
    '0:v:0',
  ];
  if (filters.length) args.push('-vf', filters.join(','));
  args.push('-frames:v', '1', '-f', 'image2pipe', '-c:v', 'ppm', '-pix_fmt', 'rgb24', 'pipe:1');
  const r = await run(ffmpegPath(), args, { timeoutMs, signal: opts.signal });
  if (r.timedOut) {
    throw new VideoError(
      'timeout',
      absPath,
      `ffmpeg gave no answer within ${Math.round(timeoutMs / 1000)} s`,
    );
  }
  const img = parsePpm(r.stdout);
  if (!img) {
    const why = summarizeStderr(r.stderr, absPath);
    if (/matches no streams/i.test(r.stderr))
      throw new VideoError('not_a_video', absPath, 'it holds no picture');
    throw new VideoError('not_a_video', absPath, why || 'ffmpeg could not decode it as an image');
  }
  return { index: 0, time: 0, ...img };
}
