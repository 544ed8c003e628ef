/**
 * @mocap/server front door: config, infrastructure, services, the app factory and the typed errors. The worker
 * (`@mocap/worker`) starts from `loadConfig` + `createInfra` + `createServices` like the server does.
 */
export { API_PREFIX, type AppDeps, buildApp, WEB_PREFIX } from './app.ts';
export { type Config, ConfigError, ConfigSchema, loadConfig } from './config.ts';
export { AppError, type Code, Codes, DefaultMessages, httpStatusOf, isAppError, Messages } from './errors.ts';
export type { AppContext } from './http/context.ts';
export {
  bearerSecurity,
  bearerToken,
  requireAdmin,
  requireCompany,
  requireUser,
  userOf,
} from './http/context.ts';
export { envelope, ok, pageOf } from './http/envelope.ts';
export { createArgon2Hasher, createRsaTransport } from './infra/crypto/index.ts';
export { createDatabase, type Database, listMigrations, migrateToLatest } from './infra/db/index.ts';
export { createInfra, type Infra, type InfraOverrides, type Secrets } from './infra/index.ts';
export { createOutboxMailer, type OutboxMail, readOutbox } from './infra/mail/index.ts';
// Storage, queue, videos, motion downloads and capture jobs (S2).
export * from './infra/queue/index.ts';
export { createMemoryRateLimiter } from './infra/ratelimit.ts';
export * from './infra/storage/index.ts';
export { STALE_TMP_MS, startTmpSweeper, sweepTmp } from './infra/tmp.ts';
export * from './modules/jobs/index.ts';
export { MotionService } from './modules/motion/service.ts';
export { createMusicStore, type MusicStore } from './modules/music/repo.ts';
export * from './modules/music/service.ts';
export { RETRACK_QUEUE, type RetrackJobData, RetrackService } from './modules/retrack/service.ts';
export * from './modules/video/limits.ts';
export * from './modules/video/ports.ts';
export { type FilePort, type ProbedFile, VideoService, type VideoView } from './modules/video/service.ts';
export { createVideoStore, type VideoRepos, type VideoStore } from './modules/video/store.ts';
export { createRepos, createStore } from './repos/index.ts';
export { AccountService, CodeTypes, effectiveLevel, toUserView, type UserView } from './services/accounts.ts';
export { AuthService, hashToken, isAdmin, rolesOf } from './services/auth.ts';
export {
  CoinService,
  companyUploadCost,
  monthKey,
  Prices,
  Reasons,
  referralReward,
  remakeCost,
  squareDownloadCost,
  uploadCost,
} from './services/coins.ts';
export { createServices, type Services } from './services/index.ts';
export {
  CatalogService,
  type Heartbeat,
  MachineService,
  NoticeService,
  SystemConfigService,
} from './services/platform.ts';
export * from './services/ports.ts';
export { Scheduler } from './services/scheduler.ts';
