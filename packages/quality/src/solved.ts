import type { BodyModel, MotionClip } from '@mocap/motion';

/** What the evaluations read of a solve (`solveDetailed`'s result fits). */
export interface SolvedInput {
  clip: MotionClip;
  rootCamera: ArrayLike<number>;
  /** The solver's world → camera transform, when it states one (reprojection without a fitted rotation). */
  cameraFromWorld?: { rotation: [number, number, number, number]; translation: [number, number, number] };
  /** The solver's body model (sole points for the feet-on-floor figure). */
  model?: BodyModel;
}
