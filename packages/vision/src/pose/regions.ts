import type { Rect } from '../image/warp.ts';

/** An angle wrapped into [−π, π). */
export function normalizeRadians(a: number): number {
  return a - 2 * Math.PI * Math.floor((a + Math.PI) / (2 * Math.PI));
}

/** Rotated-rectangle helpers shared by the hand and face trackers (MediaPipe's rect transformations). */

export type Point = [number, number];

/** Rotation that makes the vector a→b point up (MediaPipe's `target_angle` = π/2) or right (0). */
export function rotationBetween(a: Point, b: Point, targetAngle: number): number {
  return normalizeRadians(targetAngle - Math.atan2(-(b[1] - a[1]), b[0] - a[0]));
}

/** Tight rect around `points` in the frame rotated by `rotation`. */
export function rotatedBounds(points: Point[], rotation: number): Rect {
  const cos = Math.cos(rotation);
  const sin = Math.sin(rotation);
  let minU = Number.POSITIVE_INFINITY;
  let maxU = Number.NEGATIVE_INFINITY;
  let minV = Number.POSITIVE_INFINITY;
  let maxV = Number.NEGATIVE_INFINITY;
  for (const [x, y] of points) {
    // Rotate into the rect's frame (inverse rotation).
    const u = cos * x + sin * y;
    const v = -sin * x + cos * y;
    minU = Math.min(minU, u);
    maxU = Math.max(maxU, u);
    minV = Math.min(minV, v);
    maxV = Math.max(maxV, v);
  }
  const cu = (minU + maxU) / 2;
  const cv = (minV + maxV) / 2;
  return {
    cx: cos * cu - sin * cv,
    cy: sin * cu + cos * cv,
    width: maxU - minU,
    height: maxV - minV,
    rotation,
  };
}

/** MediaPipe's RectTransformationCalculator: shift (in rect units, rotated), square on the long side, scale. */
export function transformRect(r: Rect, scale: number, shiftX = 0, shiftY = 0): Rect {
  const cos = Math.cos(r.rotation);
  const sin = Math.sin(r.rotation);
  const cx = r.cx + (r.width * shiftX * cos - r.height * shiftY * sin);
  const cy = r.cy + (r.width * shiftX * sin + r.height * shiftY * cos);
  const side = Math.max(r.width, r.height) * scale;
  return { cx, cy, width: side, height: side, rotation: r.rotation };
}

/**
 * MediaPipe's ImageToTensor (OpenCV's warpPerspective from the rect's corners on CPU, `tf.image.transform` in
 * tfjs-models) samples output pixel j at u = j/size − 0.5 of the rect in pixel-index coordinates (pixel
 * centres at integers), and decodes the model's outputs back with the same rect, ignoring that half-pixel
 * offset. `warpToTensor` samples u = (j + 0.5)/size − 0.5 with pixel centres at +0.5. The rect returned here
 * makes `warpToTensor` sample exactly where MediaPipe does: shifted by half a source pixel and back by half
 * an output pixel (about 2 px for a 1000 px body region at 256). Decode with the original rect, as MediaPipe.
 * On pose_squats.mp4 this brings our landmarks to MediaPipe's goldens' 2D error of tfjs-models (identical
 * crops and landmarks given the same region).
 */
export function mediapipeSampling(rect: Rect, size: number): Rect {
  const cos = Math.cos(rect.rotation);
  const sin = Math.sin(rect.rotation);
  const hu = (0.5 * rect.width) / size;
  const hv = (0.5 * rect.height) / size;
  return { ...rect, cx: rect.cx - (cos * hu - sin * hv) + 0.5, cy: rect.cy - (sin * hu + cos * hv) + 0.5 };
}

/** A tracker that follows one region from frame to frame (the face, a hand): its state is that region. */
export class RegionTracker {
  protected rect: Rect | undefined;

  reset(): void {
    this.rect = undefined;
  }
  /** The tracking state (the region for the next frame), to put back with `restore`. */
  snapshot(): Rect | undefined {
    return this.rect;
  }
  restore(rect: Rect | undefined): void {
    this.rect = rect;
  }
}
