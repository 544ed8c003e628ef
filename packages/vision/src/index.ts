/**
 * @mocap/vision — the first stage of the capture path: `video → frames → tracks`.
 */

// The tracks document this stage produces (its types live in @mocap/contracts: import the rest from there).
export {
  type FaceTrack,
  type HandTrack,
  TRACKS_FORMAT,
  type TrackFrame,
  type Tracks,
} from '@mocap/contracts';
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
  convertTrackingModels,
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
export {
  createOverlayWriter,
  type DecodeImageOptions,
  type DecodeOptions,
  type DrawOptions,
  decodeFrames,
  decodeImage,
  drawTrackFrame,
  ensureExecutable,
  type FfmpegCapabilities,
  type Frame,
  ffmpegCapabilities,
  ffmpegPath,
  ffprobePath,
  findOnPath,
  HAND_CONNECTIONS,
  isVideoError,
  OVERLAY_COLORS,
  type OverlayWriter,
  type OverlayWriterOptions,
  outputSize,
  overlayMetrics,
  POSE_CONNECTIONS,
  type ProbeOptions,
  probeVideo,
  type Rgb,
  type Rotation,
  type RunOptions,
  type RunResult,
  readFrameAt,
  run,
  toVideoMeta,
  VIDEO_ERROR_CODES,
  VISIBILITY_THRESHOLD,
  VideoError,
  type VideoErrorCode,
  type VideoInfo,
} from './video/index.ts';
