/**
 * @mocap/vision — the first stage of the capture path: `video → frames → tracks`.
 */

export { cacheDir, convertCached } from './convert/cache.ts';
export {
  CONVERTER_VERSION,
  type ConvertOptions,
  convertTfjsToOnnx,
  SUPPORTED_OPS,
  UnsupportedOpError,
} from './convert/converter.ts';
export { readTfjsModel, type TfjsModel } from './convert/tfjs-graph.ts';
export { FrameTracker, type FrameTrackerOptions } from './frame-tracker.ts';
export { cropToImage, letterbox, type Rect, type RgbImage, warpToTensor } from './image/warp.ts';
export { MODEL_NAMES, type ModelName, modelJsonPath, modelSource, type PoseModel } from './models.ts';
export {
  closeTrackingPool,
  DEFAULT_INFERENCE_WIDTH,
  type TrackVideoOptions,
  trackingPoolCounts,
  trackProbedVideo,
  trackVideo,
  warmUpTracking,
} from './pipeline.ts';
export { decodeDetections, detectPeople, type PersonDetection, roiFromKeypoints } from './pose/detector.ts';
export { decodePose, estimatePose, POSE_OUTPUTS, type PoseResult } from './pose/landmarks.ts';
export { BodyTracker, pickMainPerson } from './pose/tracker.ts';
export {
  type PosePoint,
  type RetrackOptions,
  type RetrackResult,
  retrackFrom,
  roiFromPose,
} from './retrack.ts';
export { type Backend, createSession, type ModelSession, type SessionOptions } from './runtime/index.ts';
export * from './tracks.ts';
export * from './video/index.ts';
