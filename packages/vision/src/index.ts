/**
 * @mocap/vision — the first stage of the capture path: `video → frames → tracks`.
 */
export * from './tracks.ts';
export * from './video/index.ts';
export { trackVideo, trackProbedVideo, DEFAULT_INFERENCE_WIDTH, type TrackVideoOptions } from './pipeline.ts';
export { FrameTracker, type FrameTrackerOptions } from './frame-tracker.ts';
export { createSession, type Backend, type ModelSession, type SessionOptions } from './runtime/index.ts';
export { convertTfjsToOnnx, UnsupportedOpError, SUPPORTED_OPS, CONVERTER_VERSION, type ConvertOptions } from './convert/converter.ts';
export { readTfjsModel, type TfjsModel } from './convert/tfjs-graph.ts';
export { convertCached, cacheDir } from './convert/cache.ts';
export { MODEL_NAMES, modelJsonPath, modelSource, type ModelName, type PoseModel } from './models.ts';
export { detectPeople, decodeDetections, roiFromKeypoints, type PersonDetection } from './pose/detector.ts';
export { estimatePose, decodePose, POSE_OUTPUTS, type PoseResult } from './pose/landmarks.ts';
export { BodyTracker, pickMainPerson } from './pose/tracker.ts';
export { warpToTensor, cropToImage, letterbox, type RgbImage, type Rect } from './image/warp.ts';
