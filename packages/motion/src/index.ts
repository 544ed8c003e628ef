/**
 * @mocap/motion: `tracks → solved MotionClip → retargeted clip → file bytes`. The package's single front door.
 */
export {
  CHARACTER_KINDS,
  type CharacterKind,
  type CharacterOptions,
  characterTexture,
  characterTextures,
  makeCharacter,
  makeCharacterGlb,
  makeFaceMesh,
} from './characters/index.ts';
export {
  ARKIT_BLENDSHAPES,
  type ArkitBlendshape,
  type BlendshapeCurves,
  type ClipMetadata,
  childrenOf,
  type FootContacts,
  forwardKinematics,
  identityRotations,
  jointCount,
  jointIndex,
  localRotation,
  type MotionClip,
  nearestStandardFps,
  pointInJoint,
  poseToWorld,
  resampleClip,
  resampledFrameCount,
  restClip,
  restPositions,
  type Skeleton,
  STANDARD_FPS,
  validateClip,
  validateSkeleton,
  type WorldPose,
} from './clip.ts';
export {
  BONE_TYPE_FORMAT,
  BONE_TYPES,
  type BoneType,
  EXPORT_FORMATS,
  type ExportedFile,
  type ExportFormat,
  type ExportOptions,
  exportBoneType,
  exportFormat,
  exportFps,
  type FormatFamily,
  isBoneType,
} from './export/index.ts';
export { BONE_TYPE_INFO, type BoneTypeInfo } from './export/readme.ts';
export * as unityAnim from './formats/anim.ts';
export * as bvh from './formats/bvh.ts';
export { crc32 } from './formats/bytes.ts';
export * as csm from './formats/csm.ts';
export * as faceCurves from './formats/face.ts';
export * as fbx from './formats/fbx.ts';
export * as gltf from './formats/gltf.ts';
export * as motionJson from './formats/json.ts';
export * as png from './formats/png.ts';
export * as vmd from './formats/vmd.ts';
export * as vrma from './formats/vrma.ts';
export { type ZipEntry, zip } from './formats/zip.ts';
export type { EulerOrder, Quat, Vec3 } from './math.ts';
export * as math from './math.ts';
export { mulberry32 } from './random.ts';
export { canonicalWorld, retarget, rigWorldPositions } from './retarget/index.ts';
export {
  buildRig,
  canonicalToRig,
  RIG_IDS,
  RIG_TEMPLATES,
  type RigId,
  type RigTemplate,
  rigToCanonical,
} from './rigs/index.ts';
export type {
  BoneRole,
  Character,
  MeshMaterial,
  MorphTarget,
  RetargetOptions,
  Rig,
  RigAxes,
  RigBone,
  RigClip,
  RootMotionConvention,
  SignedAxis,
  SkinnedMesh,
  TextureImage,
} from './rigs/types.ts';
export {
  BODY_JOINTS,
  type BodyProportions,
  createSkeleton,
  DEFAULT_PROPORTIONS,
  FINGER_GEOMETRY,
  FINGERS,
  type Finger,
  fingerJointNames,
  hasFingers,
  SIDES,
  type Side,
  type SkeletonOptions,
  scaleProportions,
  standingHeight,
} from './skeleton.ts';
export { DEFAULT_FOV_DEG } from './solver/camera.ts';
export { SUPPORTED_BLENDSHAPES } from './solver/face.ts';
export { lowestFootHeight } from './solver/ground.ts';
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
export { LM, NUM_LANDMARKS } from './solver/input.ts';
export { type BodyModel, predictLandmarks } from './solver/model.ts';
