/**
 * The service container: every service built once from the infrastructure. S2 adds its services here.
 */

import { join } from 'node:path';
import type { Infra } from '../infra/index.ts';
import { createOidcProvider } from '../infra/oauth/oidc.ts';
import { createAnimationAssets } from '../modules/animation/files.ts';
import { createAnimationStore } from '../modules/animation/repo.ts';
import { AnimationService } from '../modules/animation/service.ts';
import { KyselyBlocklistRepo } from '../modules/blocklist/repo.ts';
import { BlocklistService } from '../modules/blocklist/service.ts';
import { fetchPoster } from '../modules/company/poster.ts';
import { KyselyCompanyRepo } from '../modules/company/repo.ts';
import { CompanyService, type WebhookPoster } from '../modules/company/service.ts';
import { KyselyConsoleRepo } from '../modules/console/repo.ts';
import { ConsoleService } from '../modules/console/service.ts';
import { type CaptureJobs, createCaptureJobs } from '../modules/jobs/index.ts';
import { KyselyModelRepo } from '../modules/models/repo.ts';
import { ModelService } from '../modules/models/service.ts';
import { MotionService } from '../modules/motion/service.ts';
import { createAudioFilePort } from '../modules/music/files.ts';
import { createMusicStore } from '../modules/music/repo.ts';
import { MUSIC_QUEUE, type MusicJobData, MusicService } from '../modules/music/service.ts';
import { createPayServices, type OrderService, type PayService } from '../modules/pay/index.ts';
import { KyselyRbacRepo } from '../modules/rbac/repo.ts';
import { RbacService } from '../modules/rbac/service.ts';
import { RETRACK_QUEUE, type RetrackJobData, RetrackService } from '../modules/retrack/service.ts';
import { KyselyStatsRepo } from '../modules/stats/repo.ts';
import { StatsService } from '../modules/stats/service.ts';
import { createCharacterEngine } from '../modules/tomokage/engine.ts';
import { createTomokageStore } from '../modules/tomokage/repo.ts';
import { TomokageService } from '../modules/tomokage/service.ts';
import { createMotionSources } from '../modules/tomokage/sources.ts';
import { createFilePort } from '../modules/video/files.ts';
import { VideoService } from '../modules/video/service.ts';
import { createVideoStore } from '../modules/video/store.ts';
import { AccountService, createDevOAuthProvider } from './accounts.ts';
import { AuthService } from './auth.ts';
import { CoinService } from './coins.ts';
import { CatalogService, MachineService, NoticeService, SystemConfigService } from './platform.ts';
import type { OAuthProvider } from './ports.ts';
import { Scheduler } from './scheduler.ts';

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
}

export interface ServiceOptions {
  /** Third-party login providers besides those the config turns on (OIDC_*; `dev` only with TEST_LOGIN_PROVIDER in tests). */
  oauthProviders?: OAuthProvider[];
  /** How webhooks are posted (default: fetch with a 10 s timeout). */
  webhookPoster?: WebhookPoster;
}

export function createServices(infra: Infra, opts: ServiceOptions = {}): Services {
  const { store, clock, config } = infra;
  const auth = new AuthService(store, infra.hasher, infra.transport, infra.limiter, clock, {
    tokenTtlMs: config.TOKEN_TTL_HOURS * 3_600_000,
    loginLimit: config.LOGIN_RATE_LIMIT,
    loginWindowMs: 15 * 60_000,
  });
  const coins = new CoinService(store, clock);
  const providers = new Map<string, OAuthProvider>();
  // The test provider logs anyone in as anyone: only when a test asks for it (the config refuses it outside tests).
  if (config.TEST_LOGIN_PROVIDER && config.NODE_ENV === 'test')
    providers.set('dev', createDevOAuthProvider());
  if (config.OIDC_ISSUER && config.OIDC_CLIENT_ID)
    providers.set(
      config.OIDC_NAME,
      createOidcProvider({
        name: config.OIDC_NAME,
        label: config.OIDC_LABEL,
        issuer: config.OIDC_ISSUER,
        clientId: config.OIDC_CLIENT_ID,
        clientSecret: config.OIDC_CLIENT_SECRET,
        scopes: config.OIDC_SCOPES,
        clock,
      }),
    );
  for (const p of opts.oauthProviders ?? []) providers.set(p.name, p);
  const accounts = new AccountService(
    store,
    auth,
    coins,
    infra.hasher,
    infra.mailer,
    infra.limiter,
    clock,
    {
      codeTtlMs: 10 * 60_000,
      codeResendMs: config.CODE_RESEND_SECONDS * 1000,
      codeMaxAttempts: 5,
      codeIpLimitPerHour: config.CODE_IP_LIMIT,
      codeEmailLimitPerDay: 10,
      codeSecret: infra.secrets.codes,
      productName: 'mocap',
    },
    providers,
  );
  const videoStore = createVideoStore(infra.database);
  const company = new CompanyService({
    repo: new KyselyCompanyRepo(infra.database.db),
    clock,
    mailer: infra.mailer,
    limiter: infra.limiter,
    getUser: (id) => store.repos.users.findById(id),
    balance: (userId) => coins.balance(userId, 'CV'),
    post: opts.webhookPoster ?? fetchPoster(),
    productName: 'mocap',
    ...(config.PUBLIC_URL ? { publicUrl: config.PUBLIC_URL } : {}),
  });
  const captureJobs = createCaptureJobs(infra, coins, {
    attempts: config.JOB_ATTEMPTS,
    backoffMs: config.JOB_BACKOFF_MS,
    onFinished: (v, status) =>
      company.videoFinished({
        videoId: v.id,
        userId: v.userId,
        title: v.name,
        status,
        error: v.error,
        duration: v.durationMs / 1000,
      }),
  });
  const models = new ModelService({
    settings: store.repos.sysConfig,
    now: () => clock.now(),
    defaultModel: config.CAPTURE_MODEL,
    usage: (since) => new KyselyModelRepo(infra.database.db).usage(since),
  });
  const videos = new VideoService({
    store: videoStore,
    coins,
    jobs: captureJobs,
    storage: infra.storage,
    files: createFilePort(join(config.dataDir, 'tmp')),
    clock,
    defaultModel: config.CAPTURE_MODEL,
    modelFor: (plan) => models.modelFor(plan),
  });
  const motion = new MotionService({ store: videoStore, coins, storage: infra.storage, videos, clock });
  const retrack = new RetrackService({
    videos,
    storage: infra.storage,
    queue: infra.queue<RetrackJobData>(RETRACK_QUEUE),
    clock,
  });
  const musicStore = createMusicStore(infra.database);
  const music = new MusicService({
    store: musicStore,
    coins,
    storage: infra.storage,
    files: createAudioFilePort(),
    queue: infra.queue<MusicJobData>(MUSIC_QUEUE),
    clock,
    attempts: config.JOB_ATTEMPTS,
    backoffMs: config.JOB_BACKOFF_MS,
  });
  const animationStore = createAnimationStore(infra.database);
  const animation = new AnimationService({
    store: animationStore,
    coins,
    storage: infra.storage,
    assets: createAnimationAssets(),
    clock,
  });
  const notices = new NoticeService(store, clock);
  const system = new SystemConfigService(store, clock);
  const tomokageStore = createTomokageStore(infra.database);
  const tomokage = new TomokageService({
    store: tomokageStore,
    coins,
    storage: infra.storage,
    engine: createCharacterEngine(),
    sources: createMotionSources(videoStore, musicStore, animationStore),
    clock,
    maintenance: async () => (await system.maintainInfo()).tomoMaintain,
  });
  const machines = new MachineService(store, clock);
  const blocklistRepo = new KyselyBlocklistRepo(infra.database.db);
  const blocklist = new BlocklistService({ repo: blocklistRepo, now: () => clock.now() });
  const rbacRepo = new KyselyRbacRepo(infra.database.db);
  const rbac = new RbacService({
    repo: rbacRepo,
    clock,
    getUser: (id) => accounts.getUser(id),
    setUserRoles: (id, roles) => accounts.adminUpdate(id, { roles }),
    // The audit's before/after: the same views the administrator routes answer with.
    snapshot: async (kind, ref) => {
      const id = Number(ref);
      switch (kind) {
        case 'user': {
          const u = /^\d+$/.test(ref)
            ? await store.repos.users.findById(id)
            : await store.repos.users.findByEmail(ref.toLowerCase());
          return u ? accounts.view(u) : null;
        }
        case 'notice':
          return (await store.repos.notices.findById(id)) ?? null;
        case 'maintain':
          return system.maintainInfo();
        case 'models':
          return models.get();
        case 'blockrule':
          return (await blocklistRepo.find(id)) ?? null;
        case 'machine':
          return (
            (/^\d+$/.test(ref)
              ? await store.repos.machines.findById(id)
              : await store.repos.machines.findByName(ref)) ?? null
          );
        case 'category':
          return (await store.repos.categories.findById(id)) ?? null;
        case 'role':
          return (await rbacRepo.findRole(id)) ?? null;
        case 'menu':
          return (await rbacRepo.findMenu(id)) ?? null;
        case 'video': {
          const v = await videoStore.repos.videos.findById(id);
          return v
            ? {
                id: v.id,
                name: v.name,
                status: v.status,
                userId: v.userId,
                inSquare: v.inSquare,
                feedbackStatus: v.feedbackStatus,
                jobSeq: v.jobSeq,
              }
            : null;
        }
        case 'animation': {
          const a = await animationStore.repos.animation.findById(id);
          return a ? { id: a.id, name: a.name, category: a.category, status: a.status } : null;
        }
        case 'tomokage': {
          const t = await tomokageStore.repos.tomokage.findById(id);
          return t
            ? { id: t.id, name: t.name, userId: t.userId, hidden: t.hidden, collected: t.collected }
            : null;
        }
        default:
          return null;
      }
    },
  });
  const consoleService = new ConsoleService({
    repo: new KyselyConsoleRepo(infra.database.db),
    videos: {
      findById: (id) => videoStore.repos.videos.findById(id),
      update: (id, patch, now) => videoStore.repos.videos.update(id, patch, now),
      updateIfStatus: (id, from, patch, now) => videoStore.repos.videos.updateIfStatus(id, from, patch, now),
    },
    enqueue: (v) => captureJobs.enqueue(v),
    // The route's permission check decided (video write); the video service's own check wants an administrator.
    deleteVideos: async (actorId, ids) => {
      const actor = await accounts.getUser(actorId);
      return videos.delete({ ...actor, roles: [...actor.roles, 'admin'] }, ids);
    },
    signedUrl: (key, contentType) =>
      infra.storage.signedUrl(key, { expiresInS: 3600, ...(contentType ? { contentType } : {}) }),
    clock,
  });
  return {
    ...createPayServices(infra, coins),
    rbac,
    console: consoleService,
    stats: new StatsService(new KyselyStatsRepo(infra.database.db)),
    models,
    blocklist,
    tomokage,
    company,
    music,
    animation,
    videos,
    motion,
    retrack,
    captureJobs,
    auth,
    accounts,
    coins,
    catalog: new CatalogService(store, clock, {
      videosIn: (id) => videoStore.repos.videos.countByCategory(id),
    }),
    notices,
    system,
    machines,
    scheduler: new Scheduler(store, clock, accounts, coins),
  };
}

export {
  AccountService,
  AuthService,
  CatalogService,
  CoinService,
  MachineService,
  NoticeService,
  SystemConfigService,
};
