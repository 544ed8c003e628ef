/**
 * @mocap/server front door: config, infrastructure, services, the app factory and the typed errors. The worker
 * (`@mocap/worker`) starts from `loadConfig` + `createInfra` + `createServices` like the server does.
 */
export {
  API_PREFIX,
  type AppDeps,
  buildApp,
  WEB_PREFIX,
} from './app.ts';
export {
  type Config,
  ConfigError,
  ConfigSchema,
  loadConfig,
  loadConfigOrExit,
} from './config.ts';
export {
  AppError,
  type Code,
  Codes,
  DefaultMessages,
  httpStatusOf,
  isAppError,
  Messages,
} from './errors.ts';
export type { AppContext } from './http/context.ts';
export {
  bearerSecurity,
  bearerToken,
  requireAdmin,
  requireCompany,
  requireUser,
  userOf,
} from './http/context.ts';
export {
  envelope,
  ok,
  pageOf,
} from './http/envelope.ts';
export {
  createArgon2Hasher,
  createRsaTransport,
} from './infra/crypto/index.ts';
export {
  createDatabase,
  type Database,
  listMigrations,
  migrateToLatest,
} from './infra/db/index.ts';
export {
  createOutboxMailer,
  type OutboxMail,
  readOutbox,
} from './infra/mail/index.ts';
// Storage, queue, videos, motion downloads and capture jobs (S2).
export {
  BullQueue,
  type BullQueueOptions,
  createQueue,
  DbQueue,
  type DbQueueOptions,
  type QueueConfig,
  type QueueJobsTable,
} from './infra/queue/index.ts';
export { createMemoryRateLimiter } from './infra/ratelimit.ts';
export {
  checkKey,
  createStorage,
  type DownloadTokenPayload,
  LocalStorage,
  type LocalStorageOptions,
  localStorageRoot,
  type ObjectInfo,
  type ObjectStorage,
  type PutOptions,
  S3Storage,
  type S3StorageOptions,
  type SignedTokens,
  type SignedUrlOptions,
  type StorageConfig,
  StorageGrantError,
  StorageNotFoundError,
  StorageTooLargeError,
  StsClient,
  StsError,
  sign,
  TokenError,
  type UploadCredentials,
  type UploadGrant,
  type UploadGrantOptions,
  verify,
} from './infra/storage/index.ts';
export {
  STALE_TMP_MS,
  startTmpSweeper,
  sweepTmp,
} from './infra/tmp.ts';
export {
  type AnimationExportSource,
  type AnimationZipJobData,
  animationZipKey,
} from './modules/animation/ports.ts';
export { AnimationService } from './modules/animation/service.ts';
export {
  AuthService,
  hashToken,
  isAdmin,
  rolesOf,
} from './modules/auth/service.ts';
export { CatalogService } from './modules/catalog/service.ts';
export { CoinService, monthKey, Reasons } from './modules/coins/service.ts';
export {
  CAPTURE_QUEUE,
  type CaptureJobData,
  CaptureJobs,
  type CaptureMode,
  captureJobId,
  JOB_ATTEMPTS,
  type JobVideo,
  runChargeRef,
  sourceKeyOf,
} from './modules/jobs/service.ts';
export {
  EXPORT_QUEUE,
  type ExportJobData,
  type LowerBodyJobData,
  lowerBodyJobId,
  lowerBodyKey,
} from './modules/motion/ports.ts';
export { MotionService } from './modules/motion/service.ts';
export {
  type AudioFilePort,
  MUSIC_QUEUE,
  MUSIC_STATUS_NAMES,
  type MusicJobData,
  type MusicOutputs,
  type MusicPatch,
  type MusicRecord,
  type MusicRepo,
  MusicStatus,
  type MusicStatusCode,
  musicJobId,
  type NewMusic,
  type ProbedAudio,
} from './modules/music/ports.ts';
export {
  createMusicStore,
  type MusicStore,
} from './modules/music/repo.ts';
export {
  FREE_REDONES,
  MusicMessages,
  MusicService,
  type MusicView,
  musicView,
} from './modules/music/service.ts';
export { RETRACK_QUEUE, type RetrackJobData, RetrackService } from './modules/retrack/service.ts';
export {
  type Heartbeat,
  MachineService,
  NoticeService,
  SystemConfigService,
} from './modules/system/service.ts';
export { Scheduler } from './modules/user/scheduler.ts';
export {
  AccountService,
  CodeTypes,
  effectiveLevel,
  toUserView,
  type UserView,
} from './modules/user/service.ts';
export {
  BONE_TYPE_FORMAT,
  captureAllowed,
  type FormatFamily,
  formatAllowed,
  MAX_DIMENSION,
  MAX_SOURCE_FPS,
  MB,
  PLAN_LIMITS,
  type Plan,
  type PlanLimits,
  planOf,
  SPEC_BONE_TYPES,
  TRACK_MAX_FPS,
  UploadMessages,
} from './modules/video/limits.ts';
export {
  CAPTURE_TYPES,
  type CaptureType,
  type DownloadRecord,
  type FilePort,
  type NewVideo,
  type ProbedFile,
  STATUS_NAMES,
  type StoredZip,
  type VideoListItem,
  type VideoOutputs,
  type VideoPatch,
  type VideoQuery,
  type VideoRecord,
  type VideoRepo,
  VideoStatus,
  type VideoStatusCode,
} from './modules/video/ports.ts';
export {
  VideoService,
  type VideoView,
} from './modules/video/service.ts';
export {
  createVideoStore,
  type VideoRepos,
  type VideoStore,
} from './modules/video/store.ts';
export {
  ACCOUNT_COMPANY,
  ACCOUNT_INDIVIDUAL,
  backoffDelay,
  type Category,
  type CategoryKind,
  type CategoryRepo,
  type Clock,
  type CodeRecord,
  type CodeRepo,
  type Currency,
  type EnqueueOptions,
  type ExternalIdentity,
  errorText,
  type GrantRepo,
  type IdentityBinding,
  type IdentityRepo,
  isPermanent,
  type JobContext,
  type JobHandler,
  type JobInfo,
  type JobQueue,
  type JobState,
  LEVELS,
  type LedgerEntry,
  type LedgerQuery,
  type LedgerRepo,
  type Level,
  type Machine,
  type MachineRepo,
  type Mailer,
  type MailMessage,
  type NewUser,
  type Notice,
  type NoticeInput,
  type NoticeRepo,
  type OAuthProvider,
  type Page,
  type PasswordHasher,
  type PasswordTransport,
  type PendingAuthorization,
  PermanentJobError,
  PRIORITY_RANK,
  type Priority,
  type ProcessOptions,
  type QueueEvent,
  type QueueWorker,
  type RateLimiter,
  type Repos,
  type ScheduledRunRepo,
  type SecretRepo,
  type Session,
  type Store,
  type SysConfigRepo,
  systemClock,
  type TokenRepo,
  type UserPatch,
  type UserRecord,
  type UserRepo,
  type UserSearch,
} from './ports.ts';
export {
  createRepos,
  createStore,
} from './store.ts';
export {
  createCaptureJobs,
  createInfra,
  createServices,
  type Infra,
  type InfraOverrides,
  type Secrets,
  type Services,
} from './wiring.ts';
