/** The tracks format (vision → solver) lives in `@mocap/contracts`; re-exported here for the vision modules. */
export {
  type FaceTrack,
  HAND_LANDMARKS,
  type HandTrack,
  type ImageLandmark,
  type ModelInfo,
  POSE_LANDMARKS,
  type PoseLandmarkName,
  type Roi,
  TRACKS_FORMAT,
  TRACKS_VERSION,
  type TrackFrame,
  type TrackState,
  type Tracks,
  type Vec3,
  type VideoMeta,
} from '@mocap/contracts';
