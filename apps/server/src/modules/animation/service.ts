/**
 * The animation library (issue 22): ready-made animations on the canonical skeleton that users browse by
 * category/tag/keyword, preview in 3D (the clip as mocap-motion JSON through a signed URL), collect, and buy
 * once to download as any bone type zip (the same `exportBoneType` packaging the video downloads use);
 * administrators publish, hide and delete (`manageAnimation`).
 *
 * Seed: the shipped CMU dance takes (`@mocap/dance`'s library, CMU subject 05 — the licence lets products made
 * with it ship), stored once per database (source `cmu` + the take's name; seeding again adds nothing).
 *
 * Prices (stated here; the spec bills a square download 1 V per second): an animation costs 1 V coin per second
 * of motion, rounded up, charged once per user with a ledger row in the same transaction as the purchase row;
 * every bone type downloads free afterwards. Company accounts pay the same in CV. Bone types by plan as for
 * videos (free plan: FBX bone types only). Zips are made on first request per bone type by the worker (a job on
 * the export queue, like the lower-body zips; the request waits for it) and kept in storage under
 * `animation/<id>/zips/`.
 */
import { AppError, Codes, Messages } from '../../errors.ts';
import type { Clock, ObjectStorage, Page, UserRecord } from '../../ports.ts';
import { type CoinService, squareDownloadCost } from '../coins/service.ts';
import { BONE_TYPE_FORMAT, formatAllowed, planOf, UploadMessages } from '../video/limits.ts';
import type {
  AnimationAssetsPort,
  AnimationExportPort,
  AnimationExportSource,
  AnimationQuery,
  AnimationRecord,
  AnimationRepo,
  AnimationStore,
  AnimationVideosPort,
  NewAnimation,
  ShippedAnimation,
} from './ports.ts';
import { pictureKeyOf } from './ports.ts';

export type {
  AnimationAssetsPort,
  AnimationExportPort,
  AnimationExportSource,
  AnimationQuery,
  AnimationRecord,
  AnimationRepo,
  NewAnimation,
  ShippedAnimation,
};

/** Refusals of sharing a capture to the library (ours; the spec is silent). */
export const ShareMessages = {
  NOT_MADE: 'only a made capture can be shared as an animation',
  NOT_IN_SQUARE: 'share the video to the square first',
  ALREADY: 'this video is already in the animation library',
} as const;

/** 2 = deleted by an administrator: the row stays (so the seed does not bring it back), its files go. */
export const AnimationStatus = { HIDDEN: 0, PUBLISHED: 1, DELETED: 2 } as const;

export interface AnimationView {
  id: number;
  name: string;
  category: string;
  tags: string[];
  duration: number;
  frameCount: number;
  fps: number;
  price: number;
  currency: string;
  status: number;
  downloads: number;
  credit: string;
  collected: boolean;
  purchased: boolean;
  /** Signed URL of the card's picture (SVG, rendered from the clip). */
  picture: string;
  createAt: number;
}

export class AnimationService {
  private seeded: Promise<number> | null = null;

  constructor(
    private readonly deps: {
      store: AnimationStore;
      coins: CoinService;
      storage: ObjectStorage;
      assets: AnimationAssetsPort;
      exports: AnimationExportPort;
      /** Captures their owners share (absent: sharing is refused). */
      videos?: AnimationVideosPort;
      clock: Clock;
    },
  ) {}

  private get repo(): AnimationRepo {
    return this.deps.store.repos.animation;
  }

  /** Stores the shipped clips not stored yet (idempotent); returns how many were added. */
  seed(): Promise<number> {
    this.seeded ??= this.seedNow().catch((e) => {
      this.seeded = null;
      throw e;
    });
    return this.seeded;
  }

  private async seedNow(): Promise<number> {
    let added = 0;
    for (const s of this.deps.assets.shipped()) {
      const clipKey = `animation/cmu/${s.ref}.json`;
      const pictureKey = pictureKeyOf(clipKey);
      const have = await this.repo.findBySource('cmu', s.ref);
      if (have) {
        // Stored before pictures existed: draw it once (a deleted take keeps none).
        if (have.status !== AnimationStatus.DELETED && !(await this.deps.storage.stat(pictureKey)))
          await this.deps.storage.put(pictureKey, this.deps.assets.picture(s.clipJson), {
            contentType: 'image/svg+xml',
          });
        continue;
      }
      await this.deps.storage.put(clipKey, s.clipJson, { contentType: 'application/json' });
      await this.deps.storage.put(pictureKey, this.deps.assets.picture(s.clipJson), {
        contentType: 'image/svg+xml',
      });
      const durationMs = Math.round((s.frameCount / s.fps) * 1000);
      try {
        await this.repo.create({
          name: s.name,
          category: s.category,
          tags: s.tags,
          source: 'cmu',
          sourceRef: s.ref,
          credit: s.credit,
          clipKey,
          frameCount: s.frameCount,
          fps: s.fps,
          durationMs,
          price: squareDownloadCost(durationMs / 1000),
          status: AnimationStatus.PUBLISHED,
          createdAt: this.deps.clock.now(),
        });
        added++;
      } catch (e) {
        // Another process seeded the same take at the same moment (unique source + ref): nothing lost.
        if (!(await this.repo.findBySource('cmu', s.ref))) throw e;
      }
    }
    return added;
  }

  private async views(u: UserRecord | null, list: AnimationRecord[]): Promise<AnimationView[]> {
    const ids = list.map((a) => a.id);
    const collected = u ? await this.repo.collectedOf(u.id, ids) : new Set<number>();
    const purchased = u ? await this.repo.purchasedOf(u.id, ids) : new Set<number>();
    const pictures = await Promise.all(
      list.map((a) =>
        this.deps.storage.signedUrl(pictureKeyOf(a.clipKey), {
          expiresInS: 1800,
          contentType: 'image/svg+xml',
        }),
      ),
    );
    return list.map((a, i) => ({
      id: a.id,
      name: a.name,
      category: a.category,
      tags: a.tags,
      duration: a.durationMs / 1000,
      frameCount: a.frameCount,
      fps: a.fps,
      price: a.price,
      currency: u?.type === 2 ? 'CV' : 'V',
      status: a.status,
      downloads: a.downloads,
      credit: a.credit,
      collected: collected.has(a.id),
      purchased: purchased.has(a.id),
      picture: pictures[i]!,
      createAt: a.createdAt,
    }));
  }

  /** center/search: published animations by keyword, category, tag; `collected` = only my collected ones. */
  async search(
    u: UserRecord,
    q: { page: number; size: number; keyword?: string; category?: string; tag?: string; collected?: boolean },
  ): Promise<Page<AnimationView> & { categories: { category: string; count: number }[] }> {
    await this.seed();
    const page = await this.repo.list({
      page: q.page,
      size: q.size,
      keyword: q.keyword?.trim() || undefined,
      category: q.category || undefined,
      tag: q.tag || undefined,
      statuses: [AnimationStatus.PUBLISHED],
      collectedBy: q.collected ? u.id : undefined,
    });
    return {
      ...page,
      list: await this.views(u, page.list),
      categories: await this.repo.categories([AnimationStatus.PUBLISHED]),
    };
  }

  private async published(id: number): Promise<AnimationRecord> {
    await this.seed();
    const a = await this.repo.findById(id);
    if (!a || a.status !== AnimationStatus.PUBLISHED)
      throw new AppError(Codes.NOT_FOUND, 'this animation does not exist or was taken down');
    return a;
  }

  /** One animation with the signed URL of its clip (the 3D preview; free). */
  async detail(u: UserRecord, id: number): Promise<AnimationView & { clip: string }> {
    const a = await this.published(id);
    const [view] = await this.views(u, [a]);
    const clip = await this.deps.storage.signedUrl(a.clipKey, {
      expiresInS: 1800,
      contentType: 'application/json',
    });
    return { ...view!, clip };
  }

  async collect(u: UserRecord, id: number, on: boolean): Promise<AnimationView> {
    const a = await this.published(id);
    await this.repo.collect(u.id, a.id, on, this.deps.clock.now());
    return (await this.views(u, [a]))[0]!;
  }

  /**
   * Download one bone type: bought once (price in V, CV for company accounts, a ledger row and the purchase in
   * one transaction; a second purchase of the same animation is never charged), then a signed URL of the zip.
   */
  async download(
    u: UserRecord,
    id: number,
    boneType: string,
  ): Promise<{ paths: string[]; name: string; bonetype: string; motionsName: string[]; charged: number }> {
    const a = await this.published(id);
    if (!BONE_TYPE_FORMAT[boneType])
      throw new AppError(Codes.PARAMETER_ERROR, `unknown bone type "${boneType}"`);
    const plan = planOf(u, this.deps.clock.now());
    if (!formatAllowed(plan, boneType)) {
      throw new AppError(
        Codes.REFUSED,
        plan === 'free' ? UploadMessages.FREE_FBX_ONLY : Messages.PAID_FEATURE,
      );
    }
    let charged = 0;
    if (!(await this.repo.purchasedOf(u.id, [a.id])).has(a.id)) {
      const currency = u.type === 2 ? ('CV' as const) : ('V' as const);
      const ref = `animation:${a.id}:u${u.id}`;
      charged = await this.deps.store.transaction(async (r) => {
        const res = await this.deps.coins.changeIn(r, u.id, -a.price, 'animation_purchase', ref, {
          currency,
          note: `animation ${a.id} ${a.name}`,
          ...(currency === 'CV' ? { insufficientMessage: '你的CV币余额不足,无法制作视频' } : {}),
        });
        if (res.duplicate) return 0;
        await r.animation.addPurchase({
          userId: u.id,
          animationId: a.id,
          charged: a.price,
          chargeRef: ref,
          createdAt: this.deps.clock.now(),
        });
        return a.price;
      });
    }
    const zip = a.zips[boneType] ?? (await this.zipOf(a, boneType));
    await this.repo.addDownload(a.id);
    const url = await this.deps.storage.signedUrl(zip.key, {
      fileName: zip.fileName,
      contentType: 'application/zip',
      expiresInS: 300,
    });
    return { paths: [url], name: a.name, bonetype: boneType, motionsName: [zip.fileName], charged };
  }

  /** Has the worker make the zip (an export job), then reads what it recorded. */
  private async zipOf(a: AnimationRecord, boneType: string) {
    await this.deps.exports.zip(a.id, boneType);
    const zip = (await this.repo.findById(a.id))?.zips[boneType];
    if (!zip) throw new AppError(Codes.INTERNAL, `the ${boneType} file of animation ${a.id} was not made`);
    return zip;
  }

  /**
   * `upload`: the owner of a made capture on the square shares it to the library as an animation. Its clip is copied
   * (the animation outlives the video), a picture drawn, priced as the library (1 V per second; its owner has it
   * free); it stays hidden until an administrator publishes it (manageAnimation). One animation per video.
   */
  async share(u: UserRecord, videoId: number): Promise<AnimationView> {
    const v = await this.deps.videos?.find(videoId);
    if (!v || v.userId !== u.id) throw new AppError(Codes.NOT_FOUND, 'video not found');
    if (!v.made || !v.clipKey) throw new AppError(Codes.REFUSED, ShareMessages.NOT_MADE);
    if (!v.inSquare) throw new AppError(Codes.REFUSED, ShareMessages.NOT_IN_SQUARE);
    if (await this.repo.findBySource('square', String(v.id)))
      throw new AppError(Codes.REFUSED, ShareMessages.ALREADY);
    const clipJson = (await this.deps.storage.getBytes(v.clipKey)).toString('utf8');
    const info = this.deps.assets.clipInfo(clipJson);
    if (!info || info.frameCount < 2) throw new AppError(Codes.REFUSED, ShareMessages.NOT_MADE);
    const clipKey = `animation/square/${v.id}.json`;
    await this.deps.storage.put(clipKey, clipJson, { contentType: 'application/json' });
    await this.deps.storage.put(pictureKeyOf(clipKey), this.deps.assets.picture(clipJson), {
      contentType: 'image/svg+xml',
    });
    const durationMs = Math.round((info.frameCount / info.fps) * 1000);
    const a = await this.repo.create({
      name: v.name,
      category: 'capture',
      tags: ['capture', 'square'],
      source: 'square',
      sourceRef: String(v.id),
      credit: 'Shared by its owner from the square',
      clipKey,
      frameCount: info.frameCount,
      fps: info.fps,
      durationMs,
      price: squareDownloadCost(durationMs / 1000),
      status: AnimationStatus.HIDDEN,
      createdAt: this.deps.clock.now(),
    });
    // The owner has it already: recorded as bought for nothing (downloads free, no ledger row).
    await this.repo.addPurchase({
      userId: u.id,
      animationId: a.id,
      charged: 0,
      chargeRef: `animation:${a.id}:u${u.id}:own`,
      createdAt: this.deps.clock.now(),
    });
    return (await this.views(u, [a]))[0]!;
  }

  // ---------------------------------------------------------------- the worker's export jobs

  /** The stored clip of an animation not deleted (null: nothing to export). */
  async exportSource(id: number): Promise<AnimationExportSource | null> {
    const a = await this.repo.findById(id);
    if (!a || a.status === AnimationStatus.DELETED) return null;
    return { clipKey: a.clipKey, name: a.sourceRef };
  }

  /** Records a zip the worker stored. */
  async zipMade(
    id: number,
    boneType: string,
    zip: { key: string; fileName: string; size: number },
  ): Promise<void> {
    await this.repo.setZip(id, boneType, zip, this.deps.clock.now());
  }

  // ---------------------------------------------------------------- administrators (manageAnimation)

  async adminList(q: {
    page: number;
    size: number;
    keyword?: string;
    category?: string;
    status?: number;
  }): Promise<Page<AnimationView>> {
    await this.seed();
    const page = await this.repo.list({
      page: q.page,
      size: q.size,
      keyword: q.keyword?.trim() || undefined,
      category: q.category || undefined,
      statuses: q.status === undefined ? [AnimationStatus.HIDDEN, AnimationStatus.PUBLISHED] : [q.status],
    });
    return { ...page, list: await this.views(null, page.list) };
  }

  /** Publish (true) or hide (false). */
  async adminPublish(id: number, published: boolean): Promise<AnimationView> {
    const cur = await this.repo.findById(id);
    if (!cur || cur.status === AnimationStatus.DELETED)
      throw new AppError(Codes.NOT_FOUND, 'animation not found');
    const ok = await this.repo.setStatus(
      id,
      published ? AnimationStatus.PUBLISHED : AnimationStatus.HIDDEN,
      this.deps.clock.now(),
    );
    if (!ok) throw new AppError(Codes.NOT_FOUND, 'animation not found');
    return (await this.views(null, [(await this.repo.findById(id))!]))[0]!;
  }

  /**
   * Deletes animations: their files (clip and zips) are removed and they leave every list; the row stays marked
   * deleted so that the seed never brings a deleted take back.
   */
  async adminDelete(ids: number[]): Promise<{ deleted: number[] }> {
    const deleted: number[] = [];
    for (const id of ids) {
      const a = await this.repo.findById(id);
      if (!a || a.status === AnimationStatus.DELETED) continue;
      await this.repo.setStatus(id, AnimationStatus.DELETED, this.deps.clock.now());
      await this.deps.storage.delete(a.clipKey).catch(() => {});
      await this.deps.storage.delete(pictureKeyOf(a.clipKey)).catch(() => {});
      await this.deps.storage.deletePrefix(`animation/${a.id}/`).catch(() => {});
      deleted.push(id);
    }
    if (deleted.length === 0) throw new AppError(Codes.NOT_FOUND, 'animation not found');
    return { deleted };
  }
}
