/**
 * @mocap/testkit: what tests and benches use and the product never ships — synthetic BlazePose tracks from motion
 * capture (with the truth) and the accuracy metrics against it. Imported by tests, benches and training scripts only.
 */
import * as synthetic from './synthetic.ts';

export {
  clipBoneStd,
  clipLandmarks,
  conventionOf,
  landmarkMetrics,
  type Metrics,
  mulberry32,
  noisyLandmarks,
  type SyntheticClip,
  type SyntheticOptions,
  synthesize,
  type Truth,
  truthMetrics,
  unitScaleOf,
} from './synthetic.ts';
export { quaterniusVrmBones, vrmFromGlb } from './vrm.ts';
/** The same functions as one namespace (`synthetic.synthesize(...)`), as benches and tests call them. */
export { synthetic };
