/**
 * Motion downloads (spec §7 Motion): per bone type zips through signed, expiring URLs; square videos cost a
 * non-owner 1 V per second, charged once per (video, user) by the ledger reference
 * `square_download:<video>:<user>`; bulk download (one zip of zips), lower-body variants made on demand,
 * tracks for the repair editor, download history, regen counts, the price check.
 */

import { randomUUID } from 'node:crypto';
import { squareDownloadCost } from '@mocap/contracts';
import { type BoneType, isBoneType, zip } from '@mocap/motion';
import { AppError, Codes, Messages } from '../../errors.ts';
import type { Clock, ObjectStorage, UserRecord } from '../../ports.ts';
import { isAdmin } from '../auth/service.ts';
import { type CoinService, Reasons } from '../coins/service.ts';
import {
  assertFormatAllowed,
  BONE_TYPE_FORMAT,
  formatAllowed,
  PLAN_LIMITS,
  planOf,
} from '../video/limits.ts';
import type { VideoStore } from '../video/ports.ts';
import { type StoredZip, type VideoRecord, VideoStatus } from '../video/ports.ts';
import { FREE_REGENS, type VideoService } from '../video/service.ts';
import type { ExportJobs } from './exports.ts';
import { zipForPlan } from './planzip.ts';

/** Spec §3 "Motion download result". */
export interface MotionDownloadResult {
  paths: string[];
  name: string;
  bonetype: string;
  motionsName: string;
  /** V coins charged by this call (0 when owned, free or already bought). */
  charged: number;
  expiresIn: number;
}

export const BODY_TYPES = ['video', 'body'] as const;

/** Frame rate of the preview clip a non-buyer's viewer gets. */
export const PREVIEW_FPS = 10;

/** Ours (the spec is silent): previewing a square video's files before buying it. */
export const PreviewMessages = {
  BUY_FIRST: 'Download this video to get its files; the preview shows its motion on the viewer’s figure',
} as const;

/**
 * A preview-grade copy of a `mocap-motion` document: ≤ PREVIEW_FPS, rounded, no face, no contacts; the raised
 * ground under the feet (`support`, when the solve found some) kept, the viewer draws it.
 */
export function previewClipDoc(doc: {
  fps: number;
  frameCount: number;
  frames: {
    time: number;
    rootPosition: number[];
    rotations: number[];
    positions: number[];
    support?: number;
  }[];
  metadata?: object;
  blendshapes?: unknown;
}) {
  const step = Math.max(1, Math.ceil(doc.fps / PREVIEW_FPS));
  const r = (x: number) => Math.round(x * 1000) / 1000;
  const frames = doc.frames
    .filter((_, i) => i % step === 0)
    .map((f) => ({
      time: r(f.time),
      rootPosition: f.rootPosition.map(r),
      rotations: f.rotations.map(r),
      positions: f.positions.map(r),
      ...(f.support !== undefined ? { support: r(f.support) } : {}),
    }));
  const { blendshapes: _face, ...rest } = doc;
  return {
    ...rest,
    fps: doc.fps / step,
    frameCount: frames.length,
    metadata: { ...(doc.metadata ?? {}), preview: true },
    frames,
  };
}

const slug = (s: string) => s.replace(/[^A-Za-z0-9.-]+/g, '_');

export class MotionService {
  constructor(
    private readonly deps: {
      store: VideoStore;
      coins: CoinService;
      storage: ObjectStorage;
      videos: VideoService;
      clock: Clock;
      /** On-demand exports run by the worker (the lower-body zips). */
      exports: ExportJobs;
      /** Signed download URL lifetime (default 300 s; the client refreshes credentials after 290 s). */
      urlTtlS?: number;
    },
  ) {}

  private get ttl(): number {
    return this.deps.urlTtlS ?? 300;
  }

  private purchaseRef(videoId: number, userId: number): string {
    return `square_download:${videoId}:${userId}`;
  }

  /** Loads a made video the user may download from, with what it costs them. */
  private async downloadable(
    u: UserRecord,
    id: number,
  ): Promise<{ v: VideoRecord; owned: boolean; price: number }> {
    const v = await this.deps.store.repos.videos.findById(id);
    if (!v) throw new AppError(Codes.NOT_FOUND, 'video not found');
    const owned = v.userId === u.id || isAdmin(u);
    if (!owned && !v.inSquare) throw new AppError(Codes.INSUFFICIENT_PERMISSION, 'this video is not yours');
    if (v.status !== VideoStatus.MADE) throw new AppError(Codes.REFUSED, Messages.NO_FILE);
    return { v, owned, price: owned ? 0 : squareDownloadCost(v.durationMs / 1000) };
  }

  /** The one check of a bone type behind the edge (a stored video's may be any string): known, and in my plan. */
  private checkFormat(u: UserRecord, boneType: string): asserts boneType is BoneType {
    if (!isBoneType(boneType)) throw new AppError(Codes.PARAMETER_ERROR, `unknown bone type "${boneType}"`);
    if (isAdmin(u)) return;
    const plan = planOf(u, this.deps.clock.now());
    assertFormatAllowed(plan, boneType);
  }

  /** Charges a non-owner for a square video once; returns what was charged now. */
  private async pay(u: UserRecord, v: VideoRecord, price: number): Promise<number> {
    if (price <= 0) return 0;
    const r = await this.deps.coins.change(
      u.id,
      -price,
      Reasons.SQUARE_DOWNLOAD,
      this.purchaseRef(v.id, u.id),
      {
        note: `square video ${v.id} (${(v.durationMs / 1000).toFixed(1)} s)`,
      },
    );
    return r.duplicate ? 0 : price;
  }

  /** Price check (`preMotionDownload`): what downloading costs this user. */
  async price(u: UserRecord, id: number) {
    const { v, owned, price } = await this.downloadable(u, id);
    const purchased =
      !owned && (await this.deps.store.repos.ledger.findByRef(this.purchaseRef(v.id, u.id))) !== undefined;
    const balance = await this.deps.coins.balance(u.id, 'V');
    const due = owned || purchased ? 0 : price;
    return {
      id: v.id,
      duration: v.durationMs / 1000,
      price,
      due,
      owned,
      purchased,
      balance,
      enough: balance >= due,
    };
  }

  /** `DownLoadMotion(bodyType, id, boneType)`: a signed URL to the bone type's zip. */
  async download(
    u: UserRecord,
    bodyType: string,
    id: number,
    boneType: BoneType | string,
  ): Promise<MotionDownloadResult> {
    if (!(BODY_TYPES as readonly string[]).includes(bodyType)) {
      throw new AppError(Codes.PARAMETER_ERROR, `bodyType must be one of ${BODY_TYPES.join(', ')}`);
    }
    this.checkFormat(u, boneType);
    const { v, owned, price } = await this.downloadable(u, id);
    const z = v.outputs.zips?.[boneType];
    if (!z) throw new AppError(Codes.REFUSED, Messages.NO_FILE);
    const charged = owned ? 0 : await this.pay(u, v, price);
    await this.record(u, v, boneType, owned ? 'own' : 'square', charged);
    return this.result(v, boneType, await this.forPlan(u, z), charged);
  }

  /**
   * The zip this user's plan may have (issue 15.4): motion files of formats the plan does not allow (the BVH beside
   * a Mixamo FBX for a free plan) are left out; made once per stored zip and plan, then kept beside it.
   */
  private async forPlan(u: UserRecord, z: StoredZip): Promise<StoredZip> {
    if (isAdmin(u)) return z;
    const plan = planOf(u, this.deps.clock.now());
    const formats = PLAN_LIMITS[plan].formats;
    if (formats === 'all') return z;
    const key = `${z.key.replace(/\.zip$/, '')}.${plan}.${z.size}.zip`;
    const have = await this.deps.storage.stat(key);
    if (have) return { ...z, key, size: have.size };
    const filtered = zipForPlan(await this.deps.storage.getBytes(z.key), (f) => formats.includes(f));
    if (!filtered) return z;
    await this.deps.storage.put(key, filtered.bytes, { contentType: 'application/zip' });
    return { ...z, key, size: filtered.bytes.byteLength };
  }

  private async record(
    u: UserRecord,
    v: VideoRecord,
    boneType: string,
    kind: 'own' | 'square' | 'lower' | 'bulk',
    charged: number,
  ) {
    const now = this.deps.clock.now();
    await this.deps.store.repos.videos.addDownload({
      videoId: v.id,
      userId: u.id,
      boneType,
      kind,
      charged,
      createdAt: now,
    });
    await this.deps.store.repos.videos.incrementDownloads(v.id);
  }

  private async result(
    v: VideoRecord,
    boneType: string,
    z: StoredZip,
    charged: number,
  ): Promise<MotionDownloadResult> {
    return {
      paths: [
        await this.deps.storage.signedUrl(z.key, {
          expiresInS: this.ttl,
          fileName: z.fileName,
          contentType: 'application/zip',
        }),
      ],
      name: v.name,
      bonetype: boneType,
      motionsName: z.fileName,
      charged,
      expiresIn: this.ttl,
    };
  }

  /**
   * Lower body only (`lowerBodyDownload`): made on first request from the stored clip — by the worker, on the export
   * queue (the request waits for the job) — then kept.
   */
  async lowerBody(u: UserRecord, id: number, boneType: BoneType): Promise<MotionDownloadResult> {
    this.checkFormat(u, boneType);
    const { v, owned, price } = await this.downloadable(u, id);
    let z = v.outputs.lower?.[boneType];
    if (!z || !(await this.deps.storage.exists(z.key))) {
      if (!v.outputs.clipKey) throw new AppError(Codes.REFUSED, Messages.NO_FILE);
      await this.deps.exports.lowerBody(v.id, boneType);
      z = (await this.deps.store.repos.videos.findById(v.id))?.outputs.lower?.[boneType];
      if (!z) throw new AppError(Codes.REFUSED, Messages.NO_FILE);
    }
    const charged = owned ? 0 : await this.pay(u, v, price);
    await this.record(u, v, boneType, 'lower', charged);
    return this.result(v, boneType, await this.forPlan(u, z), charged);
  }

  /** What an export job reads (worker): the video's stored clip, its storage prefix and name. */
  async exportSource(
    videoId: number,
  ): Promise<{ clipKey: string; storagePrefix: string; name: string } | null> {
    const v = await this.deps.store.repos.videos.findById(videoId);
    if (!v?.outputs.clipKey) return null;
    return { clipKey: v.outputs.clipKey, storagePrefix: v.storagePrefix, name: v.name };
  }

  /** An export job stored a lower-body zip (worker): kept with the video for later downloads. */
  async lowerBodyMade(videoId: number, boneType: string, z: StoredZip): Promise<void> {
    await this.deps.store.transaction(async (repos) => {
      const fresh = await repos.videos.findById(videoId);
      if (!fresh) return;
      await repos.videos.update(
        videoId,
        { outputs: { ...fresh.outputs, lower: { ...(fresh.outputs.lower ?? {}), [boneType]: z } } },
        this.deps.clock.now(),
      );
    });
  }

  /** The export queue the worker takes lower-body jobs from. */
  get exportQueue() {
    return this.deps.exports.exportQueue;
  }

  /** Bulk download: one zip holding each video's zip of `boneType`; square videos are paid for once each. */
  async bulk(
    u: UserRecord,
    ids: number[],
    boneType: BoneType,
  ): Promise<MotionDownloadResult & { count: number }> {
    if (ids.length === 0 || ids.length > 20)
      throw new AppError(Codes.PARAMETER_ERROR, 'give 1 to 20 video ids');
    this.checkFormat(u, boneType);
    const items = await Promise.all([...new Set(ids)].map((id) => this.downloadable(u, id)));
    for (const it of items) {
      if (!it.v.outputs.zips?.[boneType])
        throw new AppError(Codes.REFUSED, `${Messages.NO_FILE} (${it.v.id})`);
    }
    const due = items.reduce((s, it) => s + it.price, 0);
    const balance = await this.deps.coins.balance(u.id, 'V');
    if (balance < due) {
      // Cheaper to refuse up front than to charge half of the list.
      const unpaid = await Promise.all(
        items.map(async (it) =>
          it.price > 0 && !(await this.deps.store.repos.ledger.findByRef(this.purchaseRef(it.v.id, u.id)))
            ? it.price
            : 0,
        ),
      );
      if (balance < unpaid.reduce((a, b) => a + b, 0))
        throw new AppError(Codes.REFUSED, Messages.INSUFFICIENT_V);
    }
    let charged = 0;
    const entries: { name: string; data: Uint8Array }[] = [];
    for (const it of items) {
      const z = await this.forPlan(u, it.v.outputs.zips![boneType]!);
      charged += it.owned ? 0 : await this.pay(u, it.v, it.price);
      entries.push({ name: `${it.v.serialNo}_${z.fileName}`, data: await this.deps.storage.getBytes(z.key) });
      await this.record(u, it.v, boneType, 'bulk', it.owned ? 0 : it.price);
    }
    const bytes = zip(entries);
    const day = (t: number) => new Date(t).toISOString().slice(0, 10).replace(/-/g, '');
    const now = this.deps.clock.now();
    const key = `bulk/${day(now)}/u${u.id}/${randomUUID()}.zip`;
    // Bundles are only reachable through 5-minute URLs: drop those of earlier days (best effort).
    for (let d = 2; d <= 8; d++)
      void this.deps.storage.deletePrefix(`bulk/${day(now - d * 86_400_000)}`).catch(() => {});
    const fileName = `motions_${slug(boneType)}_${items.length}.zip`;
    await this.deps.storage.put(key, bytes, { contentType: 'application/zip' });
    return {
      paths: [
        await this.deps.storage.signedUrl(key, {
          expiresInS: this.ttl,
          fileName,
          contentType: 'application/zip',
        }),
      ],
      name: fileName,
      bonetype: boneType,
      motionsName: fileName,
      charged,
      expiresIn: this.ttl,
      count: items.length,
    };
  }

  /** `pose_url`: the tracks document for the repair editor (owner only). */
  async poseUrl(u: UserRecord, id: number) {
    const v = await this.deps.videos.owned(u, id, true);
    if (!v.outputs.tracksKey) throw new AppError(Codes.REFUSED, Messages.NO_FILE);
    return {
      url: await this.deps.storage.signedUrl(v.outputs.tracksKey, {
        expiresInS: 1800,
        contentType: 'application/json',
      }),
      expiresIn: 1800,
    };
  }

  /** What a made video offers (`GET /motion/video/{id}`). */
  async info(u: UserRecord, id: number) {
    const v = await this.deps.videos.visible(u, id);
    const plan = planOf(u, this.deps.clock.now());
    const zips = Object.entries(v.outputs.zips ?? {}).map(([boneType, z]) => ({
      boneType,
      format: BONE_TYPE_FORMAT[boneType] ?? 'fbx',
      fileName: z.fileName,
      size: z.size,
      allowed: isAdmin(u) || formatAllowed(plan, boneType),
    }));
    return {
      id: v.id,
      status: v.status,
      boneType: v.boneType,
      frameCount: v.outputs.frameCount ?? null,
      fps: v.outputs.fps ?? null,
      zips,
      warnings: v.userId === u.id ? (v.outputs.warnings ?? []) : [],
    };
  }

  /** Whether the user may have this video's sellable files: owner, administrator, or bought (square). */
  private async entitled(u: UserRecord, v: VideoRecord): Promise<boolean> {
    if (v.userId === u.id || isAdmin(u)) return true;
    return (await this.deps.store.repos.ledger.findByRef(this.purchaseRef(v.id, u.id))) !== undefined;
  }

  /**
   * Preview animation (`/motion/fbx/{id}/anm`, `/motion/vmd/{id}/anm`): the zip a viewer loads — a file the
   * product sells, so only to those who may have it (owner, administrator, buyer) and within their plan's formats
   * (a free plan previews FBX only). `boneType` picks another FBX rig of the same capture; previews record no
   * download. Anyone else previews the clip (`clipUrl`) on the viewer's own figure.
   */
  async preview(u: UserRecord, id: number, kind: 'fbx' | 'vmd', boneType?: BoneType) {
    const v = await this.deps.videos.visible(u, id);
    if (v.status !== VideoStatus.MADE) throw new AppError(Codes.REFUSED, Messages.NO_FILE);
    if (!(await this.entitled(u, v))) throw new AppError(Codes.REFUSED, PreviewMessages.BUY_FIRST);
    let chosen: string;
    if (boneType !== undefined && kind === 'fbx') {
      if (BONE_TYPE_FORMAT[boneType] !== 'fbx') {
        throw new AppError(Codes.PARAMETER_ERROR, `"${boneType}" is not an FBX bone type`);
      }
      chosen = boneType;
    } else {
      chosen = kind === 'vmd' ? 'VMD-TDA' : BONE_TYPE_FORMAT[v.boneType] === 'fbx' ? v.boneType : 'Mixamo';
    }
    this.checkFormat(u, chosen);
    const stored = v.outputs.zips?.[chosen];
    if (!stored) throw new AppError(Codes.REFUSED, Messages.NO_FILE);
    const z = await this.forPlan(u, stored);
    return {
      url: await this.deps.storage.signedUrl(z.key, { expiresInS: this.ttl, contentType: 'application/zip' }),
      boneType: chosen,
      expiresIn: this.ttl,
    };
  }

  /**
   * The clip a viewer draws (`mocap-motion` JSON, kept in time with the source video). Owner, administrator and
   * buyer get the solved clip; anyone else who may see the video (square) gets a preview clip made once from it:
   * at most PREVIEW_FPS frames per second (the viewer interpolates), values rounded to 1 mm / 1e-3, no face —
   * enough to watch, not the motion the product sells.
   */
  async clipUrl(u: UserRecord, id: number) {
    const v = await this.deps.videos.visible(u, id);
    if (v.status !== VideoStatus.MADE || !v.outputs.clipKey)
      throw new AppError(Codes.REFUSED, Messages.NO_FILE);
    const key = (await this.entitled(u, v))
      ? v.outputs.clipKey
      : await this.previewClip(v, v.outputs.clipKey);
    return {
      url: await this.deps.storage.signedUrl(key, { expiresInS: this.ttl, contentType: 'application/json' }),
      expiresIn: this.ttl,
    };
  }

  private async previewClip(v: VideoRecord, clipKey: string): Promise<string> {
    const key = `${v.storagePrefix}/preview/clip_${PREVIEW_FPS}fps.json`;
    if (await this.deps.storage.exists(key)) return key;
    const doc = JSON.parse((await this.deps.storage.getBytes(clipKey)).toString('utf8'));
    await this.deps.storage.put(key, Buffer.from(JSON.stringify(previewClipDoc(doc))), {
      contentType: 'application/json',
    });
    return key;
  }

  /** Whether the user downloaded (or bought) this video (`has_download`). */
  async hasDownload(u: UserRecord, id: number) {
    const v = await this.deps.store.repos.videos.findById(id);
    if (!v) throw new AppError(Codes.NOT_FOUND, 'video not found');
    const downloads = await this.deps.store.repos.videos.downloadsOf(u.id, id);
    const purchased =
      (await this.deps.store.repos.ledger.findByRef(this.purchaseRef(id, u.id))) !== undefined;
    return {
      hasDownload: downloads.length > 0,
      purchased,
      count: downloads.length,
      boneTypes: [...new Set(downloads.map((d) => d.boneType))],
    };
  }

  async regenCount(u: UserRecord, id: number) {
    const v = await this.deps.videos.owned(u, id);
    return {
      count: v.regenCount,
      free: Math.max(0, FREE_REGENS - v.regenCount),
      remakeCount: v.remakeCount,
      freeRemakes: v.freeRemakes,
      repairCount: v.repairCount,
    };
  }
}
