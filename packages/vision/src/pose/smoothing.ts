import type { ImageLandmark, Vec3 } from '@mocap/contracts';

/**
 * MediaPipe's landmark smoothing for BlazePose (`pose_landmark_filtering.pbtxt`, ported as tfjs-models'
 * `blazepose_tfjs` runtime does it): a one-euro filter per coordinate, values scaled by the size of the
 * person (twice the distance between the auxiliary landmarks 33 and 34, the region before its 1.25 margin).
 * - the 33 image landmarks: min cut-off 0.05, beta 80, derivative cut-off 1;
 * - the auxiliary landmarks 33/34 that place the next frame's region: min cut-off 0.01, beta 10;
 * - the world landmarks: min cut-off 0.1, beta 40, in metres (no value scaling).
 * The tracker smooths the auxiliary landmarks (steadier crops); the raw tracks keep unsmoothed landmarks (the
 * solver does its own non-causal smoothing); `PoseSmoother` exists to compare our output with MediaPipe's
 * published, smoothed, reference outputs like for like.
 */

export interface OneEuroConfig {
  /** Initial sampling frequency (Hz); replaced by the one the timestamps give from the third sample on. */
  frequency: number;
  minCutOff: number;
  beta: number;
  derivateCutOff: number;
  /** Below this object scale (px) the values pass unfiltered. */
  minAllowedObjectScale: number;
  /** World landmarks: metres, not scaled by the size of the person. */
  disableValueScaling?: boolean;
}

export const POSE_LANDMARK_SMOOTHING: OneEuroConfig = {
  frequency: 30,
  minCutOff: 0.05,
  beta: 80,
  derivateCutOff: 1,
  minAllowedObjectScale: 1e-6,
};
export const POSE_AUX_SMOOTHING: OneEuroConfig = {
  frequency: 30,
  minCutOff: 0.01,
  beta: 10,
  derivateCutOff: 1,
  minAllowedObjectScale: 1e-6,
};
export const POSE_WORLD_SMOOTHING: OneEuroConfig = {
  frequency: 30,
  minCutOff: 0.1,
  beta: 40,
  derivateCutOff: 1,
  minAllowedObjectScale: 1e-6,
  disableValueScaling: true,
};

class LowPassFilter {
  private initialized = false;
  private raw = 0;
  private stored = 0;

  apply(value: number, alpha: number): number {
    const result = this.initialized ? this.stored + alpha * (value - this.stored) : value;
    this.initialized = true;
    this.raw = value;
    this.stored = result;
    return result;
  }
  lastRaw(): number | undefined {
    return this.initialized ? this.raw : undefined;
  }
}

/**
 * MediaPipe's OneEuroFilter (mediapipe/util/filtering/one_euro_filter.cc), timestamps in integer
 * microseconds. As there, a sample not later than the previous one passes unfiltered, and the last timestamp
 * starts at 0: a sample at time 0 passes unfiltered and the next one starts the filter.
 */
export class OneEuroFilter {
  private frequency: number;
  private readonly x = new LowPassFilter();
  private readonly dx = new LowPassFilter();
  private lastMicros = 0;

  constructor(private readonly config: OneEuroConfig) {
    this.frequency = config.frequency;
  }

  private alpha(cutOff: number): number {
    return 1 / (1 + this.frequency / (2 * Math.PI * cutOff));
  }

  /** `time` in seconds, `valueScale` = 1 / object size. */
  apply(value: number, time: number, valueScale: number): number {
    const micros = Math.trunc(time * 1e6);
    if (this.lastMicros >= micros) return value;
    if (this.lastMicros !== 0 && micros !== 0) this.frequency = 1e6 / (micros - this.lastMicros);
    this.lastMicros = micros;
    const last = this.x.lastRaw();
    const dValue = last === undefined ? 0 : (value - last) * valueScale * this.frequency;
    const edValue = this.dx.apply(dValue, this.alpha(this.config.derivateCutOff));
    const cutOff = this.config.minCutOff + this.config.beta * Math.abs(edValue);
    return this.x.apply(value, this.alpha(cutOff));
  }
}

/** One-euro filters over `count` points of `dims` coordinates each (MediaPipe's LandmarksSmoothingCalculator). */
export class LandmarksFilter {
  private readonly filters: OneEuroFilter[];

  constructor(
    private readonly config: OneEuroConfig,
    count: number,
    private readonly dims: number,
  ) {
    this.filters = Array.from({ length: count * dims }, () => new OneEuroFilter(config));
  }

  /** Filters `points` (first `dims` coordinates of each) in place. `objectScale` in pixels. */
  apply(points: number[][], time: number, objectScale: number): void {
    let valueScale = 1;
    if (!this.config.disableValueScaling) {
      if (objectScale < this.config.minAllowedObjectScale) return;
      valueScale = 1 / objectScale;
    }
    points.forEach((p, k) => {
      for (let c = 0; c < this.dims; c++)
        p[c] = this.filters[k * this.dims + c].apply(p[c], time, valueScale);
    });
  }
}

/** Size of the person for the filters: the side of the square from landmark 33 to 34, before its margin. */
export function poseObjectScale(aux: readonly [number, number, number, number]): number {
  return 2 * Math.hypot(aux[2] - aux[0], aux[3] - aux[1]);
}

/** Smooths consecutive poses of one track as MediaPipe does (image landmarks x, y, z and world landmarks). */
export class PoseSmoother {
  private image = new LandmarksFilter(POSE_LANDMARK_SMOOTHING, 33, 3);
  private world = new LandmarksFilter(POSE_WORLD_SMOOTHING, 33, 3);

  /** Forget the history (the track was lost). */
  reset(): void {
    this.image = new LandmarksFilter(POSE_LANDMARK_SMOOTHING, 33, 3);
    this.world = new LandmarksFilter(POSE_WORLD_SMOOTHING, 33, 3);
  }

  /** `time` in seconds. Returns smoothed copies. */
  apply(
    pose: { image: ImageLandmark[]; world: Vec3[]; aux: [number, number, number, number] },
    time: number,
  ): { image: ImageLandmark[]; world: Vec3[] } {
    const image = pose.image.map((p) => [...p] as ImageLandmark);
    const world = pose.world.map((p) => [...p] as Vec3);
    this.image.apply(image, time, poseObjectScale(pose.aux));
    this.world.apply(world, time, 1);
    return { image, world };
  }
}

/**
 * The region filter of our tracker: a relative-velocity filter (window 5, velocity scale 10; values scaled by
 * 1 / the person's size), as MediaPipe's earlier pose graphs smoothed the two auxiliary points. We keep it
 * for the region instead of the one-euro filter above (0.01 / 10), which lags on fast motion: re-tracking the
 * quality harness's rendered clips, the one-euro region gave solved PA-MPJPE 122.8 / 116.6 / 134.1 mm on a
 * dance, a side walk and a crouch against 103.1 / 104.0 / 123.3 mm with this filter, and pose_squats stays
 * within tfjs-models' tolerance either way (max abs 22.5 vs 22.2 px).
 */
interface WindowEntry {
  distance: number;
  duration: number;
}

export class RelativeVelocityFilter {
  private window: WindowEntry[] = [];
  private lastValue = 0;
  private lastTime = -1;
  private stored: number | undefined;

  constructor(
    private readonly windowSize = 5,
    private readonly velocityScale = 10,
  ) {}

  /** `time` in seconds; `valueScale` = 1 / object size. */
  apply(time: number, valueScale: number, value: number): number {
    if (this.lastTime >= time) return value;
    let alpha: number;
    if (this.lastTime < 0) alpha = 1;
    else {
      const distance = valueScale * (value - this.lastValue);
      const duration = time - this.lastTime;
      let cumDistance = distance;
      let cumDuration = duration;
      const maxCumDuration = (1 + this.window.length) / 30;
      for (const e of this.window) {
        if (cumDuration + e.duration > maxCumDuration) break;
        cumDistance += e.distance;
        cumDuration += e.duration;
      }
      const velocity = cumDistance / cumDuration;
      alpha = 1 - 1 / (1 + this.velocityScale * Math.abs(velocity));
      this.window.unshift({ distance, duration });
      if (this.window.length > this.windowSize) this.window.pop();
    }
    this.lastValue = value;
    this.lastTime = time;
    this.stored = this.stored === undefined ? value : alpha * value + (1 - alpha) * this.stored;
    return this.stored;
  }
}
