import type { Roi } from '@mocap/contracts';
import { letterbox, NORM_MINUS1_1, type RgbImage, warpToTensor } from '../image/warp.ts';
import type { ModelSession } from '../runtime/session.ts';
import { mediapipeSampling, normalizeRadians } from './regions.ts';

export { normalizeRadians };

/**
 * BlazePose person detector (`blazepose-detector`, 224×224): SSD anchors, score + box + 4 keypoints per
 * anchor; keypoint 0 is the hip centre and keypoint 1 a point above the head that fixes scale and rotation
 * (decoding exactly as in shared/reference/blazepose.md).
 */

export const DETECTOR_SIZE = 224;
const SCORE_THRESHOLD = 0.5;
const NMS_IOU = 0.3;

export interface PersonDetection {
  score: number;
  /** Box in image pixels (axis-aligned). */
  box: { x: number; y: number; width: number; height: number };
  /** 4 keypoints in image pixels: hip centre, head-top scale point, and two more. */
  keypoints: [number, number][];
  /** Landmark-model region derived from keypoints 0 and 1. */
  roi: Roi;
}

let anchorsCache: Float32Array | undefined;

/** Anchor centres (x, y) in [0, 1]: strides 8, 16, 32, 32, 32 with 2 anchors per cell, equal strides merged. */
export function detectorAnchors(): Float32Array {
  if (anchorsCache) return anchorsCache;
  const layers: [number, number][] = [
    [28, 2],
    [14, 2],
    [7, 6],
  ];
  const total = layers.reduce((a, [n, k]) => a + n * n * k, 0);
  const out = new Float32Array(total * 2);
  let i = 0;
  for (const [n, k] of layers) {
    for (let row = 0; row < n; row++) {
      for (let col = 0; col < n; col++) {
        for (let a = 0; a < k; a++) {
          out[i++] = (col + 0.5) / n;
          out[i++] = (row + 0.5) / n;
        }
      }
    }
  }
  anchorsCache = out;
  return out;
}

/** BlazePose ROI from the hip centre (k0) and the scale point (k1), in pixels. */
export function roiFromKeypoints(x0: number, y0: number, x1: number, y1: number): Roi {
  const size = 2 * Math.hypot(x1 - x0, y1 - y0) * 1.25;
  const rotation = normalizeRadians(Math.PI / 2 - Math.atan2(-(y1 - y0), x1 - x0));
  return { cx: x0, cy: y0, size, rotation };
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

function iou(a: PersonDetection['box'], b: PersonDetection['box']): number {
  const x1 = Math.max(a.x, b.x);
  const y1 = Math.max(a.y, b.y);
  const x2 = Math.min(a.x + a.width, b.x + b.width);
  const y2 = Math.min(a.y + a.height, b.y + b.height);
  const inter = Math.max(0, x2 - x1) * Math.max(0, y2 - y1);
  const union = a.width * a.height + b.width * b.height - inter;
  return union > 0 ? inter / union : 0;
}

/** Decodes raw detector output [2254 × 13] for a frame of the given size. Weighted NMS. */
export function decodeDetections(raw: Float32Array, width: number, height: number): PersonDetection[] {
  const anchors = detectorAnchors();
  const n = anchors.length / 2;
  const { pad } = letterbox(width, height);
  const sx = 1 - pad.left - pad.right;
  const sy = 1 - pad.top - pad.bottom;
  const toPx = (x: number, y: number): [number, number] => [
    ((x - pad.left) / sx) * width,
    ((y - pad.top) / sy) * height,
  ];
  const candidates: { score: number; values: number[] }[] = [];
  for (let i = 0; i < n; i++) {
    const o = i * 13;
    const score = sigmoid(Math.max(-100, Math.min(100, raw[o])));
    if (score < SCORE_THRESHOLD) continue;
    const ax = anchors[i * 2];
    const ay = anchors[i * 2 + 1];
    const values: number[] = [];
    // box centre, size
    values.push(
      raw[o + 1] / DETECTOR_SIZE + ax,
      raw[o + 2] / DETECTOR_SIZE + ay,
      raw[o + 3] / DETECTOR_SIZE,
      raw[o + 4] / DETECTOR_SIZE,
    );
    for (let k = 0; k < 4; k++)
      values.push(raw[o + 5 + 2 * k] / DETECTOR_SIZE + ax, raw[o + 6 + 2 * k] / DETECTOR_SIZE + ay);
    candidates.push({ score, values });
  }
  candidates.sort((a, b) => b.score - a.score);
  const toDetection = (score: number, v: number[]): PersonDetection => {
    const [cx, cy] = toPx(v[0], v[1]);
    const w = (v[2] / sx) * width;
    const h = (v[3] / sy) * height;
    const keypoints: [number, number][] = [];
    for (let k = 0; k < 4; k++) keypoints.push(toPx(v[4 + 2 * k], v[5 + 2 * k]));
    const [k0, k1] = keypoints;
    return {
      score,
      box: { x: cx - w / 2, y: cy - h / 2, width: w, height: h },
      keypoints,
      roi: roiFromKeypoints(k0[0], k0[1], k1[0], k1[1]),
    };
  };
  // Weighted non-maximum suppression (as MediaPipe): overlapping candidates are averaged by score.
  const out: PersonDetection[] = [];
  const used = new Array<boolean>(candidates.length).fill(false);
  for (let i = 0; i < candidates.length; i++) {
    if (used[i]) continue;
    const lead = toDetection(candidates[i].score, candidates[i].values);
    const acc = new Array<number>(candidates[i].values.length).fill(0);
    let wsum = 0;
    for (let j = i; j < candidates.length; j++) {
      if (used[j]) continue;
      const other = j === i ? lead : toDetection(candidates[j].score, candidates[j].values);
      if (j !== i && iou(lead.box, other.box) < NMS_IOU) continue;
      used[j] = true;
      wsum += candidates[j].score;
      candidates[j].values.forEach((v, k) => {
        acc[k] += v * candidates[j].score;
      });
    }
    out.push(
      toDetection(
        candidates[i].score,
        acc.map((v) => v / wsum),
      ),
    );
  }
  return out;
}

/** Runs the detector on a whole frame (letterboxed, sampled as MediaPipe does: see `mediapipeSampling`). */
export async function detectPeople(
  session: ModelSession,
  image: RgbImage,
  input?: Float32Array,
): Promise<PersonDetection[]> {
  const rect = mediapipeSampling(letterbox(image.width, image.height).rect, DETECTOR_SIZE);
  const tensor = warpToTensor(image, rect, DETECTOR_SIZE, NORM_MINUS1_1, input);
  const out = await session.run(tensor);
  const raw = Object.values(out)[0];
  return decodeDetections(raw, image.width, image.height);
}
