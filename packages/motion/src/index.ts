/**
 * @mocap/motion: `tracks → solved MotionClip → retargeted clip → file bytes`. The package's single front door.
 */
export * from './clip.ts';
export * as bvh from './formats/bvh.ts';
export * as motionJson from './formats/json.ts';
export type { EulerOrder, Quat, Vec3 } from './math.ts';
export * as math from './math.ts';
export * from './skeleton.ts';
export { DEFAULT_FOV_DEG } from './solver/camera.ts';
export { SUPPORTED_BLENDSHAPES } from './solver/face.ts';
export {
  type FootLockMode,
  landmarkSmoothingScale,
  type SolveDetails,
  type SolveOptions,
  type SolveProgress,
  smoothingCutoff,
  solve,
  solveDetailed,
} from './solver/index.ts';
export { type BodyModel, predictLandmarks } from './solver/model.ts';
export * as synthetic from './synthetic.ts';
