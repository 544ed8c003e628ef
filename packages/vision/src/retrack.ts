/**
 * Re-tracking from an edited frame (the 2D repair editor's "re-track from here"): the tracker runs forward from
 * the frame after `from`, its region seeded from a pose the user corrected on frame `from` instead of from the
 * detector or the old track. A pure stage like `trackVideo`: a video file and a pose in, track frames out.
 */

import type { Roi, TrackFrame } from '@mocap/contracts';
import { FrameTracker } from './frame-tracker.ts';
import type { PoseModel } from './models.ts';
import { DEFAULT_INFERENCE_WIDTH } from './pipeline.ts';
import { normalizeRadians } from './pose/detector.ts';
import { trackRange } from './range.ts';
import type { Backend } from './runtime/index.ts';
import { probeVideo } from './video/index.ts';

/** x, y (pixels), and optionally z, visibility, presence: a tracks document's image landmark. */
export type PosePoint = readonly number[];

/**
 * The landmark model's region for a body pose (33 image landmarks, pixels): centred on the hip midpoint, turned
 * so the hips→shoulders direction is up, big enough for every seen landmark — what BlazePose derives from its
 * own alignment points (hip centre and scale point, enlarged 1.25×). Null without both hips and shoulders.
 */
export function roiFromPose(pose: readonly PosePoint[]): Roi | null {
  if (pose.length < 33) return null;
  const seen = (j: number) =>
    (pose[j][3] ?? 1) >= 0.3 && Number.isFinite(pose[j][0]) && Number.isFinite(pose[j][1]);
  if (![11, 12, 23, 24].every(seen)) return null;
  const hx = (pose[23][0] + pose[24][0]) / 2;
  const hy = (pose[23][1] + pose[24][1]) / 2;
  const sx = (pose[11][0] + pose[12][0]) / 2;
  const sy = (pose[11][1] + pose[12][1]) / 2;
  let r = Math.hypot(sx - hx, sy - hy);
  for (let j = 0; j < 33; j++) if (seen(j)) r = Math.max(r, Math.hypot(pose[j][0] - hx, pose[j][1] - hy));
  const size = 2 * r * 1.25;
  const rotation = normalizeRadians(Math.PI / 2 - Math.atan2(-(sy - hy), sx - hx));
  return { cx: hx, cy: hy, size, rotation };
}

export interface RetrackOptions {
  model?: PoseModel;
  hands?: boolean;
  backend?: Backend;
  /** Frames wider than this are downscaled before inference (default 960, as `trackVideo`). */
  inferenceWidth?: number;
  /** End of the stretch (exclusive); default the end of the video. */
  to?: number;
  onProgress?: (p: { done: number; total: number }) => void;
  signal?: AbortSignal;
}

export interface RetrackResult {
  /** Track frames `from + 1 … to − 1`, in order. */
  frames: TrackFrame[];
  warnings: string[];
}

/** Tracks frames after `from` with the region seeded from `pose` (the corrected landmarks of frame `from`). */
export async function retrackFrom(
  path: string,
  from: number,
  pose: readonly PosePoint[],
  options: RetrackOptions = {},
): Promise<RetrackResult> {
  const roi = roiFromPose(pose);
  if (!roi) throw new Error('retrack: the pose needs both shoulders and both hips');
  const info = await probeVideo(path);
  const start = Math.max(0, Math.floor(from) + 1);
  const end = Math.min(info.frameCount, options.to ?? info.frameCount);
  if (start >= end) return { frames: [], warnings: [] };
  const tracker = await FrameTracker.create({
    model: options.model ?? 'heavy',
    hands: options.hands ?? false,
    face: false,
    backend: options.backend ?? 'ort',
    threads: 1,
  });
  try {
    let done = 0;
    const total = end - start;
    options.onProgress?.({ done, total });
    const r = await trackRange(
      tracker,
      info,
      {
        start,
        end,
        inferenceWidth: options.inferenceWidth ?? DEFAULT_INFERENCE_WIDTH,
        seed: { roi, index: Math.floor(from) },
      },
      () => {
        done++;
        options.onProgress?.({ done, total });
      },
      options.signal,
    );
    return { frames: r.frames, warnings: r.warnings };
  } finally {
    await tracker.dispose();
  }
}
