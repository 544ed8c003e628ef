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

import { randomUUID } from 'node:crypto';
import type { Animation } from '@mocap/contracts';
import { squareDownloadCost } from '@mocap/contracts';
import { zip as zipOfEntries } from '@mocap/motion';
import { AppError, Codes, Messages } from '../../errors.ts';
import type { Clock, ObjectStorage, Page, UserRecord } from '../../ports.ts';
import type { CoinService } from '../coins/service.ts';
import { assertBoneTypeFor, formatAllowed, planOf } from '../video/limits.ts';
import type {
  AnimationAssetsPort,
  AnimationExportPort,
  AnimationExportSource,
  AnimationRecord,
  AnimationRepo,
  AnimationStore,
  AnimationVideosPort,
} from './ports.ts';
import { pictureKeyOf } from './ports.ts';

/** Refusals of sharing a capture to the library (ours; the spec is silent). */
export const ShareMessages = {
  NOT_MADE: 'only a made capture can be shared as an animation',
  NOT_IN_SQUARE: 'share the video to the square first',
  ALREADY: 'this video is already in the animation library',
} as const;

/** Refusals of `redone` (ours; the spec is silent). */
export const RedoneMessages = {
  OWNER_ONLY: 'only the owner of a shared capture can redo it',
  SOURCE_GONE: 'the capture this animation was shared from is gone or not made',
  TAKE_GONE: 'this take is no longer shipped with the product',
} as const;

/** Most animations one `zip` bundle holds. */
export const BUNDLE_MAX = 20;

/** 2 = deleted by an administrator: the row stays (so the seed does not bring it back), its files go. */
export const AnimationStatus = { HIDDEN: 0, PUBLISHED: 1, DELETED: 2 } as const;

/** An animation as the API answers it (the contracts' card). */
export type AnimationView = Animation;

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
    const owners = await Promise.all(list.map((a) => (u ? this.ownerOf(a) : null)));
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
      mine: !!u && owners[i] === u.id,
      createAt: a.createdAt,
    }));
  }

  /** center/search: published animations by keyword, category, tag; `collected` = only my collected ones. */
  async search(
    u: UserRecord,
    q: { page: number; size: number; keyword?: string; category?: string; tag?: string; collected?: boolean },
  ): Promise<Page<AnimationView> & { categories: { category: string; count: number }[] }> {
    const page = await this.page(u, q, [AnimationStatus.PUBLISHED], q.collected ? u.id : undefined);
    return { ...page, categories: await this.repo.categories([AnimationStatus.PUBLISHED]) };
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
    this.checkBoneType(u, boneType);
    const charged = await this.buy(u, a);
    const zip = a.zips[boneType] ?? (await this.zipOf(a, boneType));
    await this.repo.addDownload(a.id);
    const url = await this.deps.storage.signedUrl(zip.key, {
      fileName: zip.fileName,
      contentType: 'application/zip',
      expiresInS: 300,
    });
    return { paths: [url], name: a.name, bonetype: boneType, motionsName: [zip.fileName], charged };
  }

  /** A known bone type the user's plan may download (free plan: FBX bone types only, as for videos). */
  private checkBoneType(u: UserRecord, boneType: string): void {
    assertBoneTypeFor(u, boneType, this.deps.clock.now());
  }

  private currencyOf(u: UserRecord) {
    return u.type === 2 ? ('CV' as const) : ('V' as const);
  }

  private insufficientMessage(u: UserRecord): string {
    return this.currencyOf(u) === 'CV' ? '你的CV币余额不足,无法制作视频' : Messages.INSUFFICIENT_V;
  }

  /**
   * Buys an animation once: the charge (V, CV for company accounts) with its ledger row and the purchase row in one
   * transaction; nothing when bought already. Returns what was charged.
   */
  private async buy(u: UserRecord, a: AnimationRecord): Promise<number> {
    if ((await this.repo.purchasedOf(u.id, [a.id])).has(a.id)) return 0;
    const currency = this.currencyOf(u);
    const ref = `animation:${a.id}:u${u.id}`;
    return this.deps.store.transaction(async (r) => {
      const res = await this.deps.coins.changeIn(r, u.id, -a.price, 'animation_purchase', ref, {
        currency,
        note: `animation ${a.id} ${a.name}`,
        insufficientMessage: this.insufficientMessage(u),
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

  /**
   * `zip`: one zip holding the bone type's zip of each animation given (up to 20, e.g. my collected ones). Those not
   * bought yet are bought (each once, as a download would); when the coins do not cover them all nothing is charged.
   * The bundle is kept under `animation/bundles/<day>/` and reached through a 5-minute URL; earlier days' bundles go.
   */
  async bundle(
    u: UserRecord,
    ids: number[],
    boneType: string,
  ): Promise<{
    paths: string[];
    name: string;
    bonetype: string;
    motionsName: string[];
    charged: number;
    count: number;
  }> {
    const unique = [...new Set(ids)];
    if (unique.length === 0 || unique.length > BUNDLE_MAX)
      throw new AppError(Codes.PARAMETER_ERROR, `give 1 to ${BUNDLE_MAX} animation ids`);
    this.checkBoneType(u, boneType);
    const list: AnimationRecord[] = [];
    for (const id of unique) list.push(await this.published(id));
    const bought = await this.repo.purchasedOf(
      u.id,
      list.map((a) => a.id),
    );
    const due = list.reduce((s, a) => s + (bought.has(a.id) ? 0 : a.price), 0);
    // Cheaper to refuse up front than to charge half of the list.
    if (due > 0 && (await this.deps.coins.balance(u.id, this.currencyOf(u))) < due)
      throw new AppError(Codes.REFUSED, this.insufficientMessage(u));
    let charged = 0;
    const entries: { name: string; data: Uint8Array }[] = [];
    const names = new Set<string>();
    for (const a of list) {
      charged += await this.buy(u, a);
      const z = a.zips[boneType] ?? (await this.zipOf(a, boneType));
      let name = z.fileName;
      for (let k = 2; names.has(name); k++) name = z.fileName.replace(/(\.zip)?$/, `_${k}$1`);
      names.add(name);
      entries.push({ name, data: await this.deps.storage.getBytes(z.key) });
      await this.repo.addDownload(a.id);
    }
    const now = this.deps.clock.now();
    const day = (t: number) => new Date(t).toISOString().slice(0, 10).replace(/-/g, '');
    for (let d = 2; d <= 8; d++)
      void this.deps.storage.deletePrefix(`animation/bundles/${day(now - d * 86_400_000)}`).catch(() => {});
    const key = `animation/bundles/${day(now)}/u${u.id}/${randomUUID()}.zip`;
    const fileName = `animations_${boneType.replace(/[^A-Za-z0-9.-]+/g, '_')}_${list.length}.zip`;
    await this.deps.storage.put(key, zipOfEntries(entries), { contentType: 'application/zip' });
    const url = await this.deps.storage.signedUrl(key, {
      fileName,
      contentType: 'application/zip',
      expiresInS: 300,
    });
    return {
      paths: [url],
      name: fileName,
      bonetype: boneType,
      motionsName: [fileName],
      charged,
      count: list.length,
    };
  }

  /** An animation this user may see: published, or a capture they shared that still waits for an administrator. */
  private async visible(u: UserRecord, id: number): Promise<AnimationRecord> {
    await this.seed();
    const a = await this.repo.findById(id);
    if (a && a.status === AnimationStatus.PUBLISHED) return a;
    if (a && a.status === AnimationStatus.HIDDEN && (await this.ownerOf(a)) === u.id) return a;
    throw new AppError(Codes.NOT_FOUND, 'this animation does not exist or was taken down');
  }

  /** The user who shared a square capture (null for the shipped takes, or when the video is gone). */
  private async ownerOf(a: AnimationRecord): Promise<number | null> {
    if (a.source !== 'square') return null;
    return (await this.deps.videos?.find(Number(a.sourceRef)))?.userId ?? null;
  }

  /** `pictures`: the signed URL of the card's picture (SVG, four poses drawn from the clip). */
  async pictures(u: UserRecord, id: number): Promise<{ picture: string }> {
    const a = await this.visible(u, id);
    return {
      picture: await this.deps.storage.signedUrl(pictureKeyOf(a.clipKey), {
        expiresInS: 1800,
        contentType: 'image/svg+xml',
      }),
    };
  }

  /**
   * `cos_url`: signed URLs of the clip (the 3D preview, free) and the picture, and — once bought — of every bone type
   * zip already made that the user's plan may download (the files a buyer already fetched, without a new request).
   */
  async urls(
    u: UserRecord,
    id: number,
  ): Promise<{ clip: string; picture: string; zips: { boneType: string; url: string; fileName: string }[] }> {
    const a = await this.visible(u, id);
    const clip = await this.deps.storage.signedUrl(a.clipKey, {
      expiresInS: 1800,
      contentType: 'application/json',
    });
    const { picture } = await this.pictures(u, id);
    const zips: { boneType: string; url: string; fileName: string }[] = [];
    if ((await this.repo.purchasedOf(u.id, [a.id])).has(a.id)) {
      const plan = planOf(u, this.deps.clock.now());
      for (const [boneType, z] of Object.entries(a.zips).sort(([x], [y]) => x.localeCompare(y))) {
        if (!formatAllowed(plan, boneType)) continue;
        zips.push({
          boneType,
          fileName: z.fileName,
          url: await this.deps.storage.signedUrl(z.key, {
            fileName: z.fileName,
            contentType: 'application/zip',
            expiresInS: 300,
          }),
        });
      }
    }
    return { clip, picture, zips };
  }

  /**
   * `redone`: an animation made again from its source. The owner of a shared capture takes the capture's current
   * clip (after a remake or a 2D repair of the video); a published one goes back to hidden until an administrator
   * publishes it again (the motion changed). An administrator (`adminRedone`) may redo any animation, keeping its
   * status; a shipped take is made again from the take the product ships. Either way the picture is drawn again
   * and the bone type zips made from the old clip are dropped (made anew on the next download); frames, duration
   * and price follow the new clip; who bought it keeps it.
   */
  async redone(u: UserRecord, id: number): Promise<AnimationView> {
    const a = await this.repo.findById(id);
    if (!a || a.status === AnimationStatus.DELETED)
      throw new AppError(Codes.NOT_FOUND, 'animation not found');
    if ((await this.ownerOf(a)) !== u.id) {
      // Another's hidden animation is not shown to exist.
      if (a.status !== AnimationStatus.PUBLISHED) throw new AppError(Codes.NOT_FOUND, 'animation not found');
      throw new AppError(Codes.REFUSED, RedoneMessages.OWNER_ONLY);
    }
    return this.remake(u, a, AnimationStatus.HIDDEN);
  }

  /** `redone` by an administrator (manageAnimation): any animation, status kept. */
  async adminRedone(id: number): Promise<AnimationView> {
    const a = await this.repo.findById(id);
    if (!a || a.status === AnimationStatus.DELETED)
      throw new AppError(Codes.NOT_FOUND, 'animation not found');
    return this.remake(null, a, a.status);
  }

  private async remake(u: UserRecord | null, a: AnimationRecord, status: number): Promise<AnimationView> {
    let clipJson: string;
    if (a.source === 'square') {
      const v = await this.deps.videos?.find(Number(a.sourceRef));
      if (!v?.made || !v.clipKey) throw new AppError(Codes.REFUSED, RedoneMessages.SOURCE_GONE);
      try {
        clipJson = (await this.deps.storage.getBytes(v.clipKey)).toString('utf8');
      } catch {
        throw new AppError(Codes.REFUSED, RedoneMessages.SOURCE_GONE);
      }
    } else {
      const take = this.deps.assets.shipped().find((s) => s.ref === a.sourceRef);
      if (!take) throw new AppError(Codes.REFUSED, RedoneMessages.TAKE_GONE);
      clipJson = take.clipJson;
    }
    const info = this.deps.assets.clipInfo(clipJson);
    if (!info || info.frameCount < 2) throw new AppError(Codes.REFUSED, RedoneMessages.SOURCE_GONE);
    await this.deps.storage.put(a.clipKey, clipJson, { contentType: 'application/json' });
    await this.deps.storage.put(pictureKeyOf(a.clipKey), this.deps.assets.picture(clipJson), {
      contentType: 'image/svg+xml',
    });
    await this.deps.storage.deletePrefix(`animation/${a.id}/zips/`).catch(() => {});
    const durationMs = Math.round((info.frameCount / info.fps) * 1000);
    await this.repo.remade(
      a.id,
      {
        frameCount: info.frameCount,
        fps: info.fps,
        durationMs,
        price: squareDownloadCost(durationMs / 1000),
        status,
      },
      this.deps.clock.now(),
    );
    return (await this.views(u, [(await this.repo.findById(a.id))!]))[0]!;
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
    const statuses =
      q.status === undefined ? [AnimationStatus.HIDDEN, AnimationStatus.PUBLISHED] : [q.status];
    return this.page(null, q, statuses);
  }

  /**
   * A page of the library among `statuses` by keyword, category and tag (blank: any), only those `collectedBy`
   * collected when given, as `u` sees them (null: an administrator).
   */
  private async page(
    u: UserRecord | null,
    q: { page: number; size: number; keyword?: string; category?: string; tag?: string },
    statuses: number[],
    collectedBy?: number,
  ): Promise<Page<AnimationView>> {
    await this.seed();
    const page = await this.repo.list({
      page: q.page,
      size: q.size,
      keyword: q.keyword?.trim() || undefined,
      category: q.category || undefined,
      tag: q.tag || undefined,
      statuses,
      collectedBy,
    });
    return { ...page, list: await this.views(u, page.list) };
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
