import type { Rect } from '../image/warp.ts';
import { normalizeRadians } from './detector.ts';

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
