import type { Roi, TrackFrame } from '@mocap/contracts';
import type { FrameInput, FrameTracker } from './frame-tracker.ts';
import { normalizeRadians } from './pose/regions.ts';
import { decodeFrames, type VideoInfo } from './video/index.ts';

/**
 * Tracks a contiguous range of frames [start, end) of a video with one FrameTracker: the unit of work of
 * one thread. Frames where the person is lost, and the first frames after they are found (until the region
 * has been steady for `SETTLE_FRAMES` frames), are held back (up to `maxPending`); then the gap is tracked
 * backwards from the settled frame (the video is processed offline, so a person who is
 * recognised later was usually there a few frames earlier too: after a blur, a jump, an occlusion). A
 * stretch followed upside down (region turned > 120°: a detection whose upright try found nobody) is held
 * back the same way until an upright track settles, and re-tracked backwards from it: a frame takes the
 * upright result, and keeps its own where the upright re-track finds nobody (a handstand, a flip); the
 * upright frames in between keep their own result. Regions crossing the API (seed, last seen) are in
 * full-resolution pixels.
 */

export interface RangeRequest {
  start: number;
  end: number;
  /** Width frames are decoded at for inference (0 or ≥ video width = native). */
  inferenceWidth: number;
  /** Where the main person is expected at `start` (full-resolution pixels). */
  seed?: { roi: Roi; index: number };
  /**
   * Early stop: hip centres (full-res px, NaN when lost) of a previous run over the same range. The run stops
   * once its own track has agreed with them for `agreeFrames` consecutive frames (used to re-align a share).
   */
  compareTo?: Float64Array;
  agreeFrames?: number;
  /** ffmpeg decoder threads (1 when several ranges decode in parallel). */
  decodeThreads?: number;
}

export interface RangeResult {
  frames: TrackFrame[];
  /** Last region the main person was seen in (full-resolution pixels). */
  last?: { roi: Roi; index: number };
  /** True when the run stopped early because it re-joined `compareTo`. */
  rejoined: boolean;
  warnings: string[];
}

/**
 * Consecutive frames with a steady region (`steady`) after which a track counts as settled. Until then (at
 * the start of a range and after every loss) frames are held back and re-tracked backwards from the first
 * settled frame: a fresh detection's region is often off for a few frames.
 */
export const SETTLE_FRAMES = 3;

/** Consecutive regions that agree: size within 10 %, centre within 10 % of the size. */
export function steady(a: Roi, b: Roi): boolean {
  return Math.abs(b.size / a.size - 1) < 0.1 && Math.hypot(b.cx - a.cx, b.cy - a.cy) < 0.1 * a.size;
}

/** Lost frames kept for a backward fill: up to 2 s at 30 fps and about 200 MB of pixels. */
const maxPending = (f: { data: Uint8Array }) => Math.max(1, Math.min(60, Math.floor(200e6 / f.data.length)));

/**
 * A region turned by more than 120°: the person upside down in the image (see `uprightFirst` in
 * pose/tracker.ts). The margin past 90° leaves a body bent or lying about level (a deep crouch, rotation
 * ±1.5–1.7) alone.
 */
export const inverted = (roi: Roi): boolean => Math.abs(normalizeRadians(roi.rotation)) > (2 * Math.PI) / 3;
/** A region turned by at most 90°. */
export const upright = (roi: Roi): boolean => Math.abs(normalizeRadians(roi.rotation)) <= Math.PI / 2;

/**
 * Why a frame is held back: `retrack` (lost, or before the track settled) takes any backward result;
 * `inverted` (found upside down while settled) only an upright one, so a real handstand or flip keeps its
 * forward result; `keep` (upright, waiting for an upright track to settle behind an inverted stretch) keeps
 * its forward result.
 */
type Held = 'retrack' | 'inverted' | 'keep';
interface Pending {
  frame: FrameInput;
  tf: TrackFrame;
  held: Held;
}
const replaces = (held: Held, back: TrackFrame): boolean =>
  held === 'retrack' || (held === 'inverted' && !!back.roi && upright(back.roi));

export function hipCentre(f: TrackFrame): [number, number] | undefined {
  if (!f.image) return undefined;
  const l = f.image[23];
  const r = f.image[24];
  return [(l[0] + r[0]) / 2, (l[1] + r[1]) / 2];
}

const scaleRoi = (roi: Roi, s: number): Roi => ({
  cx: roi.cx * s,
  cy: roi.cy * s,
  size: roi.size * s,
  rotation: roi.rotation,
});

export async function trackRange(
  tracker: FrameTracker,
  info: VideoInfo,
  req: RangeRequest,
  onFrame?: (frame: TrackFrame) => void,
  signal?: AbortSignal,
): Promise<RangeResult> {
  const warnings: string[] = [];
  const width = req.inferenceWidth > 0 && req.inferenceWidth < info.width ? req.inferenceWidth : undefined;
  const frames: TrackFrame[] = [];
  let scale = 1;
  tracker.reset();
  let seeded = !req.seed;
  let agree = 0;
  let rejoined = false;
  let pending: Pending[] = [];
  let run = 0;
  let uprightRun = 0;
  let settled = false;
  let prevRoi: Roi | undefined;
  let prevNotInverted = false;
  let lastNotInverted = false;
  const emit = (tf: TrackFrame) => {
    frames.push(tf);
    onFrame?.(tf);
  };
  // Backwards from where the tracker last saw the person; where that pass loses the person, again from the
  // latest frame found forwards before that point, until no found frame is left to start from. A frame keeps
  // its forward result unless a backward pass followed it and `replaces` allows it.
  const flush = async () => {
    let seed = tracker.lastSeen();
    let end = pending.length;
    while (seed && end > 0) {
      const back = await tracker.trackBackwards(
        pending.slice(0, end).map((p) => p.frame),
        seed.roi,
        seed.index,
        scale,
      );
      back.forEach((b, k) => {
        const p = pending[end - 1 - k];
        if (replaces(p.held, b)) p.tf = b;
      });
      end -= back.length;
      let j = end - 1;
      while (j >= 0 && !pending[j].tf.roi) j--;
      const from = j >= 0 ? pending[j] : undefined;
      seed = from?.tf.roi && { roi: scaleRoi(from.tf.roi, 1 / scale), index: from.frame.index };
      end = j;
    }
    for (const p of pending) emit(p.tf);
    pending = [];
  };
  for await (const frame of decodeFrames(info, {
    width,
    startFrame: req.start,
    endFrame: req.end,
    signal,
    threads: req.decodeThreads,
    onWarning: (m) => warnings.push(m),
  })) {
    scale = info.width / frame.width;
    if (!seeded && req.seed) {
      tracker.seed(scaleRoi(req.seed.roi, 1 / scale), req.seed.index);
      seeded = true;
    }
    const tf = await tracker.track(frame, scale);
    const notInverted = !!tf.roi && !inverted(tf.roi);
    run = !tf.roi ? 0 : prevRoi && steady(prevRoi, tf.roi) ? run + 1 : 1;
    uprightRun = !notInverted
      ? 0
      : prevNotInverted && prevRoi && steady(prevRoi, tf.roi!)
        ? uprightRun + 1
        : 1;
    prevRoi = tf.roi;
    prevNotInverted = notInverted;
    if (tf.roi) lastNotInverted = notInverted;
    if (tf.state === 'lost') settled = false;
    else if (run >= SETTLE_FRAMES) settled = true;
    // Lost, or found but not yet followed steadily (a fresh detection's region is often off for a few
    // frames): held back until the track settles, then tracked backwards from there. A region turned upside
    // down is held too (until an upright track has settled, which then re-tracks it upright), and so are the
    // upright frames after it until then (they keep their own result).
    const held: Held | undefined = !settled
      ? 'retrack'
      : !notInverted
        ? 'inverted'
        : uprightRun < SETTLE_FRAMES && pending.some((p) => p.held === 'inverted')
          ? 'keep'
          : undefined;
    if (held) {
      // Memory bound: a settled track that stays upside down (a handstand) fills the gap before it from
      // where it is now, as it would have without the wait for an upright track.
      if (settled && pending.length >= maxPending(frame) && pending[0].held === 'retrack') await flush();
      pending.push({ frame, tf, held });
      if (pending.length > maxPending(frame)) emit(pending.shift()!.tf);
      continue;
    }
    if (pending.length > 0) await flush();
    emit(tf);
    if (req.compareTo) {
      const k = frame.index - req.start;
      const a = hipCentre(tf);
      const bx = req.compareTo[2 * k];
      const by = req.compareTo[2 * k + 1];
      const same = a && tf.roi && Number.isFinite(bx) && Math.hypot(a[0] - bx, a[1] - by) < 0.1 * tf.roi.size;
      agree = same ? agree + 1 : 0;
      if (agree >= (req.agreeFrames ?? 5)) {
        rejoined = true;
        break;
      }
    }
  }
  if (settled && (lastNotInverted || pending.some((p) => p.held === 'retrack'))) await flush();
  for (const p of pending) emit(p.tf);
  const last = tracker.lastSeen();
  return { frames, last: last && { roi: scaleRoi(last.roi, scale), index: last.index }, rejoined, warnings };
}
