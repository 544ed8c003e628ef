/**
 * Videos: upload (from a streamed temp file or a direct-to-storage upload), the checks of spec §5/§6/§9 in a
 * fixed order (fields → queue limit → content → duplicate → coins), the charge and the row in one transaction,
 * then the capture job. Lists (my projects, square, search, queue), edit, delete, feedback, square
 * publishing, collects, remake and 2D repair.
 *
 * "Nothing half-stored": the file is stored under a fresh prefix before the transaction and deleted when the
 * transaction fails; a refused upload never reaches storage.
 */

import { randomUUID } from 'node:crypto';
import type { BoneType } from '@mocap/contracts';
import {
  companyUploadCost,
  DEFAULT_SOLVE_OPTIONS,
  FOOT_LOCK_MODES,
  HEIGHT_RANGE,
  remakeCost,
  type SolveOptions,
  uploadCost,
} from '@mocap/contracts';
import { AppError, Codes, Messages } from '../../errors.ts';
import type { Clock, ObjectStorage, UserRecord } from '../../ports.ts';
import { isAdmin } from '../auth/service.ts';
import { type CoinService, insufficientMessage, Reasons } from '../coins/service.ts';
import {
  type CaptureJobs,
  type CaptureMode,
  captureJobId,
  runChargeRef,
  sourceKeyOf,
} from '../jobs/service.ts';
import {
  assertFormatAllowed,
  BONE_TYPE_FORMAT,
  captureAllowed,
  MAX_DIMENSION,
  MAX_SOURCE_FPS,
  MB,
  PLAN_LIMITS,
  type Plan,
  planOf,
  UploadMessages,
} from './limits.ts';
import type { VideoStore } from './ports.ts';
import {
  CAPTURE_TYPES,
  type CaptureJudgement,
  type CaptureType,
  type FilePort,
  type ProbedFile,
  STATUS_NAMES,
  type VideoListItem,
  type VideoQuery,
  type VideoRecord,
  VideoStatus,
} from './ports.ts';

export type { FilePort, ProbedFile };

export interface UploadFields {
  name: string;
  description?: string;
  categoryId?: number | null;
  tags?: string[] | string | null;
  boneType: string;
  captureType?: CaptureType;
  titleInSquare?: string | null;
  /** How to solve the motion; omitted fields take the solver's defaults. */
  solveOptions?: Partial<SolveOptions>;
}

/**
 * Solve options over `base` (the defaults at upload, the stored ones at a remake), checked: the routes' zod
 * schemas refuse bad values first; this is the same rule for any other caller.
 */
export function mergeSolveOptions(
  base: Readonly<SolveOptions>,
  patch: Partial<SolveOptions> | undefined,
): SolveOptions {
  const o: SolveOptions = { ...base };
  if (patch?.smoothing !== undefined) o.smoothing = patch.smoothing;
  if (patch?.footLock !== undefined) o.footLock = patch.footLock;
  if (patch?.rootAtOrigin !== undefined) o.rootAtOrigin = patch.rootAtOrigin;
  if (patch?.height !== undefined) o.height = patch.height;
  if (!(Number.isFinite(o.smoothing) && o.smoothing >= 0 && o.smoothing <= 1)) {
    throw new AppError(Codes.PARAMETER_ERROR, 'smoothing must be a number from 0 to 1');
  }
  if (!FOOT_LOCK_MODES.includes(o.footLock)) {
    throw new AppError(Codes.PARAMETER_ERROR, `footLock must be one of ${FOOT_LOCK_MODES.join(', ')}`);
  }
  if (typeof o.rootAtOrigin !== 'boolean') {
    throw new AppError(Codes.PARAMETER_ERROR, 'rootAtOrigin must be true or false');
  }
  if (
    o.height !== null &&
    !(Number.isFinite(o.height) && o.height >= HEIGHT_RANGE.min && o.height <= HEIGHT_RANGE.max)
  ) {
    throw new AppError(
      Codes.PARAMETER_ERROR,
      `height must be the performer's height in metres, ${HEIGHT_RANGE.min} to ${HEIGHT_RANGE.max}`,
    );
  }
  return o;
}

export interface UploadedFile {
  path: string;
  fileName: string;
}

export const MAX_TITLE = 15;
export const FREE_REGENS = 3;

/** The API shape of a video (spec §3 Video). */
export interface VideoView {
  id: number;
  name: string;
  titleInSquare: string | null;
  path: string | null;
  thumbnail: string | null;
  md5: string;
  captureType: string;
  boneType: string;
  format: string;
  serialNumber: string;
  duration: number;
  createAt: number;
  description: string;
  status: number;
  statusName: string;
  progress: number;
  error: string | null;
  creatorId: number;
  creatorName: string;
  inSquare: number;
  repairCount: number;
  downloadCount: number;
  collectCount: number;
  category: number | null;
  tags: string[];
  width: number;
  height: number;
  fps: number;
  size: number;
  remakeCount: number;
  freeRemakes: number;
  /** The capture's judgement of the current result (issue 15.3); null before a judged result exists. */
  judgement: VideoJudgementView | null;
  /** V coins a non-owner pays to download it from the square. */
  price: number;
  /** How the motion is solved (owner and administrators; null for others). */
  solveOptions: SolveOptions | null;
}

export interface VideoJudgementView {
  /** Confidence of the whole clip, 0..1. */
  confidence: number;
  /** Weak time ranges (seconds) with their reasons. */
  ranges: CaptureJudgement['ranges'];
  /** Too weak to use: the run's coins were given back. */
  unusable: boolean;
  /** Coins given back for this result (owner only; 0 for others). */
  refundedCoins: number;
  /** Free remakes this video got from flagged results so far (of `JUDGE_FREE_REMAKES`). */
  judgeRemakes: number;
}

const isOwner = (v: VideoRecord, u: UserRecord) => v.userId === u.id;

/** The judgement of a video's current result as shown on cards and in the preview's timeline. */
function judgementView(v: VideoRecord, mine: boolean): VideoJudgementView | null {
  const j = v.outputs.judgement;
  if (!j || v.status !== VideoStatus.MADE) return null;
  return {
    confidence: j.confidence,
    ranges: j.ranges,
    unusable: j.unusable,
    refundedCoins: mine ? (v.outputs.refundedCoins ?? 0) : 0,
    judgeRemakes: mine ? v.judgeRemakes : 0,
  };
}

export class VideoService {
  constructor(
    private readonly deps: {
      store: VideoStore;
      coins: CoinService;
      jobs: CaptureJobs;
      storage: ObjectStorage;
      files: FilePort;
      clock: Clock;
      /** Pose model of new captures (default heavy; tests use lite). */
      defaultModel?: string;
      /** The model an administrator chose for the plan's new uploads (manageModel); else defaultModel. */
      modelFor?: (plan: Plan) => Promise<string>;
      /** Lifetime of signed URLs in lists and details (seconds). */
      urlTtlS?: number;
    },
  ) {}

  planOf(u: UserRecord): Plan {
    return planOf(u, this.deps.clock.now());
  }

  /** Largest upload a user may send now (bytes), for streaming limits. */
  maxUploadBytes(u: UserRecord): number {
    return PLAN_LIMITS[this.planOf(u)].sizeMB * MB;
  }

  // ---------------------------------------------------------------- validation

  /** Checks the form fields; returns them normalised. */
  async checkFields(
    u: UserRecord,
    f: UploadFields,
  ): Promise<
    Required<Omit<UploadFields, 'tags' | 'solveOptions'>> & { tags: string[]; solveOptions: SolveOptions }
  > {
    const plan = this.planOf(u);
    const name = (f.name ?? '').trim();
    if (!name) throw new AppError(Codes.PARAMETER_ERROR, 'video title is required');
    if ([...name].length > MAX_TITLE) throw new AppError(Codes.REFUSED, UploadMessages.TITLE_LENGTH);
    let tags: string[];
    if (Array.isArray(f.tags)) tags = f.tags;
    else if (typeof f.tags === 'string' && f.tags.trim()) tags = [f.tags];
    else tags = [];
    tags = tags.map((t) => String(t).trim()).filter(Boolean);
    if (tags.some((t) => /[,，]/.test(t))) throw new AppError(Codes.REFUSED, UploadMessages.TAG_COMMA);
    if (tags.some((t) => [...t].length > 20))
      throw new AppError(Codes.PARAMETER_ERROR, 'a tag is at most 20 characters');
    if (tags.length > 10) throw new AppError(Codes.PARAMETER_ERROR, 'at most 10 tags');
    tags = [...new Set(tags)];
    const categoryId = f.categoryId ?? null;
    if (categoryId === null && tags.length === 0)
      throw new AppError(Codes.REFUSED, UploadMessages.CATEGORY_OR_TAG);
    if (categoryId !== null) {
      const c = await this.deps.store.repos.categories.findById(categoryId);
      if (!c) throw new AppError(Codes.PARAMETER_ERROR, `category ${categoryId} does not exist`);
    }
    if (!BONE_TYPE_FORMAT[f.boneType]) {
      throw new AppError(
        Codes.PARAMETER_ERROR,
        `unknown bone type "${f.boneType}"; one of ${Object.keys(BONE_TYPE_FORMAT).join(', ')}`,
      );
    }
    assertFormatAllowed(plan, f.boneType);
    const captureType = f.captureType ?? (f.boneType === 'OnlyFace' ? 'face' : 'body');
    if (!CAPTURE_TYPES.includes(captureType))
      throw new AppError(Codes.PARAMETER_ERROR, 'unknown capture type');
    if (!captureAllowed(plan, captureType)) {
      throw new AppError(Codes.REFUSED, plan === 'free' ? Messages.FREE_CLOSED : Messages.PAID_FEATURE);
    }
    if (f.boneType === 'OnlyFace' && captureType !== 'face' && captureType !== 'full') {
      throw new AppError(Codes.PARAMETER_ERROR, 'OnlyFace needs face capture (captureType face or full)');
    }
    const solveOptions = mergeSolveOptions(DEFAULT_SOLVE_OPTIONS, f.solveOptions);
    return {
      name,
      description: (f.description ?? '').slice(0, 2000),
      categoryId,
      tags,
      boneType: f.boneType,
      captureType,
      titleInSquare: f.titleInSquare ? f.titleInSquare.trim().slice(0, 64) : null,
      solveOptions,
    };
  }

  /** My video holding a file with this MD5, if any (the upload page asks before its confirm step, issue 15.5). */
  async duplicateOf(u: UserRecord, md5: string): Promise<{ id: number; name: string } | null> {
    const v = await this.deps.store.repos.videos.findByMd5(u.id, md5.toLowerCase());
    return v ? { id: v.id, name: v.name } : null;
  }

  /** Refuses when the user's queue (not made + in progress) is full. */
  async checkQueue(u: UserRecord): Promise<void> {
    const limit = PLAN_LIMITS[this.planOf(u)].queue;
    const queued = await this.deps.store.repos.videos.countByStatus(u.id, [
      VideoStatus.NOT_MADE,
      VideoStatus.IN_PROGRESS,
    ]);
    if (queued >= limit) throw new AppError(Codes.REFUSED, UploadMessages.queueFull(limit));
  }

  /** Content checks of a received file; returns the probe. */
  async checkFile(u: UserRecord, path: string): Promise<ProbedFile & { size: number }> {
    const limits = PLAN_LIMITS[this.planOf(u)];
    const size = await this.deps.files.size(path);
    if (size === 0) throw new AppError(Codes.REFUSED, UploadMessages.WRONG_FORMAT);
    if (size > limits.sizeMB * MB) throw new AppError(Codes.REFUSED, UploadMessages.tooLarge(limits.sizeMB));
    const p = await this.deps.files.probe(path);
    if (!p.mp4) throw new AppError(Codes.REFUSED, UploadMessages.WRONG_FORMAT, { reason: p.problem ?? null });
    if (p.width > MAX_DIMENSION || p.height > MAX_DIMENSION) {
      throw new AppError(Codes.REFUSED, UploadMessages.tooBig(MAX_DIMENSION));
    }
    if (!(p.durationS > 0)) throw new AppError(Codes.REFUSED, UploadMessages.WRONG_FORMAT);
    // Billed per second, worked per frame: absurd frame rates are refused before anything is stored or charged.
    const fps = Math.max(p.fps, (p.frameCount ?? 0) / p.durationS);
    if (fps > MAX_SOURCE_FPS + 0.5) {
      throw new AppError(Codes.REFUSED, UploadMessages.tooManyFrames(fps, MAX_SOURCE_FPS), {
        fps: Math.round(fps),
        max: MAX_SOURCE_FPS,
      });
    }
    if (p.durationS > limits.durationS + 0.05) {
      throw new AppError(Codes.REFUSED, UploadMessages.tooLong(limits.durationS));
    }
    return { ...p, size };
  }

  private costOf(u: UserRecord, durationS: number) {
    return u.type === 2
      ? { amount: companyUploadCost(durationS), currency: 'CV' as const, reason: Reasons.COMPANY_UPLOAD }
      : { amount: uploadCost(durationS), currency: 'V' as const, reason: Reasons.UPLOAD };
  }

  // ---------------------------------------------------------------- upload

  /**
   * Creates a video from a received file (the temp file is consumed: stored, then removed). Every refusal
   * happens before anything is stored or charged.
   */
  async createFromFile(u: UserRecord, fields: UploadFields, file: UploadedFile): Promise<VideoView> {
    try {
      const f = await this.checkFields(u, fields);
      await this.checkQueue(u);
      const probe = await this.checkFile(u, file.path);
      const md5 = await this.deps.files.md5(file.path);
      if (await this.deps.store.repos.videos.findByMd5(u.id, md5)) {
        throw new AppError(Codes.REFUSED, UploadMessages.DUPLICATE);
      }
      const cost = this.costOf(u, probe.durationS);
      await this.deps.coins.requireBalance(u.id, cost.currency, cost.amount);
      const uuid = randomUUID();
      const prefix = `videos/u${u.id}/${uuid}`;
      await this.deps.storage.putFile(`${prefix}/source.mp4`, file.path, { contentType: 'video/mp4' });
      const plan = this.planOf(u);
      const modelType = (await this.deps.modelFor?.(plan)) ?? this.deps.defaultModel ?? 'heavy';
      const now = this.deps.clock.now();
      const chargeRef = `upload:${uuid}`;
      let video: VideoRecord;
      try {
        video = await this.deps.store.transaction(async (r) => {
          // Serialise this user's uploads (row lock on PostgreSQL; SQLite transactions are serial), then
          // count the queue again: concurrent uploads cannot overfill it.
          await r.users.balanceForUpdate(u.id, cost.currency);
          const queued = await r.videos.countByStatus(u.id, [VideoStatus.NOT_MADE, VideoStatus.IN_PROGRESS]);
          if (queued >= PLAN_LIMITS[plan].queue) {
            throw new AppError(Codes.REFUSED, UploadMessages.queueFull(PLAN_LIMITS[plan].queue));
          }
          const serialNo = await r.videos.nextSerial(now);
          const v = await r.videos.create({
            userId: u.id,
            name: f.name,
            titleInSquare: f.titleInSquare,
            description: f.description,
            fileName: file.fileName.slice(0, 255),
            storagePrefix: prefix,
            md5,
            sizeBytes: probe.size,
            durationMs: Math.round(probe.durationS * 1000),
            width: probe.width,
            height: probe.height,
            fps: probe.fps,
            captureType: f.captureType,
            boneType: f.boneType,
            modelType,
            serialNo,
            priority: PLAN_LIMITS[plan].priority,
            freeRemakes: PLAN_LIMITS[plan].freeRemakes,
            categoryId: f.categoryId,
            tags: f.tags,
            currency: cost.currency,
            charged: cost.amount,
            chargeRef,
            solveOptions: f.solveOptions,
            createdAt: now,
          });
          await this.deps.coins.changeIn(r, u.id, -cost.amount, cost.reason, chargeRef, {
            currency: cost.currency,
            note: `video ${v.id} (${probe.durationS.toFixed(1)} s)`,
            insufficientMessage: insufficientMessage(cost.currency),
          });
          await r.videos.update(v.id, { jobId: captureJobId(v.id, 0) }, now);
          await r.users.incrementUploadCount(u.id);
          return { ...v, jobId: captureJobId(v.id, 0) };
        });
      } catch (err) {
        await this.deps.storage.deletePrefix(prefix).catch(() => {});
        throw err;
      }
      await this.deps.jobs.enqueue(video, 'capture', chargeRef).catch(() => {
        // The reconciler queues it (the row is committed).
      });
      return this.view(video, u, u.username);
    } finally {
      await this.deps.files.remove(file.path).catch(() => {});
    }
  }

  /** Temporary credentials to upload one MP4 directly to storage (spec `/cos/sts/upload`). */
  async uploadGrant(u: UserRecord, input: { fileName?: string; size?: number }) {
    await this.checkQueue(u);
    const limits = PLAN_LIMITS[this.planOf(u)];
    if (input.size !== undefined && input.size > limits.sizeMB * MB) {
      throw new AppError(Codes.REFUSED, UploadMessages.tooLarge(limits.sizeMB));
    }
    if (input.fileName && !/\.mp4$/i.test(input.fileName))
      throw new AppError(Codes.REFUSED, UploadMessages.WRONG_FORMAT);
    return this.deps.storage.uploadCredentials({
      key: `uploadZM/${randomUUID()}.mp4`,
      owner: u.id,
      maxBytes: limits.sizeMB * MB,
      contentType: 'video/mp4',
    });
  }

  /**
   * Confirms a direct upload: the grant must be this user's; the object is fetched, checked like a multipart
   * upload and then removed from the upload area (refused or not).
   */
  async confirmDirect(
    u: UserRecord,
    sessionToken: string,
    fields: UploadFields,
    fileName?: string,
  ): Promise<VideoView> {
    let grant: ReturnType<ObjectStorage['verifyUploadGrant']>;
    try {
      grant = this.deps.storage.verifyUploadGrant(sessionToken);
    } catch {
      throw new AppError(Codes.PARAMETER_ERROR, 'the upload credentials are invalid or expired');
    }
    if (grant.owner !== String(u.id)) throw new AppError(Codes.INSUFFICIENT_PERMISSION);
    const st = await this.deps.storage.stat(grant.key);
    if (!st) throw new AppError(Codes.PARAMETER_ERROR, 'nothing was uploaded with these credentials');
    try {
      if (st.size > grant.maxBytes) {
        throw new AppError(Codes.REFUSED, UploadMessages.tooLarge(Math.round(grant.maxBytes / MB)));
      }
      const tmp = this.deps.files.tempPath('.mp4');
      await this.deps.storage.download(grant.key, tmp);
      return await this.createFromFile(u, fields, {
        path: tmp,
        fileName: fileName ?? grant.key.split('/').pop()!,
      });
    } finally {
      await this.deps.storage.delete(grant.key).catch(() => {});
    }
  }

  // ---------------------------------------------------------------- reading

  /** The video if the user may see it: owner, administrator, or a made square video. */
  async visible(u: UserRecord, id: number): Promise<VideoListItem> {
    const v = await this.deps.store.repos.videos.findWithCreator(id);
    if (!v) throw new AppError(Codes.NOT_FOUND, 'video not found');
    if (isOwner(v, u) || isAdmin(u)) return v;
    if (v.inSquare && v.status === VideoStatus.MADE) return v;
    throw new AppError(Codes.INSUFFICIENT_PERMISSION, 'this video is not yours');
  }

  /** The video if the user owns it (administrators too, for `admin`). */
  async owned(u: UserRecord, id: number, allowAdmin = false): Promise<VideoRecord> {
    const v = await this.deps.store.repos.videos.findById(id);
    if (!v) throw new AppError(Codes.NOT_FOUND, 'video not found');
    if (!isOwner(v, u) && !(allowAdmin && isAdmin(u))) {
      throw new AppError(Codes.INSUFFICIENT_PERMISSION, 'this video is not yours');
    }
    return v;
  }

  async view(v: VideoRecord, viewer: UserRecord, creatorName: string): Promise<VideoView> {
    const ttl = this.deps.urlTtlS ?? 3600;
    const mine = v.userId === viewer.id || isAdmin(viewer);
    const showSource = mine || (v.inSquare && v.status === VideoStatus.MADE);
    const [path, thumbnail] = await Promise.all([
      showSource
        ? this.deps.storage.signedUrl(sourceKeyOf(v), { expiresInS: ttl, contentType: 'video/mp4' })
        : null,
      v.outputs.thumbKey ? this.deps.storage.signedUrl(v.outputs.thumbKey, { expiresInS: ttl }) : null,
    ]);
    return {
      id: v.id,
      name: v.name,
      titleInSquare: v.titleInSquare,
      path,
      thumbnail,
      md5: v.md5,
      captureType: v.captureType,
      boneType: v.boneType,
      format: BONE_TYPE_FORMAT[v.boneType] ?? 'fbx',
      serialNumber: v.serialNo,
      duration: v.durationMs / 1000,
      createAt: v.createdAt,
      description: v.description,
      status: v.status,
      statusName: STATUS_NAMES[v.status] ?? 'unknown',
      progress: v.progress,
      error: mine ? v.error : null,
      creatorId: v.userId,
      creatorName,
      inSquare: v.inSquare ? 1 : 0,
      repairCount: v.repairCount,
      downloadCount: v.downloadCount,
      collectCount: v.collectCount,
      category: v.categoryId,
      tags: v.tags,
      width: v.width,
      height: v.height,
      fps: v.fps,
      size: v.sizeBytes,
      remakeCount: v.remakeCount,
      freeRemakes: v.freeRemakes,
      judgement: judgementView(v, mine),
      price: uploadCost(v.durationMs / 1000),
      solveOptions: mine ? { ...v.solveOptions } : null,
    };
  }

  private async page(viewer: UserRecord, q: VideoQuery) {
    const p = await this.deps.store.repos.videos.list(q);
    return { ...p, list: await Promise.all(p.list.map((v) => this.view(v, viewer, v.creatorName))) };
  }

  /** My projects (`/video/center`). */
  center(u: UserRecord, q: Omit<VideoQuery, 'userId' | 'inSquare' | 'collectedBy'>) {
    return this.page(u, { ...q, userId: u.id });
  }

  /**
   * The square: made, published videos of everyone (`/video/square`); `collected` limits to my collects.
   * Each item says whether I collected it.
   */
  async square(
    u: UserRecord,
    q: Omit<VideoQuery, 'userId' | 'inSquare' | 'status'> & { mine?: boolean; collected?: boolean },
  ) {
    const { mine, collected, ...rest } = q;
    const p = await this.page(u, {
      ...rest,
      inSquare: true,
      status: [VideoStatus.MADE],
      userId: mine ? u.id : undefined,
      collectedBy: collected ? u.id : undefined,
    });
    const mineSet = collected
      ? null
      : await this.deps.store.repos.videos.collectedAmong(
          u.id,
          p.list.map((v) => v.id),
        );
    return {
      ...p,
      list: p.list.map((v) => Object.assign(v, { collected: mineSet ? mineSet.has(v.id) : true })),
    };
  }

  /** Search: my videos, or everyone's for administrators (`/video/search`). */
  search(u: UserRecord, q: VideoQuery & { userId?: number }) {
    return this.page(u, { ...q, userId: isAdmin(u) ? q.userId : u.id });
  }

  /** My waiting and running videos with their queue positions (`/video/searchQueue`). */
  async queue(u: UserRecord) {
    const p = await this.deps.store.repos.videos.list({
      userId: u.id,
      status: [VideoStatus.NOT_MADE, VideoStatus.IN_PROGRESS],
      sort: 'old',
      page: 1,
      size: 100,
    });
    const limit = PLAN_LIMITS[this.planOf(u)].queue;
    const list = await Promise.all(
      p.list.map(async (v) => ({
        ...(await this.view(v, u, v.creatorName)),
        position: await this.deps.jobs.position(v),
      })),
    );
    return { list, total: p.total, limit };
  }

  async byId(
    u: UserRecord,
    id: number,
  ): Promise<VideoView & { collected: boolean; position: number | null }> {
    const v = await this.visible(u, id);
    return {
      ...(await this.view(v, u, v.creatorName)),
      collected: await this.deps.store.repos.videos.isCollected(v.id, u.id),
      position: isOwner(v, u) ? await this.deps.jobs.position(v) : null,
    };
  }

  /** `checkWaiting`: status, progress and queue position. */
  async waiting(u: UserRecord, id: number) {
    const v = await this.owned(u, id);
    return {
      id: v.id,
      status: v.status,
      statusName: STATUS_NAMES[v.status],
      progress: v.progress,
      position: await this.deps.jobs.position(v),
    };
  }

  /** Bone type and capture type of my latest upload (`getLastModelType`). */
  async lastModelType(u: UserRecord) {
    const v = await this.deps.store.repos.videos.latest(u.id);
    return v ? { boneType: v.boneType, captureType: v.captureType, modelType: v.modelType } : null;
  }

  // ---------------------------------------------------------------- changes

  async edit(
    u: UserRecord,
    id: number,
    patch: {
      name?: string;
      description?: string;
      categoryId?: number | null;
      tags?: string[];
      titleInSquare?: string | null;
    },
  ): Promise<VideoView> {
    const v = await this.owned(u, id, true);
    const merged = await this.checkFields(u, {
      name: patch.name ?? v.name,
      description: patch.description ?? v.description,
      categoryId: patch.categoryId === undefined ? v.categoryId : patch.categoryId,
      tags: patch.tags ?? v.tags,
      boneType: v.boneType,
      captureType: 'body',
      titleInSquare: patch.titleInSquare === undefined ? v.titleInSquare : patch.titleInSquare,
    });
    const now = this.deps.clock.now();
    await this.deps.store.repos.videos.update(
      v.id,
      {
        name: merged.name,
        description: merged.description,
        categoryId: merged.categoryId,
        tags: merged.tags,
        titleInSquare: merged.titleInSquare,
      },
      now,
    );
    const fresh = (await this.deps.store.repos.videos.findWithCreator(v.id))!;
    return this.view(fresh, u, fresh.creatorName);
  }

  /** Chooses the bone type downloads default to (`PUT /video/fbxs`, `PUT /motion/model/{id}`). */
  async setBoneType(u: UserRecord, id: number, boneType: BoneType): Promise<void> {
    const v = await this.owned(u, id);
    assertFormatAllowed(this.planOf(u), boneType);
    await this.deps.store.repos.videos.update(v.id, { boneType }, this.deps.clock.now());
  }

  /** Deletes videos (their files and queued jobs); a video being made is refused. */
  async delete(u: UserRecord, ids: number[]): Promise<{ deleted: number[] }> {
    if (ids.length === 0 || ids.length > 100) throw new AppError(Codes.PARAMETER_ERROR, 'give 1 to 100 ids');
    const videos = await Promise.all(ids.map((id) => this.owned(u, id, true)));
    for (const v of videos) {
      if (v.status === VideoStatus.IN_PROGRESS) {
        throw new AppError(Codes.REFUSED, `video ${v.id} is being made; delete it when it is done`);
      }
    }
    const deleted: number[] = [];
    for (const v of videos) {
      await this.deps.jobs.cancel(v);
      if (await this.deps.store.repos.videos.delete(v.id)) deleted.push(v.id);
      await this.deps.storage.deletePrefix(v.storagePrefix).catch(() => {});
      // A video deleted before it was made is refunded (its charge paid for a capture that never ran).
      const ref = runChargeRef(v);
      if (v.status === VideoStatus.NOT_MADE && ref && !v.refunded) {
        await this.deps.coins.refund(ref, `video ${v.id} deleted before it was made`);
      }
    }
    return { deleted };
  }

  async setFeedback(u: UserRecord, id: number, content: string): Promise<void> {
    const v = await this.owned(u, id);
    const text = content.trim();
    if (!text) throw new AppError(Codes.PARAMETER_ERROR, 'feedback is empty');
    const now = this.deps.clock.now();
    await this.deps.store.repos.videos.update(
      v.id,
      { feedback: text.slice(0, 2000), feedbackStatus: 0, feedbackAt: now },
      now,
    );
  }

  /** Administrators mark feedback handled (1) or open (0). */
  async setFeedbackStatus(u: UserRecord, id: number, status: number): Promise<void> {
    if (!isAdmin(u)) throw new AppError(Codes.INSUFFICIENT_PERMISSION);
    const v = await this.deps.store.repos.videos.findById(id);
    if (!v) throw new AppError(Codes.NOT_FOUND, 'video not found');
    await this.deps.store.repos.videos.update(v.id, { feedbackStatus: status }, this.deps.clock.now());
  }

  /** Publishes (1) or withdraws (0) a made video on the square. */
  async setSquare(u: UserRecord, id: number, flag: number, title?: string | null): Promise<VideoView> {
    const v = await this.owned(u, id, true);
    if (flag === 1 && v.status !== VideoStatus.MADE) {
      throw new AppError(Codes.REFUSED, 'only a made video can be shared on the square');
    }
    const now = this.deps.clock.now();
    await this.deps.store.repos.videos.update(
      v.id,
      {
        inSquare: flag === 1,
        squareAt: flag === 1 ? now : null,
        ...(title !== undefined && title !== null ? { titleInSquare: title.trim().slice(0, 64) } : {}),
      },
      now,
    );
    const fresh = (await this.deps.store.repos.videos.findWithCreator(v.id))!;
    return this.view(fresh, u, fresh.creatorName);
  }

  /** Collects or un-collects a square video (or one's own). Returns the new state. */
  async collect(u: UserRecord, id: number): Promise<{ collected: boolean }> {
    const v = await this.visible(u, id);
    return { collected: await this.deps.store.repos.videos.toggleCollect(v.id, u.id, this.deps.clock.now()) };
  }

  /**
   * Remake (`/video/videoRedo`): runs the capture again. Uses one of the video's free remakes unless
   * `paid`; without free remakes left it refuses with 您的视频免费制作次数已用完 (the client then confirms a
   * paid remake: 1 V per 2 s, rounded up to a multiple of 2 s). `solveOptions` changes the stored options
   * (omitted fields are kept); the remake is solved with the result.
   */
  async remake(
    u: UserRecord,
    id: number,
    opts: {
      paid?: boolean;
      captureType?: CaptureType;
      boneType?: BoneType;
      solveOptions?: Partial<SolveOptions>;
    } = {},
  ): Promise<VideoView & { charged: number }> {
    const v = await this.owned(u, id);
    if (v.status === VideoStatus.NOT_MADE || v.status === VideoStatus.IN_PROGRESS) {
      throw new AppError(Codes.REFUSED, 'the video is already waiting or being made');
    }
    const solveOptions = mergeSolveOptions(v.solveOptions, opts.solveOptions);
    await this.checkQueue(u);
    const plan = this.planOf(u);
    const captureType = opts.captureType ?? v.captureType;
    if (!captureAllowed(plan, captureType)) {
      throw new AppError(Codes.REFUSED, plan === 'free' ? Messages.FREE_CLOSED : Messages.PAID_FEATURE);
    }
    if (opts.boneType) assertFormatAllowed(plan, opts.boneType);
    if (!opts.paid && v.freeRemakes <= 0) throw new AppError(Codes.REFUSED, Messages.FREE_REMAKES_USED);
    const seq = v.jobSeq + 1;
    const now = this.deps.clock.now();
    const cost = opts.paid ? remakeCost(v.durationMs / 1000) : 0;
    const chargeRef = opts.paid ? `remake:${v.id}:${seq}` : null;
    const updated = await this.deps.store.transaction(async (r) => {
      await r.users.balanceForUpdate(u.id, 'V');
      const queued = await r.videos.countByStatus(u.id, [VideoStatus.NOT_MADE, VideoStatus.IN_PROGRESS]);
      if (queued >= PLAN_LIMITS[plan].queue) {
        throw new AppError(Codes.REFUSED, UploadMessages.queueFull(PLAN_LIMITS[plan].queue));
      }
      const ok = await r.videos.updateIfStatus(
        v.id,
        [VideoStatus.MADE, VideoStatus.FAILED],
        {
          status: VideoStatus.NOT_MADE,
          progress: 0,
          error: null,
          jobSeq: seq,
          jobId: captureJobId(v.id, seq),
          remakeCount: v.remakeCount + 1,
          freeRemakes: opts.paid ? v.freeRemakes : v.freeRemakes - 1,
          captureType,
          priority: PLAN_LIMITS[plan].priority,
          solveOptions,
          ...(opts.boneType ? { boneType: opts.boneType } : {}),
        },
        now,
      );
      if (!ok) throw new AppError(Codes.REFUSED, 'the video is already waiting or being made');
      if (chargeRef) {
        await this.deps.coins.changeIn(r, u.id, -cost, Reasons.REMAKE, chargeRef, {
          note: `remake of video ${v.id}`,
        });
      }
      return (await r.videos.findById(v.id))!;
    });
    await this.deps.jobs.enqueue(updated, 'capture', chargeRef).catch(() => {});
    return { ...(await this.view(updated, u, u.username)), charged: cost };
  }

  /** Re-runs part of the path for free: `export` (zips from the clip) or `resolve` (after a 2D repair). */
  async regen(
    u: UserRecord,
    id: number,
    mode: Exclude<CaptureMode, 'capture'> = 'export',
  ): Promise<VideoView> {
    const v = await this.owned(u, id);
    if (v.status !== VideoStatus.MADE)
      throw new AppError(Codes.REFUSED, 'only a made video can be regenerated');
    if (mode === 'export' && v.regenCount >= FREE_REGENS)
      throw new AppError(Codes.REFUSED, Messages.FREE_REMAKES_USED);
    await this.checkQueue(u);
    const seq = v.jobSeq + 1;
    const now = this.deps.clock.now();
    const ok = await this.deps.store.repos.videos.updateIfStatus(
      v.id,
      [VideoStatus.MADE],
      {
        status: VideoStatus.NOT_MADE,
        progress: 0,
        jobSeq: seq,
        jobId: captureJobId(v.id, seq),
        ...(mode === 'export' ? { regenCount: v.regenCount + 1 } : { repairCount: v.repairCount + 1 }),
      },
      now,
    );
    if (!ok) throw new AppError(Codes.REFUSED, 'the video is already waiting or being made');
    const fresh = (await this.deps.store.repos.videos.findById(v.id))!;
    await this.deps.jobs.enqueue(fresh, mode, null).catch(() => {});
    return this.view(fresh, u, u.username);
  }

  /** Spec `/video/2d` PUT: stores repaired tracks (a mocap-tracks document) and re-solves from them. */
  async repair2d(u: UserRecord, id: number, tracks: unknown): Promise<VideoView> {
    const plan = this.planOf(u);
    if (plan === 'free') throw new AppError(Codes.REFUSED, Messages.FREE_CLOSED);
    const v = await this.owned(u, id);
    if (v.status !== VideoStatus.MADE || !v.outputs.tracksKey) {
      throw new AppError(Codes.REFUSED, 'only a made video can be repaired');
    }
    const t = tracks as { format?: string; frames?: unknown[] } | null;
    if (t?.format !== 'mocap-tracks' || !Array.isArray(t.frames) || t.frames.length === 0) {
      throw new AppError(Codes.PARAMETER_ERROR, 'tracks must be a mocap-tracks document with frames');
    }
    const original = `${v.storagePrefix}/tracks.orig.json`;
    if (!(await this.deps.storage.exists(original))) {
      await this.deps.storage.put(original, await this.deps.storage.getBytes(v.outputs.tracksKey));
    }
    await this.deps.storage.put(v.outputs.tracksKey, JSON.stringify(tracks), {
      contentType: 'application/json',
    });
    return this.regen(u, id, 'resolve');
  }

  /** Spec `/video/2d` GET: what the repair editor loads (paid plans, like the repair). */
  async get2d(u: UserRecord, id: number) {
    if (this.planOf(u) === 'free') throw new AppError(Codes.REFUSED, Messages.FREE_CLOSED);
    const v = await this.owned(u, id);
    if (!v.outputs.tracksKey) throw new AppError(Codes.REFUSED, Messages.NO_FILE);
    return {
      id: v.id,
      repairCount: v.repairCount,
      poseUrl: await this.deps.storage.signedUrl(v.outputs.tracksKey, {
        expiresInS: 1800,
        contentType: 'application/json',
      }),
      videoUrl: await this.deps.storage.signedUrl(sourceKeyOf(v), {
        expiresInS: 1800,
        contentType: 'video/mp4',
      }),
    };
  }
}
