import type { Roi, TrackFrame } from '@mocap/contracts';
import type { RgbImage } from '../image/warp.ts';
import type { ModelSession } from '../runtime/session.ts';
import { detectPeople, normalizeRadians, type PersonDetection, roiFromKeypoints } from './detector.ts';
import { estimatePose, type PoseResult } from './landmarks.ts';
import { RelativeVelocityFilter } from './smoothing.ts';

/**
 * Follows one person through consecutive frames: detector → ROI → landmark model, then the ROI for the
 * next frame comes from the landmarks (points 33/34). When the pose flag drops below 0.5 the detector runs
 * again on the same frame, and for a few frames after a loss the last region the person was seen in is tried
 * once more. The person to follow is the main one: at the first detection the largest, most
 * central, most confident person; after a loss, the detection closest to where the person was last seen,
 * so a second person in the background cannot steal the track.
 */

export const POSE_FLAG_THRESHOLD = 0.5;
/** After this many frames without the person, any person may be picked again. */
const MAX_GAP_FRAMES = 90;
/** For this many frames after a loss, the last region the person was seen in is tried again. */
const RETRY_LAST_FRAMES = 15;

export interface TrackerState {
  /** Region to try on the next frame (tracking), in inference pixels. */
  roi?: Roi;
  /** Where the main person was last seen (inference pixels) and at which frame index. */
  last?: { roi: Roi; index: number };
  /** Other people the detector saw while the main person was known elsewhere (not to be switched to). */
  others?: { roi: Roi; index: number }[];
}

export interface BodyTrackResult {
  state: TrackFrame['state'];
  pose?: PoseResult;
  roi?: Roi;
}

/** Score for picking the main person among detections on a frame with no history. */
export function mainPersonScore(d: PersonDetection, width: number, height: number): number {
  const dx = (d.roi.cx - width / 2) / width;
  const dy = (d.roi.cy - height / 2) / height;
  const centrality = Math.max(0.2, 1 - Math.hypot(dx, dy) * 1.5);
  const size = d.roi.size / Math.max(width, height);
  return size * centrality * d.score;
}

/** Picks the detection to follow. Returns undefined when none is plausible. */
export function pickMainPerson(
  detections: PersonDetection[],
  width: number,
  height: number,
  last: TrackerState['last'],
  frameIndex: number,
  others: TrackerState['others'] = [],
): PersonDetection | undefined {
  if (detections.length === 0) return undefined;
  if (last && frameIndex - last.index <= MAX_GAP_FRAMES) {
    // Continuity: nearest to the last known region, relative to its size; size must be comparable.
    let best: PersonDetection | undefined;
    let bestCost = Number.POSITIVE_INFINITY;
    // Someone seen recently as another person, standing where this detection is, is not the main person
    // (unless the detection is right where the main person was).
    const isOther = (d: PersonDetection) =>
      others.some(
        (o) =>
          frameIndex - o.index <= MAX_GAP_FRAMES &&
          Math.hypot(d.roi.cx - o.roi.cx, d.roi.cy - o.roi.cy) < 0.5 * o.roi.size,
      );
    for (const d of detections) {
      const dist = Math.hypot(d.roi.cx - last.roi.cx, d.roi.cy - last.roi.cy) / last.roi.size;
      const sizeRatio = Math.abs(Math.log(d.roi.size / last.roi.size));
      const cost = dist + 0.5 * sizeRatio;
      if (cost > 0.5 && isOther(d)) continue;
      if (cost < bestCost) {
        bestCost = cost;
        best = d;
      }
    }
    // Within ~1 body-region of where they were, scaled by how long ago that was.
    const allowed = 1 + (frameIndex - last.index) / 30;
    if (bestCost <= allowed) return best;
    return undefined;
  }
  let best = detections[0];
  for (const d of detections)
    if (mainPersonScore(d, width, height) > mainPersonScore(best, width, height)) best = d;
  return best;
}

export class BodyTracker {
  state: TrackerState = {};
  private readonly detectorInput: Float32Array;
  private readonly landmarkInput: Float32Array;
  /**
   * The two auxiliary landmarks that place the next region are smoothed (steadier crops, less jitter) by a
   * relative-velocity filter per coordinate (why not MediaPipe's newer one-euro filter: smoothing.ts).
   * Empty until the first pose of a track.
   */
  private auxFilters: RelativeVelocityFilter[] = [];

  constructor(
    private readonly detector: ModelSession,
    private readonly landmarks: ModelSession,
  ) {
    this.detectorInput = new Float32Array(detector.inputShape.reduce((a, b) => a * b, 1));
    this.landmarkInput = new Float32Array(landmarks.inputShape.reduce((a, b) => a * b, 1));
  }

  reset(): void {
    this.state = {};
    this.auxFilters = [];
  }

  /** The whole tracking state, to put back with `restore` (filters are replaced, never mutated, on reseed). */
  snapshot(): { state: TrackerState; auxFilters: RelativeVelocityFilter[] } {
    return { state: { ...this.state }, auxFilters: this.auxFilters };
  }
  restore(s: { state: TrackerState; auxFilters: RelativeVelocityFilter[] }): void {
    this.state = { ...s.state };
    this.auxFilters = s.auxFilters;
  }

  /** Seeds the tracker with a region where the main person is expected (e.g. from a previous share). */
  seed(roi: Roi, index: number): void {
    this.state = { roi, last: { roi, index } };
    this.auxFilters = [];
  }

  /** `time` in seconds drives the region smoothing; `trackOnly` never runs the detector. */
  async process(
    image: RgbImage,
    index: number,
    time = index / 30,
    trackOnly = false,
  ): Promise<BodyTrackResult> {
    if (this.state.roi) {
      const pose = await estimatePose(this.landmarks, image, this.state.roi, this.landmarkInput);
      if (pose.flag >= POSE_FLAG_THRESHOLD) return this.accept(pose, this.state.roi, index, 'tracked', time);
    }
    if (trackOnly) {
      this.state.roi = undefined;
      return { state: 'lost' };
    }
    this.auxFilters = [];
    const detections = await detectPeople(this.detector, image, this.detectorInput);
    const person = pickMainPerson(
      detections,
      image.width,
      image.height,
      this.state.last,
      index,
      this.state.others,
    );
    if (person) {
      const { pose, roi } = await this.uprightFirst(image, person.roi);
      if (pose.flag >= POSE_FLAG_THRESHOLD) {
        const others = detections.filter((d) => d !== person).map((d) => ({ roi: d.roi, index }));
        if (others.length > 0) this.state.others = others;
        return this.accept(pose, roi, index, 'detected', time);
      }
    }
    // A short loss (motion blur, an occluding arm, a detector box that cuts the body) often ends where the
    // person was last seen: the landmark model recognises them there although the detector's box fails.
    const last = this.state.last;
    if (last && last.roi !== this.state.roi && index - last.index <= RETRY_LAST_FRAMES) {
      const pose = await estimatePose(this.landmarks, image, last.roi, this.landmarkInput);
      if (pose.flag >= POSE_FLAG_THRESHOLD) return this.accept(pose, last.roi, index, 'detected', time);
    }
    this.state.roi = undefined;
    return { state: 'lost' };
  }

  /**
   * The landmark model on a detection's region, upright first. The detector sometimes puts its scale point
   * below the hips of a person standing upright (a small crouching player, a T-pose seen from behind): the
   * region is then upside down, the landmark model still answers with a confident flag (0.7–1.0) but a
   * scrambled pose, and tracking carries the half-turn on (a basketball clip: 6.4 s upside down until a
   * re-detection; a Pose2Sim camera: all frames). People in videos are upright far more often than not, so
   * a region turned by more than 90° is tried turned back first and kept turned only when the upright one
   * finds no person (a handstand, a flip).
   */
  private async uprightFirst(image: RgbImage, roi: Roi): Promise<{ pose: PoseResult; roi: Roi }> {
    if (Math.abs(normalizeRadians(roi.rotation)) > Math.PI / 2) {
      const upright: Roi = { ...roi, rotation: normalizeRadians(roi.rotation + Math.PI) };
      const pose = await estimatePose(this.landmarks, image, upright, this.landmarkInput);
      if (pose.flag >= POSE_FLAG_THRESHOLD) return { pose, roi: upright };
    }
    return { pose: await estimatePose(this.landmarks, image, roi, this.landmarkInput), roi };
  }

  private accept(
    pose: PoseResult,
    roi: Roi,
    index: number,
    state: 'tracked' | 'detected',
    time: number,
  ): BodyTrackResult {
    if (this.auxFilters.length === 0)
      this.auxFilters = Array.from({ length: 4 }, () => new RelativeVelocityFilter(5, 10));
    const [hx, hy, sx, sy] = pose.aux;
    const scale = (Math.abs(sx - hx) + Math.abs(sy - hy)) / 2;
    const vs = 1 / Math.max(scale, 1e-6);
    const f = this.auxFilters;
    const next = roiFromKeypoints(
      f[0].apply(time, vs, hx),
      f[1].apply(time, vs, hy),
      f[2].apply(time, vs, sx),
      f[3].apply(time, vs, sy),
    );
    this.state.roi = next;
    this.state.last = { roi: next, index };
    return { state, pose, roi };
  }
}
