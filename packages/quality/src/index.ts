/**
 * @mocap/quality: rendered videos with known motion, the metrics that compare a capture with the truth
 * (and the no-ground-truth ones for real clips), and the report of `npm run bench -- quality`.
 */
export {
  ANGLES,
  BONES,
  BVH_ROLES,
  CANONICAL_OF,
  EVAL_JOINTS,
  type EvalJoint,
  type GtPoint,
  JOINT_LABEL,
  jointIndexOf,
  LANDMARKS_OF,
  RECORDED_JOINTS,
  type RecordedJoint,
  RIGS,
  type RigDefinition,
  type RigName,
  type Role,
} from './correspondence.ts';
export {
  cameraToWorld,
  fitTranslation,
  fitWorldToCamera,
  type RawEstimate,
  rawFromTracks,
  solvedJoints,
  solvedToCamera,
} from './estimates.ts';
export {
  applyRt,
  ensureRendered,
  footContacts,
  type GroundTruth,
  groundTruth,
  type RenderedClip,
  renderKey,
  viewToExtrinsics,
} from './gt.ts';
// The metrics, every one of them (definitions in metrics.ts's header).
export * from './metrics.ts';
export {
  armFromTrunkDeg,
  evaluatePose2Sim,
  type Pose2SimCamera,
  type Pose2SimResult,
  parseCalibration,
  parseTrc,
  rodrigues,
  triangulateTrial,
} from './pose2sim.ts';
export {
  CHROMIUM_PATH,
  type CharacterInspection,
  type PageSpec,
  type RenderedFrames,
  Renderer,
  type SetupInfo,
} from './render.ts';
export {
  aggregate,
  bodyImageHeight,
  type ClipResult,
  clipMarkdown,
  compareMarkdown,
  compareSummaries,
  evaluateReal,
  evaluateRendered,
  feetOnFloor,
  GT_METRICS,
  METRICS,
  type MetricKey,
  type MetricRow,
  metricTable,
  NO_GT_METRICS,
  type Summary,
  summarize,
  summaryMarkdown,
  targetLines,
} from './report.ts';
export {
  CAMERAS,
  type CameraName,
  type CameraSetup,
  CHARACTERS,
  type Character,
  type CharacterName,
  CLIPS,
  type ClipDef,
  FPS,
  HEIGHT,
  type Motion,
  type MotionKind,
  pageSpec,
  WIDTH,
} from './scenes.ts';
export { type RenderServer, startRenderServer } from './server.ts';
export type { SolvedInput } from './solved.ts';
