/**
 * Overlay rendering: draws a TrackFrame (pose skeleton, hands, face mesh, ROI, state badge) onto a copy of
 * a video frame in pure TypeScript, and encodes the result to an H.264 MP4 through ffmpeg's stdin.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import {
  HAND_LANDMARKS,
  type HandTrack,
  POSE_LANDMARKS,
  type TrackFrame,
  type TrackState,
} from '@mocap/contracts';
import type { Frame } from './decode.ts';
import { ffmpegPath, isRunning, summarizeStderr, TailBuffer, waitForExit } from './ffmpeg.ts';

export type Rgb = readonly [number, number, number];

/** Colours of the overlay. Left/right are the subject's own sides (BlazePose landmark names). */
export const OVERLAY_COLORS = {
  left: [255, 140, 0] as Rgb,
  right: [0, 160, 255] as Rgb,
  center: [235, 235, 235] as Rgb,
  leftHand: [255, 220, 40] as Rgb,
  rightHand: [90, 230, 255] as Rgb,
  face: [120, 255, 140] as Rgb,
  iris: [255, 60, 200] as Rgb,
  roi: [255, 255, 0] as Rgb,
  detected: [0, 200, 60] as Rgb,
  tracked: [30, 90, 255] as Rgb,
  lost: [230, 30, 30] as Rgb,
} as const;

type PoseName = (typeof POSE_LANDMARKS)[number];
type HandName = (typeof HAND_LANDMARKS)[number];

/** MediaPipe's pose skeleton (POSE_CONNECTIONS), by landmark name. */
const POSE_CONNECTION_NAMES: readonly (readonly [PoseName, PoseName])[] = [
  ['nose', 'left_eye_inner'],
  ['left_eye_inner', 'left_eye'],
  ['left_eye', 'left_eye_outer'],
  ['left_eye_outer', 'left_ear'],
  ['nose', 'right_eye_inner'],
  ['right_eye_inner', 'right_eye'],
  ['right_eye', 'right_eye_outer'],
  ['right_eye_outer', 'right_ear'],
  ['mouth_left', 'mouth_right'],
  ['left_shoulder', 'right_shoulder'],
  ['left_shoulder', 'left_elbow'],
  ['left_elbow', 'left_wrist'],
  ['left_wrist', 'left_pinky'],
  ['left_wrist', 'left_index'],
  ['left_wrist', 'left_thumb'],
  ['left_pinky', 'left_index'],
  ['right_shoulder', 'right_elbow'],
  ['right_elbow', 'right_wrist'],
  ['right_wrist', 'right_pinky'],
  ['right_wrist', 'right_index'],
  ['right_wrist', 'right_thumb'],
  ['right_pinky', 'right_index'],
  ['left_shoulder', 'left_hip'],
  ['right_shoulder', 'right_hip'],
  ['left_hip', 'right_hip'],
  ['left_hip', 'left_knee'],
  ['right_hip', 'right_knee'],
  ['left_knee', 'left_ankle'],
  ['right_knee', 'right_ankle'],
  ['left_ankle', 'left_heel'],
  ['right_ankle', 'right_heel'],
  ['left_heel', 'left_foot_index'],
  ['right_heel', 'right_foot_index'],
  ['left_ankle', 'left_foot_index'],
  ['right_ankle', 'right_foot_index'],
];

/** MediaPipe's hand skeleton (HAND_CONNECTIONS), by landmark name. */
const HAND_CONNECTION_NAMES: readonly (readonly [HandName, HandName])[] = [
  ['wrist', 'thumb_cmc'],
  ['thumb_cmc', 'thumb_mcp'],
  ['thumb_mcp', 'thumb_ip'],
  ['thumb_ip', 'thumb_tip'],
  ['wrist', 'index_mcp'],
  ['index_mcp', 'index_pip'],
  ['index_pip', 'index_dip'],
  ['index_dip', 'index_tip'],
  ['index_mcp', 'middle_mcp'],
  ['middle_mcp', 'middle_pip'],
  ['middle_pip', 'middle_dip'],
  ['middle_dip', 'middle_tip'],
  ['middle_mcp', 'ring_mcp'],
  ['ring_mcp', 'ring_pip'],
  ['ring_pip', 'ring_dip'],
  ['ring_dip', 'ring_tip'],
  ['ring_mcp', 'pinky_mcp'],
  ['wrist', 'pinky_mcp'],
  ['pinky_mcp', 'pinky_pip'],
  ['pinky_pip', 'pinky_dip'],
  ['pinky_dip', 'pinky_tip'],
];

type Side = 'left' | 'right' | 'center';

function sideOf(name: string): Side {
  if (name.startsWith('left_')) return 'left';
  if (name.startsWith('right_')) return 'right';
  return 'center';
}

/** Pose connections as landmark index pairs with the side they belong to. */
export const POSE_CONNECTIONS: readonly { a: number; b: number; side: Side }[] = POSE_CONNECTION_NAMES.map(
  ([a, b]) => {
    const sa = sideOf(a);
    return {
      a: POSE_LANDMARKS.indexOf(a),
      b: POSE_LANDMARKS.indexOf(b),
      side: sa === sideOf(b) ? sa : 'center',
    };
  },
);

/** Hand connections as landmark index pairs. */
export const HAND_CONNECTIONS: readonly (readonly [number, number])[] = HAND_CONNECTION_NAMES.map(
  ([a, b]) => [HAND_LANDMARKS.indexOf(a), HAND_LANDMARKS.indexOf(b)] as const,
);

/** Below this visibility a landmark (and its connections) is drawn dimmer and smaller. */
export const VISIBILITY_THRESHOLD = 0.5;

/** Minimal rgb24 raster with clipped, alpha-blended primitives. */
class Raster {
  constructor(
    readonly data: Uint8Array,
    readonly width: number,
    readonly height: number,
  ) {}

  private blend(x: number, y: number, c: Rgb, alpha: number): void {
    const i = (y * this.width + x) * 3;
    const d = this.data;
    if (alpha >= 1) {
      d[i] = c[0];
      d[i + 1] = c[1];
      d[i + 2] = c[2];
    } else {
      d[i] = d[i]! + (c[0] - d[i]!) * alpha;
      d[i + 1] = d[i + 1]! + (c[1] - d[i + 1]!) * alpha;
      d[i + 2] = d[i + 2]! + (c[2] - d[i + 2]!) * alpha;
    }
  }

  fillRect(x0: number, y0: number, x1: number, y1: number, c: Rgb, alpha = 1): void {
    const xa = Math.max(0, Math.floor(x0));
    const ya = Math.max(0, Math.floor(y0));
    const xb = Math.min(this.width, Math.ceil(x1));
    const yb = Math.min(this.height, Math.ceil(y1));
    for (let y = ya; y < yb; y++) for (let x = xa; x < xb; x++) this.blend(x, y, c, alpha);
  }

  /** Filled disc of radius r (pixels) centred on (cx, cy). */
  disc(cx: number, cy: number, r: number, c: Rgb, alpha = 1): void {
    if (!Number.isFinite(cx) || !Number.isFinite(cy)) return;
    const rr = Math.max(0.5, r);
    const r2 = rr * rr;
    const ya = Math.max(0, Math.floor(cy - rr));
    const yb = Math.min(this.height - 1, Math.ceil(cy + rr));
    const xa = Math.max(0, Math.floor(cx - rr));
    const xb = Math.min(this.width - 1, Math.ceil(cx + rr));
    for (let y = ya; y <= yb; y++) {
      const dy = y + 0.5 - cy;
      for (let x = xa; x <= xb; x++) {
        const dx = x + 0.5 - cx;
        if (dx * dx + dy * dy <= r2) this.blend(x, y, c, alpha);
      }
    }
  }

  /**
   * Line of the given (perpendicular) thickness: the segment is clipped to the raster, then for each
   * pixel column (or row, for steep lines) a span of the right height is filled, so every pixel is written
   * once and alpha does not accumulate. Ends are square; joints are covered by the landmark discs.
   */
  line(x0: number, y0: number, x1: number, y1: number, thickness: number, c: Rgb, alpha = 1): void {
    if (![x0, y0, x1, y1].every(Number.isFinite)) return;
    const m = thickness + 1;
    const clipped = clipSegment(x0, y0, x1, y1, -m, -m, this.width + m, this.height + m);
    if (!clipped) return;
    [x0, y0, x1, y1] = clipped;
    const half = Math.max(0.5, thickness / 2);
    const dx = x1 - x0;
    const dy = y1 - y0;
    const len = Math.hypot(dx, dy);
    if (len < 1e-6) {
      this.disc(x0, y0, half, c, alpha);
      return;
    }
    const steep = Math.abs(dy) > Math.abs(dx);
    // Iterate along the major axis u; span along the minor axis v.
    let [u0, v0, u1, v1] = steep ? [y0, x0, y1, x1] : [x0, y0, x1, y1];
    if (u0 > u1) [u0, v0, u1, v1] = [u1, v1, u0, v0];
    const du = u1 - u0;
    const dv = v1 - v0;
    const spanHalf = (half * len) / Math.max(du, 1e-6);
    const uLimit = (steep ? this.height : this.width) - 1;
    const vLimit = (steep ? this.width : this.height) - 1;
    const ua = Math.max(0, Math.round(u0));
    const ub = Math.min(uLimit, Math.round(u1));
    for (let u = ua; u <= ub; u++) {
      const t = du > 0 ? Math.min(1, Math.max(0, (u + 0.5 - u0) / du)) : 0;
      const vc = v0 + t * dv;
      const first = Math.round(vc - spanHalf);
      const last = Math.max(first, Math.round(vc + spanHalf) - 1);
      const va = Math.max(0, first);
      const vb = Math.min(vLimit, last);
      for (let v = va; v <= vb; v++) {
        if (steep) this.blend(v, u, c, alpha);
        else this.blend(u, v, c, alpha);
      }
    }
  }
}

/** Liang–Barsky clipping of a segment to a rectangle; undefined when it lies outside. */
function clipSegment(
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  xmin: number,
  ymin: number,
  xmax: number,
  ymax: number,
): [number, number, number, number] | undefined {
  const dx = x1 - x0;
  const dy = y1 - y0;
  let t0 = 0;
  let t1 = 1;
  const edges: [number, number][] = [
    [-dx, x0 - xmin],
    [dx, xmax - x0],
    [-dy, y0 - ymin],
    [dy, ymax - y0],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return undefined;
    } else {
      const r = q / p;
      if (p < 0) {
        if (r > t1) return undefined;
        if (r > t0) t0 = r;
      } else {
        if (r < t0) return undefined;
        if (r < t1) t1 = r;
      }
    }
  }
  return [x0 + t0 * dx, y0 + t0 * dy, x0 + t1 * dx, y0 + t1 * dy];
}

export interface DrawOptions {
  /**
   * Factor from track coordinates to frame pixels, for drawing full-resolution tracks on a downscaled
   * frame (e.g. 0.5). Default 1.
   */
  scale?: number;
}

/** Line thickness and point radius for a frame size: about 4 px lines at 1080p, at least 2 px. */
export function overlayMetrics(
  width: number,
  height: number,
): { line: number; point: number; badge: number } {
  const short = Math.min(width, height);
  const line = Math.max(2, Math.round(short / 270));
  return { line, point: Math.max(2.5, line * 1.6), badge: Math.max(10, Math.round(short / 25)) };
}

function drawHand(r: Raster, hand: HandTrack, color: Rgb, s: number, line: number, point: number): void {
  const alpha = hand.score >= VISIBILITY_THRESHOLD ? 1 : 0.45;
  const pts = hand.image;
  for (const [a, b] of HAND_CONNECTIONS) {
    const pa = pts[a];
    const pb = pts[b];
    if (pa && pb) r.line(pa[0] * s, pa[1] * s, pb[0] * s, pb[1] * s, Math.max(1, line * 0.6), color, alpha);
  }
  for (const p of pts) r.disc(p[0] * s, p[1] * s, point * 0.6, color, alpha);
}

function badgeColor(state: TrackState): Rgb {
  return state === 'detected'
    ? OVERLAY_COLORS.detected
    : state === 'tracked'
      ? OVERLAY_COLORS.tracked
      : OVERLAY_COLORS.lost;
}

/**
 * Draws `track` onto a copy of `frame` and returns the copy (the input is not modified). Draws, when
 * present: the ROI (rotated square), the face mesh points and iris, the 33 pose landmarks and skeleton
 * (left side, right side and centre in different colours; landmarks with visibility < 0.5 dimmer and
 * smaller), both hands with their finger connections, and a state badge in the top-left corner (green
 * detected, blue tracked, red lost). Without a track the frame is returned unchanged (copied).
 */
export function drawTrackFrame(frame: Frame, track?: TrackFrame, opts: DrawOptions = {}): Frame {
  const data = new Uint8Array(frame.data);
  const out: Frame = { index: frame.index, time: frame.time, width: frame.width, height: frame.height, data };
  if (!track) return out;
  const r = new Raster(data, frame.width, frame.height);
  const s = opts.scale ?? 1;
  const { line, point, badge } = overlayMetrics(frame.width, frame.height);

  if (track.roi) {
    const { cx, cy, size, rotation } = track.roi;
    const cos = Math.cos(rotation);
    const sin = Math.sin(rotation);
    const h = size / 2;
    const corners = [
      [-h, -h],
      [h, -h],
      [h, h],
      [-h, h],
    ].map(([x, y]) => [(cx + x! * cos - y! * sin) * s, (cy + x! * sin + y! * cos) * s] as const);
    for (let i = 0; i < 4; i++) {
      const a = corners[i]!;
      const b = corners[(i + 1) % 4]!;
      r.line(a[0], a[1], b[0], b[1], Math.max(1, Math.round(line / 2)), OVERLAY_COLORS.roi);
    }
  }

  if (track.face) {
    const dot = Math.max(0.75, point * 0.3);
    for (const p of track.face.image) r.disc(p[0] * s, p[1] * s, dot, OVERLAY_COLORS.face, 0.85);
    for (const p of track.face.iris ?? []) r.disc(p[0] * s, p[1] * s, dot * 1.5, OVERLAY_COLORS.iris);
  }

  const lm = track.image;
  if (lm && lm.length >= POSE_LANDMARKS.length) {
    const visible = (i: number) => (lm[i]![3] ?? 1) >= VISIBILITY_THRESHOLD;
    // Dim connections first, so confident ones are drawn on top.
    for (const pass of [false, true]) {
      for (const { a, b, side } of POSE_CONNECTIONS) {
        const confident = visible(a) && visible(b);
        if (confident !== pass) continue;
        const pa = lm[a]!;
        const pb = lm[b]!;
        r.line(
          pa[0] * s,
          pa[1] * s,
          pb[0] * s,
          pb[1] * s,
          confident ? line : Math.max(1, Math.round(line / 2)),
          OVERLAY_COLORS[side],
          confident ? 1 : 0.45,
        );
      }
    }
    POSE_LANDMARKS.forEach((name, i) => {
      const p = lm[i]!;
      const color = OVERLAY_COLORS[sideOf(name)];
      if (visible(i)) {
        r.disc(p[0] * s, p[1] * s, point + 1, [20, 20, 20]);
        r.disc(p[0] * s, p[1] * s, point, color);
      } else {
        r.disc(p[0] * s, p[1] * s, point * 0.6, color, 0.45);
      }
    });
  }

  if (track.hands) {
    if (track.hands.left) drawHand(r, track.hands.left, OVERLAY_COLORS.leftHand, s, line, point);
    if (track.hands.right) drawHand(r, track.hands.right, OVERLAY_COLORS.rightHand, s, line, point);
  }

  const m = Math.max(4, Math.round(badge / 3));
  r.fillRect(m - 2, m - 2, m + badge + 2, m + badge + 2, [15, 15, 15]);
  r.fillRect(m, m, m + badge, m + badge, badgeColor(track.state));
  return out;
}

export interface OverlayWriterOptions {
  /** Size of the frames that will be written (even sizes avoid a 1-pixel pad for yuv420p). */
  width: number;
  height: number;
  /** Frame rate of the output video. */
  fps: number;
  /** Factor from track coordinates to frame pixels (see DrawOptions.scale). Default 1. */
  scale?: number;
  /** x264 quality, 0 (lossless) to 51. Default 23. */
  crf?: number;
  /** x264 preset. Default `veryfast`. */
  preset?: string;
  /** Time limit for `close()` to finish encoding, ms. Default 120 s. */
  closeTimeoutMs?: number;
}

export interface OverlayWriter {
  /** Draws `track` onto a copy of `frame` and queues it for encoding; resolves when ffmpeg accepted it. */
  write(frame: Frame, track?: TrackFrame): Promise<void>;
  /** Finishes the file. Rejects when ffmpeg failed; the output is only moved into place on success. */
  close(): Promise<void>;
  /** Stops ffmpeg and deletes the partial output. */
  abort(): Promise<void>;
}

/**
 * Opens an H.264 (yuv420p) MP4 writer at `outPath` fed with rgb24 frames through ffmpeg's stdin, with
 * backpressure (a write resolves once the pipe accepts the frame). The video is written to
 * `<outPath>.partial` and renamed on successful close.
 */
export function createOverlayWriter(outPath: string, opts: OverlayWriterOptions): OverlayWriter {
  const { width, height, fps } = opts;
  if (!(Number.isInteger(width) && width > 0 && Number.isInteger(height) && height > 0)) {
    throw new RangeError(`overlay size must be positive integers, got ${width}x${height}`);
  }
  if (!(Number.isFinite(fps) && fps > 0)) throw new RangeError(`overlay fps must be > 0, got ${fps}`);
  const absOut = path.resolve(outPath);
  const partial = `${absOut}.partial`;
  const name = path.basename(absOut);
  const vf = width % 2 || height % 2 ? ['-vf', 'pad=ceil(iw/2)*2:ceil(ih/2)*2'] : [];
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    '-s',
    `${width}x${height}`,
    '-framerate',
    String(fps),
    '-i',
    'pipe:0',
    ...vf,
    '-c:v',
    'libx264',
    '-preset',
    opts.preset ?? 'veryfast',
    '-crf',
    String(opts.crf ?? 23),
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    `file:${partial}`,
  ];
  const bin = ffmpegPath();
  const child: ChildProcess = spawn(bin, args, { stdio: ['pipe', 'ignore', 'pipe'], windowsHide: true });
  const exited = waitForExit(child);
  const stderr = new TailBuffer();
  child.stderr!.on('data', (c: Buffer) => stderr.push(c));
  let failure: Error | undefined;
  child.once('error', (e) => {
    failure ??= new Error(`could not run ffmpeg (${bin}) to write ${name}: ${e.message}`, { cause: e });
  });
  const stdin = child.stdin!;
  // EPIPE when ffmpeg dies: reported by write()/close() with ffmpeg's own message.
  stdin.on('error', () => {});
  let state: 'open' | 'closing' | 'closed' | 'aborted' = 'open';
  let queue: Promise<void> = Promise.resolve();

  const ffmpegFailure = (what: string) => {
    if (failure) return failure;
    const why = summarizeStderr(stderr.toString(), partial) || 'ffmpeg exited';
    return new Error(`overlay ${name}: ${what}: ${why}`);
  };

  const writeOne = async (frame: Frame, track: TrackFrame | undefined): Promise<void> => {
    if (failure) throw failure;
    if (!isRunning(child) || stdin.destroyed)
      throw ffmpegFailure(`ffmpeg stopped before frame ${frame.index}`);
    const drawn = drawTrackFrame(frame, track, { scale: opts.scale });
    const buf = Buffer.from(drawn.data.buffer, drawn.data.byteOffset, drawn.data.byteLength);
    if (stdin.write(buf)) return;
    await new Promise<void>((resolve, reject) => {
      const cleanup = () => {
        stdin.off('drain', onDrain);
        stdin.off('close', onGone);
        child.off('exit', onGone);
      };
      const onDrain = () => {
        cleanup();
        resolve();
      };
      const onGone = () => {
        cleanup();
        reject(ffmpegFailure(`ffmpeg stopped while writing frame ${frame.index}`));
      };
      stdin.on('drain', onDrain);
      stdin.once('close', onGone);
      child.once('exit', onGone);
    });
  };

  return {
    write(frame, track) {
      if (state !== 'open') return Promise.reject(new Error(`overlay ${name} is already ${state}`));
      if (frame.width !== width || frame.height !== height || frame.data.length !== width * height * 3) {
        return Promise.reject(
          new RangeError(
            `overlay ${name} expects ${width}x${height} rgb24 frames, got ${frame.width}x${frame.height}`,
          ),
        );
      }
      const next = queue.then(() => writeOne(frame, track));
      queue = next.catch(() => {});
      return next;
    },
    async close() {
      if (state !== 'open') throw new Error(`overlay ${name} is already ${state}`);
      state = 'closing';
      try {
        await queue;
        stdin.end();
        const timeoutMs = opts.closeTimeoutMs ?? 120_000;
        let timedOut = false;
        const timer = setTimeout(() => {
          timedOut = true;
          if (isRunning(child)) child.kill('SIGKILL');
        }, timeoutMs);
        const { code, signal } = await exited;
        clearTimeout(timer);
        if (timedOut) throw new Error(`overlay ${name}: ffmpeg did not finish within ${timeoutMs / 1000} s`);
        if (failure) throw failure;
        if (code !== 0) throw ffmpegFailure(`ffmpeg failed (exit ${code ?? signal})`);
        await rename(partial, absOut);
        state = 'closed';
      } catch (err) {
        state = 'aborted';
        if (isRunning(child)) child.kill('SIGKILL');
        await exited;
        await rm(partial, { force: true });
        throw err;
      }
    },
    async abort() {
      if (state === 'closed' || state === 'aborted') return;
      state = 'aborted';
      if (isRunning(child)) child.kill('SIGKILL');
      stdin.destroy();
      await exited;
      await rm(partial, { force: true });
    },
  };
}
