import type { ImageLandmark, ModelInfo, Roi, TrackFrame } from '@mocap/contracts';
import type { RgbImage } from './image/warp.ts';
import type { ModelName, PoseModel } from './models.ts';
import { modelSource } from './models.ts';
import { FaceTracker } from './pose/face.ts';
import { HAND_OUTPUTS, HandTracker } from './pose/hands.ts';
import { POSE_OUTPUTS } from './pose/landmarks.ts';
import { BodyTracker } from './pose/tracker.ts';
import { type Backend, createSession, type ModelSession } from './runtime/index.ts';

/**
 * Everything that runs on one frame: body tracking, then (optionally) both hands and the face, with the
 * sessions they need. One instance per thread; frames must be fed in order.
 */

export interface FrameTrackerOptions {
  model: PoseModel;
  hands: boolean;
  face: boolean;
  backend: Backend;
  /** onnxruntime intra-op threads per session. */
  threads?: number;
  handModel?: 'full' | 'lite';
}

export interface FrameInput extends RgbImage {
  index: number;
  time: number;
}

export function modelNames(opts: FrameTrackerOptions): {
  detector: ModelName;
  pose: ModelName;
  hands?: ModelName;
  face?: ModelName;
  iris?: ModelName;
} {
  return {
    detector: 'blazepose-detector',
    pose: `blazepose-${opts.model}`,
    ...(opts.hands ? { hands: `handlandmark-${opts.handModel ?? 'full'}` as ModelName } : {}),
    ...(opts.face ? { face: 'facemesh' as ModelName, iris: 'iris' as ModelName } : {}),
  };
}

const round = (v: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};

export class FrameTracker {
  private constructor(
    private readonly sessions: ModelSession[],
    private readonly body: BodyTracker,
    private readonly hands: { left: HandTracker; right: HandTracker } | undefined,
    private readonly face: FaceTracker | undefined,
    readonly models: Record<string, ModelInfo>,
  ) {}

  static async create(opts: FrameTrackerOptions): Promise<FrameTracker> {
    const names = modelNames(opts);
    const common = { backend: opts.backend, threads: opts.threads ?? 1 };
    const detector = await createSession(names.detector, common);
    const pose = await createSession(names.pose, { ...common, outputs: POSE_OUTPUTS });
    const sessions = [detector, pose];
    const info = (s: ModelSession): ModelInfo => ({
      name: s.model,
      source: modelSource(),
      sha256: s.sourceSha256,
    });
    const models: Record<string, ModelInfo> = { detector: info(detector), pose: info(pose) };
    let hands: { left: HandTracker; right: HandTracker } | undefined;
    let face: FaceTracker | undefined;
    if (names.hands) {
      const hand = await createSession(names.hands, { ...common, outputs: Object.values(HAND_OUTPUTS) });
      sessions.push(hand);
      models.hands = info(hand);
      hands = { left: new HandTracker(hand), right: new HandTracker(hand) };
    }
    if (names.face && names.iris) {
      const mesh = await createSession(names.face, {
        ...common,
        outputs: ['output_mesh', 'output_faceflag'],
      });
      const iris = await createSession(names.iris, common);
      sessions.push(mesh, iris);
      models.face = info(mesh);
      models.iris = info(iris);
      face = new FaceTracker(mesh, iris);
    }
    return new FrameTracker(sessions, new BodyTracker(detector, pose), hands, face, models);
  }

  /**
   * Runs every model once on a blank input: onnxruntime plans its memory and the kernels' code paths on the
   * first run (a first run of the heavy model takes several times a later one), so a job never pays for it.
   */
  async warmUp(): Promise<void> {
    for (const s of this.sessions) await s.run(new Float32Array(s.inputShape.reduce((a, b) => a * b, 1)));
  }

  /** Forgets all tracking state (before a range that does not continue the previous one). */
  reset(): void {
    this.body.reset();
    this.hands?.left.reset();
    this.hands?.right.reset();
    this.face?.reset();
  }

  /** Seeds body tracking with a region (in the coordinates of the frames that will be fed). */
  seed(roi: Roi, index: number): void {
    this.body.seed(roi, index);
  }

  /**
   * Tracks frames that came before `seed` (the region the person was found in at the frame after the
   * last of them), newest first, and stops at the first frame where the person is not recognised. Used to
   * fill a gap backwards once the person has been re-acquired; the forward tracking state is kept.
   * Returns the frames tracked, newest first.
   */
  async trackBackwards(frames: FrameInput[], seed: Roi, seedIndex: number, scale = 1): Promise<TrackFrame[]> {
    const saved = {
      body: this.body.snapshot(),
      hands: this.hands && [this.hands.left.snapshot(), this.hands.right.snapshot()],
      face: this.face?.snapshot(),
    };
    const out: TrackFrame[] = [];
    try {
      this.body.seed(seed, seedIndex);
      this.hands?.left.reset();
      this.hands?.right.reset();
      this.face?.reset();
      // Time runs backwards here: count it down from past the newest frame so the region filters see it
      // increase (and stay positive, as MediaPipe's filters expect).
      const end = frames.length > 0 ? frames[frames.length - 1].time + 1 : 0;
      for (let k = frames.length - 1; k >= 0; k--) {
        const f = frames[k];
        const tf = await this.track({ ...f, time: end - f.time }, scale, true);
        if (tf.state === 'lost') break;
        out.push({ ...tf, time: round(f.time, 6) });
      }
    } finally {
      this.body.restore(saved.body);
      if (this.hands && saved.hands) {
        this.hands.left.restore(saved.hands[0]);
        this.hands.right.restore(saved.hands[1]);
      }
      this.face?.restore(saved.face);
    }
    return out;
  }

  /** Last region where the main person was seen, in the coordinates of the frames fed. */
  lastSeen(): { roi: Roi; index: number } | undefined {
    return this.body.state.last;
  }

  /**
   * Tracks one frame. `scale` converts the frame's pixels to the video's full-resolution pixels
   * (frames may be downscaled for inference); all outputs are in full-resolution pixels. `trackOnly`
   * follows the current region without falling back to the detector.
   */
  async track(frame: FrameInput, scale = 1, trackOnly = false): Promise<TrackFrame> {
    const result = await this.body.process(frame, frame.index, frame.time, trackOnly);
    const out: TrackFrame = { index: frame.index, time: round(frame.time, 6), state: result.state, score: 0 };
    const pose = result.pose;
    if (pose && result.roi) {
      out.score = round(pose.flag, 4);
      out.roi = {
        cx: round(result.roi.cx * scale, 2),
        cy: round(result.roi.cy * scale, 2),
        size: round(result.roi.size * scale, 2),
        rotation: round(result.roi.rotation, 5),
      };
      out.image = pose.image.map(
        ([x, y, z, v, p]) =>
          [
            round(x * scale, 2),
            round(y * scale, 2),
            round(z * scale, 2),
            round(v, 4),
            round(p, 4),
          ] as ImageLandmark,
      );
      out.world = pose.world.map(([x, y, z]) => [round(x, 5), round(y, 5), round(z, 5)]);
    }
    if (this.hands) {
      const scaled = (h: Awaited<ReturnType<HandTracker['process']>>) =>
        h && {
          score: round(h.score, 4),
          handedness: round(h.handedness, 4),
          image: h.image.map(
            ([x, y, z]) =>
              [round(x * scale, 2), round(y * scale, 2), round(z * scale, 2)] as [number, number, number],
          ),
          world: h.world.map(
            ([x, y, z]) => [round(x, 5), round(y, 5), round(z, 5)] as [number, number, number],
          ),
        };
      out.hands = {
        left: scaled(await this.hands.left.process(frame, pose?.image, 'left')),
        right: scaled(await this.hands.right.process(frame, pose?.image, 'right')),
      };
    }
    if (this.face) {
      const f = await this.face.process(frame, pose?.image);
      const px = (pts: [number, number, number][]) =>
        pts.map(
          ([x, y, z]) =>
            [round(x * scale, 2), round(y * scale, 2), round(z * scale, 2)] as [number, number, number],
        );
      out.face = f && {
        score: round(f.score, 4),
        image: px(f.image),
        ...(f.iris ? { iris: px(f.iris) } : {}),
      };
    }
    return out;
  }

  async dispose(): Promise<void> {
    await Promise.all(this.sessions.map((s) => s.dispose()));
  }
}
