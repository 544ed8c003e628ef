import type { FaceTrack, ImageLandmark, Vec3 } from '@mocap/contracts';
import { cropToImage, NORM_0_1, type Rect, type RgbImage, warpToTensor } from '../image/warp.ts';
import type { ModelSession } from '../runtime/session.ts';
import { type Point, RegionTracker, rotatedBounds, rotationBetween, transformRect } from './regions.ts';

/**
 * Face mesh (`facemesh`, 192×192, 468 points) on a crop from the body's face points, then tracked from
 * its own mesh; iris (`iris`, 64×64) on each eye from the mesh's eye corners (the right eye is mirrored,
 * as the model expects a left eye, as MediaPipe does).
 */

export const FACE_SIZE = 192;
export const IRIS_SIZE = 64;
const FACE_FLAG_THRESHOLD = 0.5;
/** Mesh indices of the eye corners: left eye (subject's) 362/263, right eye 33/133. */
const LEFT_EYE: [number, number] = [362, 263];
const RIGHT_EYE: [number, number] = [33, 133];

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
/** The flag output is a probability in some conversions and a logit in others: map both to 0..1. */
const toProbability = (v: number) => (v >= 0 && v <= 1 ? v : sigmoid(v));

/** Region from body landmarks 0-10 (nose, eyes, ears, mouth), image pixels. */
export function faceRectFromPose(pose: ImageLandmark[]): Rect {
  const avg = (ids: number[]): Point => [
    ids.reduce((a, i) => a + pose[i][0], 0) / ids.length,
    ids.reduce((a, i) => a + pose[i][1], 0) / ids.length,
  ];
  const leftEye = avg([1, 2, 3]);
  const rightEye = avg([4, 5, 6]);
  const mouth = avg([9, 10]);
  const eyes: Point = [(leftEye[0] + rightEye[0]) / 2, (leftEye[1] + rightEye[1]) / 2];
  const rotation = rotationBetween(rightEye, leftEye, 0);
  const earDist = Math.hypot(pose[7][0] - pose[8][0], pose[7][1] - pose[8][1]);
  const eyeMouth = Math.hypot(eyes[0] - mouth[0], eyes[1] - mouth[1]);
  const side = Math.max(earDist * 1.1, eyeMouth * 3.2);
  const center: Point = [(eyes[0] * 2 + mouth[0]) / 3, (eyes[1] * 2 + mouth[1]) / 3];
  return transformRect({ cx: center[0], cy: center[1], width: side, height: side, rotation }, 1.5);
}

/** Region from the 468-point mesh (image pixels). */
export function faceRectFromMesh(points: Point[]): Rect {
  const rotation = rotationBetween(points[33], points[263], 0);
  return transformRect(rotatedBounds(points, rotation), 1.5);
}

export class FaceTracker extends RegionTracker {
  private readonly input = new Float32Array(FACE_SIZE * FACE_SIZE * 3);
  private readonly irisInput = new Float32Array(IRIS_SIZE * IRIS_SIZE * 3);

  constructor(
    private readonly mesh: ModelSession,
    private readonly iris?: ModelSession,
  ) {
    super();
  }

  async process(image: RgbImage, pose: ImageLandmark[] | undefined): Promise<FaceTrack | null> {
    const visible = pose && pose[0][3] > 0.3;
    let result = this.rect ? await this.run(image, this.rect) : null;
    if (!result && visible) {
      const first = await this.run(image, faceRectFromPose(pose));
      result = first
        ? ((await this.run(image, faceRectFromMesh(first.image.map((p) => [p[0], p[1]])))) ?? first)
        : null;
    }
    this.rect = result ? faceRectFromMesh(result.image.map((p) => [p[0], p[1]])) : undefined;
    if (result && this.iris)
      result.iris = [
        ...(await this.eye(image, result.image, LEFT_EYE, false)),
        ...(await this.eye(image, result.image, RIGHT_EYE, true)),
      ];
    return result;
  }

  private async run(image: RgbImage, rect: Rect): Promise<FaceTrack | null> {
    const out = await this.mesh.run(warpToTensor(image, rect, FACE_SIZE, NORM_0_1, this.input));
    const score = toProbability(out.output_faceflag[0]);
    if (!(score >= FACE_FLAG_THRESHOLD)) return null;
    const mesh = out.output_mesh;
    const pts: Vec3[] = [];
    for (let k = 0; k < 468; k++) {
      const [x, y] = cropToImage(rect, FACE_SIZE, mesh[k * 3], mesh[k * 3 + 1]);
      pts.push([x, y, (mesh[k * 3 + 2] / FACE_SIZE) * rect.width]);
    }
    return { score, image: pts };
  }

  /** 5 iris points (centre first) of one eye, image pixels. */
  private async eye(
    image: RgbImage,
    mesh: Vec3[],
    corners: [number, number],
    mirror: boolean,
  ): Promise<Vec3[]> {
    const a: Point = [mesh[corners[0]][0], mesh[corners[0]][1]];
    const b: Point = [mesh[corners[1]][0], mesh[corners[1]][1]];
    // Corners are ordered image-left → image-right for an upright face, so the crop stays upright.
    const rotation = rotationBetween(a, b, 0);
    const width = Math.hypot(b[0] - a[0], b[1] - a[1]);
    const rect = transformRect(
      { cx: (a[0] + b[0]) / 2, cy: (a[1] + b[1]) / 2, width, height: width, rotation },
      2.3,
    );
    const out = Object.values(
      await this.iris!.run(warpToTensor(image, rect, IRIS_SIZE, NORM_0_1, this.irisInput, mirror)),
    )[0];
    const start = 71 * 3; // 71 eye-contour points come first, then 5 iris points
    const pts: Vec3[] = [];
    for (let k = 0; k < 5; k++) {
      const o = start + k * 3;
      const [x, y] = cropToImage(rect, IRIS_SIZE, out[o], out[o + 1], mirror);
      pts.push([x, y, (out[o + 2] / IRIS_SIZE) * rect.width]);
    }
    return pts;
  }
}
