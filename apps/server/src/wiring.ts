/**
 * The one wiring file: builds every adapter from validated config (`createInfra`: database — SQLite or PostgreSQL,
 * migrated —, store, mail, storage, queues, hashing, transport keys, rate limits, clock, secrets, payment
 * providers) and every service over them (`createServices`). The server (`main.ts`, `buildApp`), the worker and
 * the tests all start from here; nothing below this file knows which adapter it got.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { Config } from './config.ts';
import { createArgon2Hasher, createRsaTransport, generateRsaPrivateKeyPem } from './infra/crypto/index.ts';
import { createDatabase, type Database, migrateToLatest } from './infra/db/index.ts';
import { createMailer, outboxNotice } from './infra/mail/index.ts';
import { createSwitchableMailer } from './infra/mail/switchable.ts';
import { createAudioFilePort } from './infra/media/audio-files.ts';
import { createImageCodec } from './infra/media/images.ts';
import { createFilePort } from './infra/media/video-files.ts';
import { createOidcProvider } from './infra/oauth/oidc.ts';
import { createPaymentInfra, type PaymentInfra } from './infra/pay/index.ts';
import { renderOrderPdf } from './infra/pdf/order.ts';
import { createQueue } from './infra/queue/index.ts';
import { createMemoryRateLimiter, createRedisRateLimiter, type RedisLike } from './infra/ratelimit.ts';
import { createStorage, type ObjectStorage, sign, verify } from './infra/storage/index.ts';
import { createAnimationAssets } from './modules/animation/files.ts';
import { animationZipJobId } from './modules/animation/ports.ts';
import { createAnimationStore } from './modules/animation/repo.ts';
import { AnimationService } from './modules/animation/service.ts';
import { createAnimationVideos } from './modules/animation/videos.ts';
import { AuthService } from './modules/auth/service.ts';
import { KyselyBlocklistRepo } from './modules/blocklist/repo.ts';
import { BlocklistService } from './modules/blocklist/service.ts';
import { CatalogService } from './modules/catalog/service.ts';
import { CoinService } from './modules/coins/service.ts';
import { CommunityService } from './modules/community/service.ts';
import type { WebhookPoster } from './modules/company/ports.ts';
import { fetchPoster } from './modules/company/poster.ts';
import { KyselyCompanyRepo } from './modules/company/repo.ts';
import { CompanyService } from './modules/company/service.ts';
import { KyselyConsoleRepo } from './modules/console/repo.ts';
import { ConsoleService } from './modules/console/service.ts';
import { FileService } from './modules/cos/service.ts';
import { KyselyUploadedFileRepo } from './modules/file/repo.ts';
import { FileUploadService } from './modules/file/service.ts';
import { CAPTURE_QUEUE, type CaptureJobData, CaptureJobs } from './modules/jobs/service.ts';
import { MailboxService } from './modules/mailbox/service.ts';
import { KyselyModelRepo } from './modules/models/repo.ts';
import { ModelService } from './modules/models/service.ts';
import { ExportJobs } from './modules/motion/exports.ts';
import { EXPORT_QUEUE, type ExportJobData } from './modules/motion/ports.ts';
import { MotionService } from './modules/motion/service.ts';
import { MUSIC_QUEUE, type MusicJobData } from './modules/music/ports.ts';
import { createMusicStore } from './modules/music/repo.ts';
import { MusicService } from './modules/music/service.ts';
import { createPayStore } from './modules/order/repo.ts';
import { OrderService } from './modules/order/service.ts';
import { KyselyBehaviorRepo } from './modules/pageview/repo.ts';
import { BehaviorService } from './modules/pageview/service.ts';
import { PayService } from './modules/pay/service.ts';
import { KyselyRbacRepo } from './modules/rbac/repo.ts';
import { RbacService } from './modules/rbac/service.ts';
import { RETRACK_QUEUE, type RetrackJobData, RetrackService } from './modules/retrack/service.ts';
import { KyselyStatsRepo } from './modules/stats/repo.ts';
import { StatsService } from './modules/stats/service.ts';
import { MachineService, NoticeService, SystemConfigService } from './modules/system/service.ts';
import { createCharacterEngine } from './modules/tomokage/engine.ts';
import { TomokageJobs } from './modules/tomokage/jobs.ts';
import { TOMOKAGE_QUEUE, type TomokageApplyJobData } from './modules/tomokage/ports.ts';
import { createTomokageStore } from './modules/tomokage/repo.ts';
import { TomokageService } from './modules/tomokage/service.ts';
import { createMotionSources } from './modules/tomokage/sources.ts';
import { Scheduler } from './modules/user/scheduler.ts';
import { AccountService, createDevOAuthProvider } from './modules/user/service.ts';
import { VideoService } from './modules/video/service.ts';
import { createVideoStore } from './modules/video/store.ts';
import {
  type Clock,
  type JobQueue,
  type Mailer,
  type OAuthProvider,
  type PasswordHasher,
  type PasswordTransport,
  type RateLimiter,
  type Store,
  systemClock,
} from './ports.ts';
import type { Services } from './services.ts';
import { createStore } from './store.ts';

export type { Services };

export interface Secrets {
  /** HMAC key of signed URLs and upload grants. */
  urlSigning: string;
  /** HMAC key of verification codes. */
  codes: string;
  /** Shared key workers present to the machine heartbeat API. */
  worker: string;
  rsaPrivateKeyPem: string;
}

export interface Infra {
  config: Config;
  database: Database;
  store: Store;
  mailer: Mailer;
  storage: ObjectStorage;
  /** A queue by name (the same name gives the same queue object). */
  queue<T>(name: string): JobQueue<T>;
  hasher: PasswordHasher;
  transport: PasswordTransport;
  limiter: RateLimiter;
  clock: Clock;
  secrets: Secrets;
  /** Payment providers (live merchant credentials or the built-in sandbox). */
  payment: PaymentInfra;
  /** Closes queues and the database. */
  close(): Promise<void>;
}

export interface InfraOverrides {
  clock?: Clock;
  hasher?: PasswordHasher;
  mailer?: Mailer;
  limiter?: RateLimiter;
  /** Skip migrations (a worker may start before the server migrated; default false). */
  skipMigrations?: boolean;
}

/** Secrets from config, or generated once and kept in the database (so every process of a deployment agrees). */
async function resolveSecrets(config: Config, store: Store, clock: Clock): Promise<Secrets> {
  const now = clock.now();
  const s = store.repos.secrets;
  const rand = () => randomBytes(32).toString('base64url');
  return {
    urlSigning: config.URL_SIGNING_SECRET ?? (await s.getOrCreate('url_signing', rand, now)),
    codes: await s.getOrCreate('codes', rand, now),
    worker: config.WORKER_TOKEN ?? (await s.getOrCreate('worker', rand, now)),
    rsaPrivateKeyPem:
      config.RSA_PRIVATE_KEY ?? (await s.getOrCreate('rsa_private_key', generateRsaPrivateKeyPem, now)),
  };
}

export async function createInfra(config: Config, overrides: InfraOverrides = {}): Promise<Infra> {
  const clock = overrides.clock ?? systemClock;
  const database = await createDatabase(config.database);
  try {
    if (!overrides.skipMigrations)
      await migrateToLatest(database.db, database.kind, { schema: database.schema });
    const store = createStore(database);
    const secrets = await resolveSecrets(config, store, clock);
    const payment = await createPaymentInfra(config, store, clock);
    const storage = createStorage(
      config.storage.kind === 's3'
        ? { ...config.storage, secret: secrets.urlSigning }
        : {
            kind: 'local',
            root: config.storage.root,
            secret: secrets.urlSigning,
            publicUrl: config.PUBLIC_URL,
          },
    );
    // Rate limits are shared by every process in scale-out mode (Redis), per process otherwise.
    let redis: Redis | undefined;
    let limiter = overrides.limiter;
    if (!limiter && config.queue.kind === 'redis') {
      redis = new Redis(config.queue.url, { maxRetriesPerRequest: 2, lazyConnect: false });
      limiter = createRedisRateLimiter(redis as unknown as RedisLike, { now: () => clock.now() });
    }
    limiter ??= createMemoryRateLimiter(() => clock.now());
    const queues = new Map<string, JobQueue<unknown>>();
    const queue = <T>(name: string): JobQueue<T> => {
      let q = queues.get(name);
      if (!q) {
        q =
          config.queue.kind === 'redis'
            ? createQueue<unknown>(name, {
                kind: 'redis',
                url: config.queue.url,
                lockMs: config.QUEUE_LOCK_MS,
              })
            : createQueue<unknown>(name, {
                kind: 'memory',
                db: database.db,
                dialect: database.kind,
                lockMs: config.QUEUE_LOCK_MS,
              });
        queues.set(name, q);
      }
      return q as JobQueue<T>;
    };
    return {
      config,
      database,
      store,
      // Embedded mode (no SMTP): each mail's path and code on the console, where the operator looks (issue 15.2).
      mailer:
        overrides.mailer ??
        createMailer(
          config.mail,
          config.NODE_ENV === 'test' ? undefined : (path, mail) => console.log(outboxNotice(path, mail)),
        ),
      storage,
      queue,
      hasher: overrides.hasher ?? createArgon2Hasher(),
      transport: createRsaTransport(secrets.rsaPrivateKeyPem),
      limiter,
      clock,
      secrets,
      payment,
      async close() {
        for (const q of queues.values()) await (q as { close?: () => Promise<void> }).close?.();
        await redis?.quit().catch(() => redis?.disconnect());
        await database.destroy();
      },
    };
  } catch (e) {
    await database.destroy();
    throw e;
  }
}

/** The capture-job service over the app's infrastructure. */
export function createCaptureJobs(
  infra: Pick<Infra, 'database' | 'clock' | 'queue'>,
  coins: CoinService,
  options: Pick<ConstructorParameters<typeof CaptureJobs>[0], 'backoffMs' | 'attempts' | 'onFinished'> = {},
): CaptureJobs {
  return new CaptureJobs({
    store: createVideoStore(infra.database),
    coins,
    queue: infra.queue<CaptureJobData>(CAPTURE_QUEUE),
    clock: infra.clock,
    ...options,
  });
}

export interface PayServices {
  orders: OrderService;
  pay: PayService;
}

export function createPayServices(infra: Infra, coins: CoinService): PayServices {
  const orders = new OrderService(createPayStore(infra.database), coins, infra.clock, renderOrderPdf);
  const pay = new PayService(orders, infra.payment.providers, infra.payment, infra.clock, (msg, err) =>
    console.warn(`[pay] ${msg}${err ? `: ${(err as Error).message ?? err}` : ''}`),
  );
  return { orders, pay };
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
  // Mail goes through the mailbox an administrator exchanged (/tencent-email/exchange), else the configured one.
  let mailboxRef: MailboxService | undefined;
  const mailer = createSwitchableMailer(infra.mailer, async () => (await mailboxRef?.account()) ?? null);
  const mailbox = new MailboxService({
    settings: store.repos.sysConfig,
    smtp: mailer,
    clock,
    secret: infra.secrets.codes,
  });
  mailboxRef = mailbox;
  const accounts = new AccountService(
    store,
    auth,
    coins,
    infra.hasher,
    mailer,
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
  const webhookTargets = config.WEBHOOK_TARGETS ?? (config.NODE_ENV === 'production' ? 'public' : 'any');
  const company = new CompanyService({
    repo: new KyselyCompanyRepo(infra.database.db),
    clock,
    mailer,
    limiter: infra.limiter,
    getUser: (id) => store.repos.users.findById(id),
    balance: (userId) => coins.balance(userId, 'CV'),
    post: opts.webhookPoster ?? fetchPoster({ targets: webhookTargets }),
    webhookTargets,
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
  // What the paid slices (videos, motion, music, animations, digital humans) all take: coins, storage, clock.
  const paidSlice = { coins, storage: infra.storage, clock };
  const videos = new VideoService({
    ...paidSlice,
    store: videoStore,
    jobs: captureJobs,
    files: createFilePort(join(config.dataDir, 'tmp')),
    defaultModel: config.CAPTURE_MODEL,
    modelFor: (plan) => models.modelFor(plan),
  });
  const exportJobs = new ExportJobs(infra.queue<ExportJobData>(EXPORT_QUEUE));
  const motion = new MotionService({
    ...paidSlice,
    store: videoStore,
    videos,
    exports: exportJobs,
  });
  const retrack = new RetrackService({
    videos,
    storage: infra.storage,
    queue: infra.queue<RetrackJobData>(RETRACK_QUEUE),
    clock,
  });
  const musicStore = createMusicStore(infra.database);
  const music = new MusicService({
    ...paidSlice,
    store: musicStore,
    files: createAudioFilePort(),
    queue: infra.queue<MusicJobData>(MUSIC_QUEUE),
    attempts: config.JOB_ATTEMPTS,
    backoffMs: config.JOB_BACKOFF_MS,
  });
  const animationStore = createAnimationStore(infra.database);
  const animation = new AnimationService({
    ...paidSlice,
    store: animationStore,
    assets: createAnimationAssets(),
    videos: createAnimationVideos(videoStore),
    exports: {
      zip: (animationId, boneType) =>
        exportJobs.run(
          animationZipJobId(animationId, boneType),
          { kind: 'animationZip', animationId, boneType },
          `${boneType} animation`,
        ),
    },
  });
  const notices = new NoticeService(store, clock);
  const system = new SystemConfigService(store, clock);
  const tomokageStore = createTomokageStore(infra.database);
  const tomokage = new TomokageService({
    ...paidSlice,
    store: tomokageStore,
    engine: createCharacterEngine(),
    sources: createMotionSources(videoStore, musicStore, animationStore),
    jobs: new TomokageJobs(infra.queue<TomokageApplyJobData>(TOMOKAGE_QUEUE)),
    maintenance: async () => (await system.maintainInfo()).tomoMaintain,
  });
  const machines = new MachineService(store, clock, infra.secrets.worker);
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
  const uploads = new FileUploadService({
    repo: new KyselyUploadedFileRepo(infra.database.db),
    storage: infra.storage,
    codec: createImageCodec(),
    limiter: infra.limiter,
    clock,
    // Console staff upload the pictures of the pages they may change (the same check as saving those pages).
    mayUploadFor: (user, purpose) =>
      rbac.authorize(user, 'POST', purpose === 'notice' ? '/notice/save' : '/sysConfig/saveCommunity').then(
        () => true,
        () => false,
      ),
  });
  const community = new CommunityService({
    settings: store.repos.sysConfig,
    clock,
    fileExists: (key) => uploads.exists(key),
    imageUrl: async (key) => (await uploads.sharedUrl(key, { format: 'webp', maxSide: 512 })).url,
  });
  return {
    ...createPayServices(infra, coins),
    uploads,
    community,
    mailbox,
    behavior: new BehaviorService(new KyselyBehaviorRepo(infra.database.db), infra.limiter, clock),
    files: new FileService(infra.storage, {
      sign: (purpose, payload) => sign(infra.secrets.urlSigning, purpose, payload),
      verify: (purpose, token) => verify(infra.secrets.urlSigning, purpose, token),
    }),
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
