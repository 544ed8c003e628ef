/**
 * The service container's shape: every feature slice's service, as routes see it (`app.ctx.services`).
 * Built once in `wiring.ts`.
 */
import type { AnimationService } from './modules/animation/service.ts';
import type { AuthService } from './modules/auth/service.ts';
import type { BlocklistService } from './modules/blocklist/service.ts';
import type { CatalogService } from './modules/catalog/service.ts';
import type { CoinService } from './modules/coins/service.ts';
import type { CommunityService } from './modules/community/service.ts';
import type { CompanyService } from './modules/company/service.ts';
import type { ConsoleService } from './modules/console/service.ts';
import type { FileService } from './modules/cos/service.ts';
import type { FileUploadService } from './modules/file/service.ts';
import type { CaptureJobs } from './modules/jobs/service.ts';
import type { MailboxService } from './modules/mailbox/service.ts';
import type { ModelService } from './modules/models/service.ts';
import type { MotionService } from './modules/motion/service.ts';
import type { MusicService } from './modules/music/service.ts';
import type { OrderService } from './modules/order/service.ts';
import type { BehaviorService } from './modules/pageview/service.ts';
import type { PayService } from './modules/pay/service.ts';
import type { RbacService } from './modules/rbac/service.ts';
import type { RetrackService } from './modules/retrack/service.ts';
import type { StatsService } from './modules/stats/service.ts';
import type { MachineService, NoticeService, SystemConfigService } from './modules/system/service.ts';
import type { TomokageService } from './modules/tomokage/service.ts';
import type { Scheduler } from './modules/user/scheduler.ts';
import type { AccountService } from './modules/user/service.ts';
import type { VideoService } from './modules/video/service.ts';

export interface Services {
  auth: AuthService;
  accounts: AccountService;
  coins: CoinService;
  catalog: CatalogService;
  notices: NoticeService;
  system: SystemConfigService;
  machines: MachineService;
  scheduler: Scheduler;
  videos: VideoService;
  motion: MotionService;
  /** "Re-track from here" jobs of the 2D repair editor (issue 23). */
  retrack: RetrackService;
  captureJobs: CaptureJobs;
  /** Music → dance cards and their jobs (issue 22). */
  music: MusicService;
  animation: AnimationService;
  /** Read credentials and the local-storage upload/download targets. */
  files: FileService;
  /** Orders and their fulfilment (issue 19). */
  orders: OrderService;
  /** WeChat Pay / Alipay flows over the providers of infra.payment. */
  pay: PayService;
  /** Administrator roles, menus and audit log (issue 21). */
  rbac: RbacService;
  /** Console video pages: every video, re-run, square, feedback, download history (issue 21). */
  console: ConsoleService;
  /** The /sysInfo reports (issue 21). */
  stats: StatsService;
  /** Capture models enabled and per plan (manageModel, issue 21). */
  models: ModelService;
  /** Blacklisted e-mail domains and IPs (the block page, issue 21). */
  blocklist: BlocklistService;
  /** Digital humans: uploaded characters driven by the user's motions (issue 24). */
  tomokage: TomokageService;
  /** Company accounts: e-mail notices, API keys, webhooks (issue 20). */
  company: CompanyService;
  /** General uploads (images, text) and signed downloads optionally as webp (issue 25). */
  uploads: FileUploadService;
  /** Page-view and action analytics and their report (issue 25). */
  behavior: BehaviorService;
  /** The sidebar's community panel (issue 25). */
  community: CommunityService;
  /** The sending mailbox exchanged through /tencent-email/exchange (issue 25). */
  mailbox: MailboxService;
}
