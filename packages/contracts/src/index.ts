/**
 * @mocap/contracts: the one typed contract from the browser to the writer — bone types and their formats, plan
 * limits, prices, error codes and messages, the tracks format, and the zod schemas of the API's requests and
 * responses that the server validates with and the web app types its calls from. Browser-safe: zod only.
 */

export {
  type LedgerEntry,
  LedgerEntrySchema,
  LevelSchema,
  type UserDetail,
  UserDetailSchema,
  type UserView,
  UserViewSchema,
} from './account.ts';
export {
  BONE_TYPE_FORMAT,
  BONE_TYPES,
  type BoneType,
  BoneTypeSchema,
  type FormatFamily,
  isBoneType,
} from './bone-types.ts';
export {
  type Access,
  AccessSchema,
  type AuditEntry,
  AuditSchema,
  AuditSearchBody,
  type Briefing,
  BriefingSchema,
  type DownloadEntry,
  DownloadSchema,
  type Extension,
  ExtensionSchema,
  type Invoice,
  InvoiceSchema,
  type Machine,
  type MachineMeta,
  MachineSchema,
  type MachineView,
  MachineViewSchema,
  type Menu,
  MenuSaveBody,
  MenuSchema,
  type ModelList,
  ModelListSchema,
  type ModelSettings,
  ModelSettingsSchema,
  type MyPage,
  MyPageSchema,
  type Notice,
  NoticeSchema,
  PageGrantSchema,
  PeriodBody,
  type Role,
  RoleSaveBody,
  RoleSchema,
  type VideoAdmin,
  VideoAdminSchema,
} from './console.ts';
export { type Code, Codes, DefaultMessages, envelopeOf, Messages } from './errors.ts';
export {
  formatAllowed,
  type PersonalPlan,
  PLAN_LIMITS,
  type Plan,
  type PlanLimits,
  TITLE_MAX,
} from './plans.ts';
export {
  companyUploadCost,
  Prices,
  referralReward,
  remakeCost,
  squareDownloadCost,
  uploadCost,
} from './prices.ts';
export {
  DEFAULT_SOLVE_OPTIONS,
  FOOT_LOCK_MODES,
  type FootLockMode,
  HEIGHT_RANGE,
  type SolveOptions,
} from './solve-options.ts';
export { type BoneTypeInfo, BoneTypeInfoSchema, type MaintainInfo, MaintainInfoSchema } from './system.ts';
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
} from './tracks.ts';
