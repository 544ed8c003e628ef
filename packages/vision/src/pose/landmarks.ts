import type { ImageLandmark, Roi, Vec3 } from '@mocap/contracts';
import { NORM_0_1, type Rect, type RgbImage, warpToTensor } from '../image/warp.ts';
import type { ModelSession } from '../runtime/session.ts';
import { roiFromKeypoints } from './detector.ts';
import { mediapipeSampling } from './regions.ts';

/**
 * BlazePose landmark model (`blazepose-lite|full|heavy`, 256×256): 39 points × (x, y, z, visibility, presence)
 * in crop pixels, 39 world points in metres, a pose flag, a 64×64×39 heatmap used to refine x, y.
 */

export const LANDMARK_SIZE = 256;
export const POSE_OUTPUTS = ['ld_3d', 'world_3d', 'output_poseflag', 'activation_heatmap'];
const HEATMAP_SIZE = 64;
/** Points in `ld_3d` and channels in the heatmap: 33 landmarks, 2 auxiliary ones, 4 unused. */
const POSE_POINTS = 39;
const HEATMAP_KERNEL = 7;
const REFINE_MIN_CONFIDENCE = 0.5;

export interface PoseResult {
  /** Pose-presence flag 0..1. */
  flag: number;
  image: ImageLandmark[];
  world: Vec3[];
  /** Region for the next frame, from landmarks 33 (hip centre) and 34 (scale point). */
  nextRoi: Roi;
  /** Landmarks 33 and 34 in image pixels: [x33, y33, x34, y34]. */
  aux: [number, number, number, number];
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

export function roiToRect(roi: Roi): Rect {
  return { cx: roi.cx, cy: roi.cy, width: roi.size, height: roi.size, rotation: roi.rotation };
}

/**
 * MediaPipe's heatmap refinement (RefineLandmarksFromHeatmapCalculator): heat-weighted mean over a 7×7 window
 * when its peak is ≥ 0.5. MediaPipe refines all 39 points, the auxiliary ones (33, 34) that place the next
 * region included, and skips a point whose column is off the map or whose row is above it (its check of the
 * row against the bottom tests the column instead: kept, to match).
 */
export function refineWithHeatmap(ld: Float32Array, heatmap: Float32Array, points: number): void {
  const offset = (HEATMAP_KERNEL - 1) / 2;
  for (let k = 0; k < points; k++) {
    const x = ld[k * 5] / LANDMARK_SIZE;
    const y = ld[k * 5 + 1] / LANDMARK_SIZE;
    const col = Math.trunc(x * HEATMAP_SIZE);
    const row = Math.trunc(y * HEATMAP_SIZE);
    if (col < 0 || col >= HEATMAP_SIZE || row < 0) continue;
    const c0 = Math.max(0, col - offset);
    const c1 = Math.min(HEATMAP_SIZE, col + offset + 1);
    const r0 = Math.max(0, row - offset);
    const r1 = Math.min(HEATMAP_SIZE, row + offset + 1);
    let sum = 0;
    let max = 0;
    let wc = 0;
    let wr = 0;
    for (let r = r0; r < r1; r++) {
      for (let c = c0; c < c1; c++) {
        const conf = heatmap[(r * HEATMAP_SIZE + c) * 39 + k];
        sum += conf;
        if (conf > max) max = conf;
        wc += c * conf;
        wr += r * conf;
      }
    }
    if (max >= REFINE_MIN_CONFIDENCE && sum > 0) {
      ld[k * 5] = (wc / HEATMAP_SIZE / sum) * LANDMARK_SIZE;
      ld[k * 5 + 1] = (wr / HEATMAP_SIZE / sum) * LANDMARK_SIZE;
    }
  }
}

/** Decodes the landmark model's outputs for a crop of `roi`. */
export function decodePose(outputs: Record<string, Float32Array>, roi: Roi, refine = true): PoseResult {
  const ld = Float32Array.from(outputs.ld_3d);
  const worldRaw = outputs.world_3d;
  const flag = outputs.output_poseflag[0];
  if (refine && outputs.activation_heatmap) refineWithHeatmap(ld, outputs.activation_heatmap, POSE_POINTS);
  const cos = Math.cos(roi.rotation);
  const sin = Math.sin(roi.rotation);
  const toImage = (x: number, y: number): [number, number] => {
    const u = x / LANDMARK_SIZE - 0.5;
    const v = y / LANDMARK_SIZE - 0.5;
    return [(cos * u - sin * v) * roi.size + roi.cx, (sin * u + cos * v) * roi.size + roi.cy];
  };
  const image: ImageLandmark[] = [];
  const world: Vec3[] = [];
  for (let k = 0; k < 33; k++) {
    const [X, Y] = toImage(ld[k * 5], ld[k * 5 + 1]);
    image.push([
      X,
      Y,
      (ld[k * 5 + 2] / LANDMARK_SIZE) * roi.size,
      sigmoid(ld[k * 5 + 3]),
      sigmoid(ld[k * 5 + 4]),
    ]);
    const wx = worldRaw[k * 3];
    const wy = worldRaw[k * 3 + 1];
    world.push([cos * wx - sin * wy, sin * wx + cos * wy, worldRaw[k * 3 + 2]]);
  }
  const [hx, hy] = toImage(ld[33 * 5], ld[33 * 5 + 1]);
  const [sx, sy] = toImage(ld[34 * 5], ld[34 * 5 + 1]);
  return { flag, image, world, nextRoi: roiFromKeypoints(hx, hy, sx, sy), aux: [hx, hy, sx, sy] };
}

/** Crops `roi`, runs the landmark model and decodes. */
export async function estimatePose(
  session: ModelSession,
  image: RgbImage,
  roi: Roi,
  input?: Float32Array,
): Promise<PoseResult> {
  const rect = mediapipeSampling(roiToRect(roi), LANDMARK_SIZE);
  const tensor = warpToTensor(image, rect, LANDMARK_SIZE, NORM_0_1, input);
  return decodePose(await session.run(tensor), roi);
}
