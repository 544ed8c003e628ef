import type { HandTrack, ImageLandmark, Vec3 } from '@mocap/contracts';
import { cropToImage, NORM_0_1, type Rect, type RgbImage, warpToTensor } from '../image/warp.ts';
import type { ModelSession } from '../runtime/session.ts';
import { type Point, RegionTracker, rotatedBounds, rotationBetween, transformRect } from './regions.ts';

/**
 * Hand landmarks (`handlandmark-full|lite`, 224×224) on crops derived from the body pose: each wrist with
 * its index and pinky knuckles gives a first region; once the hand is found, the next frame's region comes
 * from the hand's own landmarks (MediaPipe's hand tracking). Left/right come from the body's wrists.
 */

export const HAND_SIZE = 224;
export const HAND_OUTPUTS = {
  landmarks: 'Identity:0',
  flag: 'Identity_1:0',
  handedness: 'Identity_2:0',
  world: 'Identity_3:0',
};
const HAND_FLAG_THRESHOLD = 0.5;
/** Palm landmarks used for the tracking region (wrist, thumb base, finger bases). */
const PALM = [0, 1, 2, 3, 5, 6, 9, 10, 13, 14, 17, 18];

/** Region from the body pose: wrist, pinky knuckle, index knuckle (image pixels). */
export function handRectFromPose(wrist: Point, pinky: Point, index: Point): Rect {
  const middle: Point = [(2 * index[0] + pinky[0]) / 3, (2 * index[1] + pinky[1]) / 3];
  const boxSize = Math.hypot(middle[0] - wrist[0], middle[1] - wrist[1]) * 2;
  const rotation = rotationBetween(wrist, middle, Math.PI / 2);
  return transformRect(
    { cx: middle[0], cy: middle[1], width: boxSize, height: boxSize, rotation },
    2.7,
    0,
    -0.1,
  );
}

/** Region from a hand's 21 landmarks (image pixels). */
export function handRectFromLandmarks(points: Point[]): Rect {
  const wrist = points[0];
  const x1 = ((points[5][0] + points[13][0]) / 2 + points[9][0]) / 2;
  const y1 = ((points[5][1] + points[13][1]) / 2 + points[9][1]) / 2;
  const rotation = rotationBetween(wrist, [x1, y1], Math.PI / 2);
  const bounds = rotatedBounds(
    PALM.map((i) => points[i]),
    rotation,
  );
  return transformRect(bounds, 2.0, 0, -0.1);
}

export class HandTracker extends RegionTracker {
  private readonly input = new Float32Array(HAND_SIZE * HAND_SIZE * 3);

  constructor(private readonly session: ModelSession) {
    super();
  }

  /** `pose` = body image landmarks (pixels); `side` picks wrist 15/16, pinky 17/18, index 19/20. */
  async process(
    image: RgbImage,
    pose: ImageLandmark[] | undefined,
    side: 'left' | 'right',
  ): Promise<HandTrack | null> {
    const o = side === 'left' ? 0 : 1;
    const wrist = pose?.[15 + o];
    const fromPose =
      pose && wrist && wrist[3] > 0.3
        ? handRectFromPose(
            [wrist[0], wrist[1]],
            [pose[17 + o][0], pose[17 + o][1]],
            [pose[19 + o][0], pose[19 + o][1]],
          )
        : undefined;
    // Keep tracking from the hand's own landmarks unless the body's wrist moved away from that region.
    let rect = this.rect;
    if (rect && fromPose && Math.hypot(rect.cx - fromPose.cx, rect.cy - fromPose.cy) > rect.width * 0.6)
      rect = undefined;
    let result = rect ? await this.run(image, rect) : null;
    if (!result && fromPose) {
      const first = await this.run(image, fromPose);
      // A second pass on the region the first pass found tightens the crop.
      result = first
        ? ((await this.run(image, handRectFromLandmarks(first.image.map((p) => [p[0], p[1]])))) ?? first)
        : null;
    }
    this.rect = result ? handRectFromLandmarks(result.image.map((p) => [p[0], p[1]])) : undefined;
    return result;
  }

  private async run(image: RgbImage, rect: Rect): Promise<HandTrack | null> {
    const out = await this.session.run(warpToTensor(image, rect, HAND_SIZE, NORM_0_1, this.input));
    const score = out[HAND_OUTPUTS.flag][0];
    if (!(score >= HAND_FLAG_THRESHOLD)) return null;
    const lm = out[HAND_OUTPUTS.landmarks];
    const wd = out[HAND_OUTPUTS.world];
    const cos = Math.cos(rect.rotation);
    const sin = Math.sin(rect.rotation);
    const imagePts: Vec3[] = [];
    const world: Vec3[] = [];
    for (let k = 0; k < 21; k++) {
      const [x, y] = cropToImage(rect, HAND_SIZE, lm[k * 3], lm[k * 3 + 1]);
      imagePts.push([x, y, (lm[k * 3 + 2] / HAND_SIZE) * rect.width]);
      world.push([
        cos * wd[k * 3] - sin * wd[k * 3 + 1],
        sin * wd[k * 3] + cos * wd[k * 3 + 1],
        wd[k * 3 + 2],
      ]);
    }
    return { score, handedness: out[HAND_OUTPUTS.handedness][0], image: imagePts, world };
  }
}
