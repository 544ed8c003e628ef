import type { ImageLandmark, TrackFrame } from '../tracks.ts';

/**
 * MediaPipe's landmark smoothing for BlazePose image landmarks: a relative-velocity filter (window 5,
 * velocity scale 10), values scaled by the size of the person, applied causally per coordinate.
 * The raw tracks stay unsmoothed (the solver does its own non-causal smoothing); this filter exists to
 * compare our raw output with MediaPipe's published, smoothed, reference outputs like for like.
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

/**
 * Returns a copy of the frames with image landmarks smoothed as MediaPipe does. `frameInterval` overrides the
 * timestamps (MediaPipe's reference runs fed every video at 30 fps timestamps).
 */
export function smoothImageLandmarks(frames: TrackFrame[], frameInterval?: number): TrackFrame[] {
  let filters: RelativeVelocityFilter[] = [];
  return frames.map((f, i) => {
    if (!f.image) {
      filters = [];
      return f;
    }
    if (filters.length === 0) filters = Array.from({ length: 33 * 3 }, () => new RelativeVelocityFilter());
    const xs = f.image.map((p) => p[0]);
    const ys = f.image.map((p) => p[1]);
    const scale = (Math.max(...xs) - Math.min(...xs) + (Math.max(...ys) - Math.min(...ys))) / 2;
    const valueScale = 1 / Math.max(scale, 1e-6);
    const t = frameInterval ? i * frameInterval : f.time;
    const image = f.image.map(
      ([x, y, z, v, p], k) =>
        [
          filters[k * 3].apply(t, valueScale, x),
          filters[k * 3 + 1].apply(t, valueScale, y),
          filters[k * 3 + 2].apply(t, valueScale, z),
          v,
          p,
        ] as ImageLandmark,
    );
    return { ...f, image };
  });
}
