/**
 * `probeVideo`: what a video file holds, read with ffprobe without decoding any frame.
 *
 * Two bounded ffprobe runs: `-show_streams -show_format` (container, codec, size, rotation), then the
 * packet timestamps of the chosen video stream (`-show_entries packet=pts,dts,duration,flags`), which only
 * demuxes. The packet list gives the exact presentation time of every frame (VFR-safe), the frame count
 * and the key frames, which `decodeFrames` uses to seek precisely.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { VideoMeta } from '@mocap/contracts';
import { VideoError } from './errors.ts';
import { ffprobePath, type RunResult, run, summarizeStderr } from './ffmpeg.ts';

export type Rotation = 0 | 90 | 180 | 270;

export interface VideoInfo {
  /** Base name of the file. */
  file: string;
  /** Absolute path of the file. */
  path: string;
  /** Displayed size: rotation applied (swapped for 90/270) and non-square pixels made square. */
  width: number;
  height: number;
  /** Size of the encoded pictures, as stored. */
  codedWidth: number;
  codedHeight: number;
  /**
   * Clockwise rotation in degrees that displays the stored picture upright (the convention of the legacy
   * `rotate` tag; a phone's portrait clip is usually 90). Decoded frames have it applied.
   */
  rotation: Rotation;
  /** Seconds covered by the readable frames (last frame's time + its duration). */
  duration: number;
  /** Average frame rate (frames / duration). */
  fps: number;
  /** True when frame intervals vary by more than 10 %. */
  vfr: boolean;
  /** Number of frames that can be read (= frameTimes.length). */
  frameCount: number;
  /** ffmpeg codec name, e.g. `h264`, `hevc`, `vp9`. */
  codec: string;
  /** ffmpeg pixel format of the stored pictures, e.g. `yuv420p`. */
  pixFmt: string;
  hasAudio: boolean;
  /** Presentation time of each frame in seconds, ascending, 0 for the first frame. */
  frameTimes: number[];
  /** Indices (into frameTimes) of the key frames, ascending. */
  keyFrames: number[];
  /** Presentation timestamp of frame 0 on the stream's clock, seconds (what `frameTimes` are relative to). */
  startTime: number;
  /** The container's start time in seconds (ffmpeg's `-ss` is relative to it). */
  containerStartTime: number;
  /** ffmpeg demuxer name(s), e.g. `mov,mp4,m4a,3gp,3g2,mj2`. */
  container: string;
  /** Index of the video stream in the container. */
  streamIndex: number;
  /** Pixel aspect ratio (1 for square pixels). */
  sampleAspectRatio: number;
  /** File size in bytes. */
  sizeBytes: number;
  /**
   * Focal length in displayed pixels, from the camera metadata phones write (the 35 mm-equivalent focal
   * length, e.g. QuickTime's `com.apple.quicktime.camera.focal_length.35mm_equivalent`), converted over the
   * picture diagonal (35 mm-equivalent is defined on the 43.27 mm diagonal of a 36 × 24 mm frame).
   * Undefined when the file does not say.
   */
  focalLengthPx?: number;
  /** Human-readable notes about the file (truncation, ignored metadata...). Empty for a clean file. */
  warnings: string[];
}

export interface ProbeOptions {
  /** Time limit for each ffprobe run, ms. Default 60 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** The tracks-format summary of a probed video. */
export function toVideoMeta(info: VideoInfo): VideoMeta {
  return {
    file: info.file,
    width: info.width,
    height: info.height,
    rotation: info.rotation,
    duration: info.duration,
    fps: info.fps,
    vfr: info.vfr,
    frameCount: info.frameCount,
    codec: info.codec,
    ...(info.focalLengthPx ? { focalLengthPx: info.focalLengthPx } : {}),
  };
}

interface ProbeStream {
  index: number;
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  sample_aspect_ratio?: string;
  avg_frame_rate?: string;
  time_base?: string;
  nb_frames?: string;
  disposition?: { attached_pic?: number };
  tags?: Record<string, string>;
  side_data_list?: { side_data_type?: string; displaymatrix?: string; rotation?: number | string }[];
}

interface ProbeFormat {
  format_name?: string;
  tags?: Record<string, string>;
  start_time?: string;
  probe_score?: number;
}

interface ProbePacket {
  pts?: number | string;
  dts?: number | string;
  duration?: number | string;
  flags?: string;
}

/** Parses `"30000/1001"` (or `"30000:1001"`); NaN when absent or degenerate. */
function parseRatio(s: string | undefined): number {
  if (!s) return Number.NaN;
  const m = /^(-?\d+)[/:](\d+)$/.exec(s.trim());
  if (!m) return Number(s);
  const den = Number(m[2]);
  return den === 0 ? Number.NaN : Number(m[1]) / den;
}

function parseRational(s: string | undefined): [number, number] | undefined {
  const m = s ? /^(\d+)\/(\d+)$/.exec(s.trim()) : null;
  if (!m || Number(m[2]) === 0 || Number(m[1]) === 0) return undefined;
  return [Number(m[1]), Number(m[2])];
}

function intField(v: number | string | undefined): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  return undefined;
}

function normalizeDegrees(deg: number): number {
  return ((deg % 360) + 360) % 360;
}

/** Clockwise display rotation of a stream; `undefined` when it is not a multiple of 90 degrees. */
function streamRotation(s: ProbeStream): { rotation: Rotation; raw: number } | undefined {
  let cw = 0;
  const matrix = s.side_data_list?.find((d) => d.rotation !== undefined && d.rotation !== '');
  if (matrix) {
    // ffprobe reports the display matrix angle counter-clockwise; the legacy tag is clockwise.
    cw = normalizeDegrees(-Number(matrix.rotation));
  } else if (s.tags?.rotate !== undefined) {
    cw = normalizeDegrees(Number(s.tags.rotate));
  }
  if (!Number.isFinite(cw)) return { rotation: 0, raw: 0 };
  const snapped = Math.round(cw / 90) * 90;
  if (Math.abs(snapped - cw) > 1) return undefined;
  return { rotation: (snapped % 360) as Rotation, raw: cw };
}

/** True when the stream's display matrix mirrors the picture (negative determinant). */
function isMirrored(s: ProbeStream): boolean {
  const text = s.side_data_list?.find((d) => d.displaymatrix)?.displaymatrix;
  if (!text) return false;
  const rows = text
    .split('\n')
    .map((l) => l.replace(/^\s*[0-9a-f]+:/i, '').trim())
    .filter((l) => l.length > 0)
    .map((l) => l.split(/\s+/).map(Number));
  const [a, b] = rows[0] ?? [];
  const [c, d] = rows[1] ?? [];
  if ([a, b, c, d].some((v) => v === undefined || !Number.isFinite(v))) return false;
  return a! * d! - b! * c! < 0;
}

async function statOrThrow(filePath: string): Promise<number> {
  let st: Awaited<ReturnType<typeof stat>>;
  try {
    st = await stat(filePath);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      throw new VideoError('not_found', filePath, undefined, { cause: err });
    throw new VideoError('not_found', filePath, `cannot access it: ${code ?? (err as Error).message}`, {
      cause: err,
    });
  }
  if (st.isDirectory()) throw new VideoError('not_a_video', filePath, 'it is a directory');
  if (!st.isFile()) throw new VideoError('not_a_video', filePath, 'it is not a regular file');
  if (st.size === 0) throw new VideoError('empty_file', filePath);
  return st.size;
}

/** Absolute path prefixed with `file:` so ffmpeg never reads a name like `a:b.mp4` as a protocol. */
export function ffmpegInput(absPath: string): string {
  return `file:${absPath}`;
}

async function ffprobe(absPath: string, args: string[], opts: ProbeOptions): Promise<RunResult> {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const r = await run(ffprobePath(), ['-hide_banner', '-v', 'error', ...args, ffmpegInput(absPath)], {
    timeoutMs,
    signal: opts.signal,
  });
  if (r.timedOut) {
    throw new VideoError(
      'timeout',
      absPath,
      `ffprobe gave no answer within ${Math.round(timeoutMs / 1000)} s`,
    );
  }
  return r;
}

function parseJson<T>(r: RunResult, absPath: string): T {
  try {
    return JSON.parse(r.stdout.toString('utf8')) as T;
  } catch {
    throw new VideoError(
      'not_a_video',
      absPath,
      `ffprobe output could not be read: ${summarizeStderr(r.stderr)}`,
    );
  }
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Probes a video file. Throws a VideoError: `not_found` (missing path), `empty_file` (0 bytes),
 * `not_a_video` (text, garbage, a directory, an unreadable or incomplete container), `no_video_stream`
 * (e.g. audio only), `decode_failed` (a video stream without any readable frame), `timeout` (ffprobe did
 * not answer within `timeoutMs`).
 */
export async function probeVideo(filePath: string, opts: ProbeOptions = {}): Promise<VideoInfo> {
  const absPath = path.resolve(filePath);
  const sizeBytes = await statOrThrow(absPath);
  const warnings: string[] = [];

  // 1. Container and streams.
  const head = await ffprobe(absPath, ['-print_format', 'json', '-show_format', '-show_streams'], opts);
  if (head.code !== 0) {
    const why = summarizeStderr(head.stderr, absPath);
    const hint = /moov atom not found/i.test(head.stderr)
      ? 'no index (moov atom) was found: the file is incomplete or truncated'
      : why || `ffprobe exited with code ${head.code}`;
    throw new VideoError('not_a_video', absPath, hint);
  }
  const meta = parseJson<{ streams?: ProbeStream[]; format?: ProbeFormat }>(head, absPath);
  const streams = meta.streams ?? [];
  const format = meta.format ?? {};
  const videos = streams.filter((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audios = streams.filter((s) => s.codec_type === 'audio');
  const score = format.probe_score ?? 100;
  if (videos.length === 0) {
    if (audios.length > 0 && score >= 25) {
      const cover = streams.some((s) => s.codec_type === 'video') ? ' besides cover art' : '';
      throw new VideoError('no_video_stream', absPath, `it only holds audio${cover}`);
    }
    const kinds = [...new Set(streams.map((s) => s.codec_type ?? 'unknown'))];
    throw new VideoError(
      'not_a_video',
      absPath,
      kinds.length ? `it only holds ${kinds.join(', ')} data` : 'no audio or video stream was found',
    );
  }
  const v = videos[0]!;
  if (videos.length > 1) warnings.push(`${videos.length} video streams: using the first (#${v.index}).`);
  const codedWidth = v.width ?? 0;
  const codedHeight = v.height ?? 0;
  if (!(codedWidth > 0 && codedHeight > 0)) {
    throw new VideoError('not_a_video', absPath, `the ${v.codec_name ?? 'video'} stream has no picture size`);
  }

  // 2. Packet timestamps of that stream (demux only, no decoding).
  const pk = await ffprobe(
    absPath,
    [
      '-select_streams',
      String(v.index),
      '-show_entries',
      'packet=pts,dts,duration,flags',
      '-print_format',
      'json',
    ],
    opts,
  );
  const packets =
    (pk.code === 0 ? parseJson<{ packets?: ProbePacket[] }>(pk, absPath).packets : undefined) ?? [];
  const readErrors = summarizeStderr(pk.stderr, absPath);
  // Packets flagged D are decoded only as references and discarded (MP4 edit lists): not frames.
  const shown = packets.filter((p) => !p.flags?.includes('D'));
  if (shown.length === 0) {
    throw new VideoError(
      'decode_failed',
      absPath,
      `the ${v.codec_name ?? 'video'} stream holds no readable frame${readErrors ? `: ${readErrors}` : ''}`,
    );
  }
  if (readErrors) warnings.push(`Errors while reading the file: ${readErrors}`);

  const tb = parseRational(v.time_base) ?? [1, 90000];
  const tbSeconds = tb[0] / tb[1];
  const avgFps = parseRatio(v.avg_frame_rate);
  const usePts = shown.every((p) => intField(p.pts) !== undefined);
  const useDts = !usePts && shown.every((p) => intField(p.dts) !== undefined);
  type Entry = { ts: number; key: boolean; dur: number | undefined };
  let entries: Entry[];
  if (usePts || useDts) {
    entries = shown.map((p) => ({
      ts: intField(usePts ? p.pts : p.dts)!,
      key: p.flags?.includes('K') ?? false,
      dur: intField(p.duration),
    }));
    entries.sort((a, b) => a.ts - b.ts);
  } else {
    // No timestamps at all (rare raw streams): assume a constant rate.
    const step = Number.isFinite(avgFps) && avgFps > 0 ? 1 / avgFps / tbSeconds : 1;
    entries = shown.map((p, i) => ({ ts: i * step, key: p.flags?.includes('K') ?? false, dur: step }));
    warnings.push('The video stream has no timestamps: a constant frame rate is assumed.');
  }
  const t0 = entries[0]!.ts;
  const frameTimes = entries.map((e) => (e.ts - t0) * tbSeconds);
  const keyFrames: number[] = [];
  entries.forEach((e, i) => {
    if (e.key) keyFrames.push(i);
  });
  if (keyFrames[0] !== 0) {
    warnings.push(
      'The first frame is not a key frame: the frames before the first key frame may not decode.',
    );
  }
  for (let i = 1; i < frameTimes.length; i++) {
    if (frameTimes[i] === frameTimes[i - 1]) {
      warnings.push(`Frames ${i - 1} and ${i} have the same timestamp: frame numbering may be unreliable.`);
      break;
    }
  }

  // Rate, duration, VFR.
  const intervals: number[] = [];
  for (let i = 1; i < frameTimes.length; i++) intervals.push(frameTimes[i]! - frameTimes[i - 1]!);
  const typical = intervals.length
    ? median(intervals)
    : Number.isFinite(avgFps) && avgFps > 0
      ? 1 / avgFps
      : 0;
  const lastEntry = entries.at(-1)!;
  const lastDur = lastEntry.dur !== undefined && lastEntry.dur > 0 ? lastEntry.dur * tbSeconds : typical;
  const duration = frameTimes.at(-1)! + lastDur;
  const measuredFps = duration > 0 ? frameTimes.length / duration : 0;
  const fps =
    Number.isFinite(avgFps) &&
    avgFps > 0 &&
    measuredFps > 0 &&
    Math.abs(avgFps - measuredFps) / measuredFps < 0.01
      ? avgFps
      : measuredFps;
  // Ignore jitter of one time-base tick (timestamp rounding in coarse containers).
  const tolerance = Math.max(0.1 * typical, tbSeconds * 1.01);
  const vfr = intervals.some((d) => Math.abs(d - typical) > tolerance);

  const declared = intField(v.nb_frames);
  if (declared !== undefined && declared > frameTimes.length * 1.02 + 1) {
    warnings.push(
      `Only ${frameTimes.length} of the ${declared} frames the file declares could be read: it is probably truncated.`,
    );
  }

  // Orientation and displayed size.
  const rot = streamRotation(v);
  if (!rot) warnings.push('The rotation metadata is not a multiple of 90 degrees and was ignored.');
  const rotation = rot?.rotation ?? 0;
  if (isMirrored(v))
    warnings.push('The display metadata mirrors the picture; frames are decoded unmirrored.');
  const sarValue = parseRatio(v.sample_aspect_ratio);
  const sar = Number.isFinite(sarValue) && sarValue > 0 ? sarValue : 1;
  let dispW = codedWidth;
  let dispH = codedHeight;
  if (Math.abs(sar - 1) > 1e-3) dispW = Math.max(2, 2 * Math.round((codedWidth * sar) / 2));
  if (rotation === 90 || rotation === 270) [dispW, dispH] = [dispH, dispW];

  const containerStart = Number(format.start_time);
  const focal35 = focalLength35mm({ ...format.tags, ...v.tags });
  const focalLengthPx = focal35 ? (focal35 * Math.hypot(dispW, dispH)) / Math.hypot(36, 24) : undefined;
  return {
    file: path.basename(absPath),
    path: absPath,
    width: dispW,
    height: dispH,
    codedWidth,
    codedHeight,
    rotation,
    duration,
    fps,
    vfr,
    frameCount: frameTimes.length,
    codec: v.codec_name ?? 'unknown',
    pixFmt: v.pix_fmt ?? 'unknown',
    hasAudio: audios.length > 0,
    frameTimes,
    keyFrames,
    startTime: t0 * tbSeconds,
    containerStartTime: Number.isFinite(containerStart) ? containerStart : 0,
    container: format.format_name ?? 'unknown',
    streamIndex: v.index,
    sampleAspectRatio: sar,
    sizeBytes,
    ...(focalLengthPx ? { focalLengthPx } : {}),
    warnings,
  };
}

/** The 35 mm-equivalent focal length (mm) a container's tags state, if any and plausible (8–600 mm). */
export function focalLength35mm(tags: Record<string, string>): number | undefined {
  for (const [key, value] of Object.entries(tags)) {
    if (!/focal.?length.*35|35mm.?equiv/i.test(key)) continue;
    const mm = Number.parseFloat(value);
    if (Number.isFinite(mm) && mm >= 8 && mm <= 600) return mm;
  }
  return undefined;
}
