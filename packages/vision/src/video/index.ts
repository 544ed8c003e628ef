/** Video input layer: locate ffmpeg, probe files, stream frames, render overlays. */
export type { DecodeImageOptions, DecodeOptions, Frame } from './decode.ts';
export { decodeFrames, decodeImage, outputSize, readFrameAt } from './decode.ts';
export type { VideoErrorCode } from './errors.ts';
export { isVideoError, VIDEO_ERROR_CODES, VideoError } from './errors.ts';
export type { FfmpegCapabilities, RunOptions, RunResult } from './ffmpeg.ts';
export { ensureExecutable, ffmpegCapabilities, ffmpegPath, ffprobePath, findOnPath, run } from './ffmpeg.ts';
export type { DrawOptions, OverlayWriter, OverlayWriterOptions, Rgb } from './overlay.ts';
export {
  createOverlayWriter,
  drawTrackFrame,
  HAND_CONNECTIONS,
  OVERLAY_COLORS,
  overlayMetrics,
  POSE_CONNECTIONS,
  VISIBILITY_THRESHOLD,
} from './overlay.ts';
export type { ProbeOptions, Rotation, VideoInfo } from './probe.ts';
export { probeVideo, toVideoMeta } from './probe.ts';
