/**
 * Digital humans (tomokage, issue 24): the user's own rigged character, driven by any motion they made.
 *
 * - Upload: FBX (binary/ASCII), GLB/glTF or VRM 0.x/1.0, checked by content (the file is parsed: a skeleton with
 *   hips, legs and head and a mesh), size-limited by plan (`CHARACTER_LIMITS`), one card per file (md5), at most
 *   `count` characters per plan. The import maps the skeleton to the canonical joints automatically, detects the
 *   rest pose, renders the two pictures (front, three-quarter) and a rest-pose GLB for the 3D preview.
 * - Mapping editor: `redone` re-maps automatically, or saves the user's mapping (every bone must exist, a bone plays
 *   one joint, the 15 required joints must be set).
 * - Apply: a video capture (own, or a square video: charged like a square download, 1 V per second, once per
 *   video and user, shared with the motion downloads), an own music dance or a bought library animation → FBX
 *   with the character's own mesh and materials, GLB, VRMA for VRM characters, and a zip of them; then
 *   `download` / `zip` give signed URLs. Downloading an applied result is free (it was paid for when applied, as
 *   a download is). The files are made by a job of the tomokage queue in the worker (`runApply`, like the other
 *   exports): the request checks and prices, adds the row, enqueues and waits; the worker writes the files and
 *   charges; a job that fails for good removes its row and files (`applyFailed`), nothing charged.
 * - Company accounts have no digital humans (the sidebar hides the button); while the administrator's
 *   `tomoMaintain` flag is on, uploads and applies are refused.
 * - Administrators list, hide and delete characters (`manageTomokage`).
 * Storage: `tomokage/u<user>/<uuid>/` (source.<ext>, front.png, three-quarter.png, preview.glb, apply/<id>/…).
 */

import { createHash, randomUUID } from 'node:crypto';
import { squareDownloadCost } from '@mocap/contracts';
import { AppError, Codes, Messages } from '../../errors.ts';
import {
  type Clock,
  type JobQueue,
  type ObjectStorage,
  type Page,
  PermanentJobError,
  type UserRecord,
} from '../../ports.ts';
import { type CoinService, Reasons } from '../coins/service.ts';
import { MB, type Plan, planOf } from '../video/limits.ts';
import type {
  ApplyOutputs,
  ApplyRecord,
  CharacterInspection,
  MotionKind,
  NewTomokage,
  TomokageApplyJobData,
  TomokagePatch,
  TomokageRecord,
  TomokageRepo,
  TomokageStore,
} from './ports.ts';

export type {
  ApplyOutputs,
  ApplyRecord,
  CharacterInspection,
  MotionKind,
  NewTomokage,
  TomokagePatch,
  TomokageRecord,
  TomokageRepo,
  TomokageStore,
};

/** Size and count limits per plan. */
export const CHARACTER_LIMITS: Record<Plan, { sizeMB: number; count: number }> = {
  free: { sizeMB: 30, count: 3 },
  monthly: { sizeMB: 100, count: 20 },
  yearly: { sizeMB: 200, count: 100 },
  company: { sizeMB: 0, count: 0 },
};

/** Joints a mapping must set (the VRM humanoid's required bones). */
export const REQUIRED_JOINTS = [
  'hips',
  'spine',
  'head',
  'leftUpperArm',
  'leftForearm',
  'leftHand',
  'rightUpperArm',
  'rightForearm',
  'rightHand',
  'leftThigh',
  'leftShin',
  'leftFoot',
  'rightThigh',
  'rightShin',
  'rightFoot',
] as const;

export const TomokageMessages = {
  WRONG_FORMAT: '文件格式错误,请重新选择!',
  NOT_HUMANOID: '未找到人形骨骼,请上传带骨骼的人物模型 (FBX / GLB / VRM)',
  DUPLICATE: '当前文件已存在',
  tooLarge: (mb: number) => `数字人模型大小不能大于${mb}M`,
  tooMany: (n: number) => `当前套餐最多可上传 ${n} 个数字人`,
  MAINTAIN: '数字人功能维护中,请稍后再试',
  COMPANY: '企业账号不提供数字人功能',
  NO_MOTION: '动作尚未制作完成',
  BUY_ANIMATION: '请先在动画库购买该动画',
} as const;

export type EngineFailure = { reason: 'format' | 'not-humanoid'; message: string };

export interface CharacterEngine {
  /** Canonical joint names, in skeleton order. */
  joints: readonly string[];
  sniff(bytes: Uint8Array): string | null;
  /** Import + auto-map + pictures + rest-pose preview. Rejects with an `EngineFailure`. */
  ingest(bytes: Uint8Array): Promise<{
    inspection: CharacterInspection;
    pictures: { front: Uint8Array; threeQuarter: Uint8Array };
    preview: Uint8Array;
  }>;
  inspect(bytes: Uint8Array, mapping?: Record<string, string>): Promise<CharacterInspection>;
  apply(
    bytes: Uint8Array,
    mapping: Record<string, string>,
    clipJson: string,
    name: string,
  ): Promise<{ fbx: Uint8Array; glb: Uint8Array; vrma?: Uint8Array; durationS: number }>;
  zip(files: { name: string; bytes: Uint8Array }[]): Promise<Uint8Array>;
}

/** A motion the user may apply: an own capture or dance, a square video, or a library animation. */
export interface MotionSource {
  kind: MotionKind;
  id: number;
  userId: number;
  name: string;
  made: boolean;
  inSquare: boolean;
  durationMs: number;
  clipKey: string | null;
  /** A library animation the asking user bought (applied free, like an own motion). */
  bought?: boolean;
  /** A library animation's price (coins), to tell the user what buying it costs. */
  price?: number;
}

export interface MotionSources {
  /** `userId`: the asking user (a library animation says whether this user bought it). */
  find(kind: MotionKind, id: number, userId: number): Promise<MotionSource | null>;
  /** The user's own made motions (for the apply picker). */
  mine(userId: number, limit: number): Promise<MotionSource[]>;
}

export interface TomokageView {
  id: number;
  name: string;
  fileName: string;
  format: string;
  sizeBytes: number;
  scheme: string;
  restPose: { kind: string; armDownDeg: number } | null;
  height: number | null;
  stats: CharacterInspection['stats'] | null;
  mapped: number;
  missing: string[];
  absent: string[];
  mappingEdited: boolean;
  collected: boolean;
  hidden: boolean;
  vrm: boolean;
  createAt: number;
}

export interface ApplyView {
  id: number;
  sourceKind: string;
  sourceId: number;
  name: string;
  duration: number;
  formats: string[];
  charged: number;
  createAt: number;
}

export function tomokageView(t: TomokageRecord): TomokageView {
  const info = t.info as Partial<CharacterInspection>;
  return {
    id: t.id,
    name: t.name,
    fileName: t.fileName,
    format: t.format,
    sizeBytes: t.sizeBytes,
    scheme: info.scheme ?? 'unknown',
    restPose: info.restPose ?? null,
    height: info.height ?? null,
    stats: info.stats ?? null,
    mapped: Object.keys(t.mapping).length,
    missing: info.missing ?? [],
    absent: info.absent ?? [],
    mappingEdited: t.mappingEdited,
    collected: t.collected,
    hidden: t.hidden,
    vrm: info.vrm ?? false,
    createAt: t.createdAt,
  };
}

const applyView = (a: ApplyRecord): ApplyView => ({
  id: a.id,
  sourceKind: a.sourceKind,
  sourceId: a.sourceId,
  name: a.name,
  duration: a.durationMs / 1000,
  formats: (['fbx', 'glb', 'vrma'] as const).filter((f) => a.outputs[f]),
  charged: a.charged,
  createAt: a.createdAt,
});

const EXT: Record<string, string> = {
  fbx: 'fbx',
  'fbx-ascii': 'fbx',
  glb: 'glb',
  gltf: 'gltf',
  vrm0: 'vrm',
  vrm1: 'vrm',
};
const isEngineFailure = (e: unknown): e is EngineFailure =>
  !!e && typeof e === 'object' && 'reason' in e && 'message' in e && !(e instanceof Error);

export class TomokageService {
  constructor(
    private readonly deps: {
      store: TomokageStore;
      coins: CoinService;
      storage: ObjectStorage;
      engine: CharacterEngine;
      sources: MotionSources;
      /** The apply jobs (worked by `@mocap/worker`). */
      jobs: {
        apply(applyId: number, price: number): Promise<void>;
        readonly applyQueue: JobQueue<TomokageApplyJobData>;
      };
      clock: Clock;
      /** The administrator's maintenance flag (`/tomokage/checkMaintain`). */
      maintenance: () => Promise<boolean>;
    },
  ) {}

  limits(u: UserRecord) {
    return CHARACTER_LIMITS[planOf(u, this.deps.clock.now())];
  }

  maxUploadBytes(u: UserRecord): number {
    return this.limits(u).sizeMB * MB;
  }

  /** Refuses company accounts and, while the maintenance flag is on, everything that makes files. */
  async assertOpen(u: UserRecord): Promise<void> {
    if (u.type === 2) throw new AppError(Codes.REFUSED, TomokageMessages.COMPANY);
    if (await this.deps.maintenance()) throw new AppError(Codes.REFUSED, TomokageMessages.MAINTAIN);
  }

  /** Creates a character card from the uploaded bytes. Every refusal happens before anything is stored. */
  async upload(
    u: UserRecord,
    fields: { name?: string },
    file: { bytes: Uint8Array; fileName: string },
  ): Promise<TomokageView> {
    await this.assertOpen(u);
    const lim = this.limits(u);
    const name =
      (fields.name ?? '').trim() || file.fileName.replace(/\.[^.]*$/, '').slice(0, 32) || 'character';
    if ([...name].length > 32) throw new AppError(Codes.PARAMETER_ERROR, 'name: at most 32 characters');
    if (file.bytes.length === 0) throw new AppError(Codes.REFUSED, TomokageMessages.WRONG_FORMAT);
    if (file.bytes.length > lim.sizeMB * MB)
      throw new AppError(Codes.REFUSED, TomokageMessages.tooLarge(lim.sizeMB));
    if ((await this.deps.store.repos.tomokage.countByUser(u.id)) >= lim.count)
      throw new AppError(Codes.REFUSED, TomokageMessages.tooMany(lim.count));
    if (!this.deps.engine.sniff(file.bytes)) throw new AppError(Codes.REFUSED, TomokageMessages.WRONG_FORMAT);
    const md5 = await md5Of(file.bytes);
    if (await this.deps.store.repos.tomokage.findByMd5(u.id, md5))
      throw new AppError(Codes.REFUSED, TomokageMessages.DUPLICATE);
    let made: Awaited<ReturnType<CharacterEngine['ingest']>>;
    try {
      made = await this.deps.engine.ingest(file.bytes);
    } catch (e) {
      if (isEngineFailure(e))
        throw new AppError(
          Codes.REFUSED,
          e.reason === 'format' ? TomokageMessages.WRONG_FORMAT : TomokageMessages.NOT_HUMANOID,
          {
            detail: e.message,
          },
        );
      throw e;
    }
    const { mapping, ...info } = made.inspection;
    const prefix = `tomokage/u${u.id}/${randomUUID()}`;
    const fileKey = `${prefix}/source.${EXT[info.format] ?? 'bin'}`;
    const pictures = {
      front: `${prefix}/front.png`,
      threeQuarter: `${prefix}/three-quarter.png`,
      preview: `${prefix}/preview.glb`,
    };
    try {
      await this.deps.storage.put(fileKey, file.bytes, { contentType: 'application/octet-stream' });
      await this.deps.storage.put(pictures.front, made.pictures.front, { contentType: 'image/png' });
      await this.deps.storage.put(pictures.threeQuarter, made.pictures.threeQuarter, {
        contentType: 'image/png',
      });
      await this.deps.storage.put(pictures.preview, made.preview, { contentType: 'model/gltf-binary' });
      const now = this.deps.clock.now();
      const row = await this.deps.store.transaction(async (r) => {
        if ((await r.tomokage.countByUser(u.id)) >= lim.count)
          throw new AppError(Codes.REFUSED, TomokageMessages.tooMany(lim.count));
        return r.tomokage.create({
          userId: u.id,
          name,
          fileName: file.fileName.slice(0, 255),
          format: info.format,
          fileKey,
          storagePrefix: prefix,
          md5,
          sizeBytes: file.bytes.length,
          mapping,
          info,
          pictures,
          createdAt: now,
        });
      });
      return tomokageView(row);
    } catch (e) {
      await this.deps.storage.deletePrefix(prefix).catch(() => 0);
      throw e;
    }
  }

  async owned(u: UserRecord, id: number): Promise<TomokageRecord> {
    const t = await this.deps.store.repos.tomokage.findById(id);
    if (!t || t.userId !== u.id || t.hidden) throw new AppError(Codes.NOT_FOUND, 'digital human not found');
    return t;
  }

  async center(
    u: UserRecord,
    q: { page: number; size: number; keyword?: string; collected?: boolean },
  ): Promise<Page<TomokageView>> {
    const p = await this.deps.store.repos.tomokage.list({
      userId: u.id,
      page: q.page,
      size: q.size,
      ...(q.keyword ? { name: q.keyword } : {}),
      ...(q.collected !== undefined ? { collected: q.collected } : {}),
      includeHidden: false,
    });
    return { ...p, list: p.list.map(tomokageView) };
  }

  /** One character with its skeleton, mapping (for the editor) and its applied motions. */
  async detail(u: UserRecord, id: number) {
    const t = await this.owned(u, id);
    const info = t.info as Partial<CharacterInspection>;
    return {
      ...tomokageView(t),
      joints: [...this.deps.engine.joints],
      required: [...REQUIRED_JOINTS],
      bones: info.bones ?? [],
      mapping: t.mapping,
      method: info.method ?? {},
      warnings: info.warnings ?? [],
      applies: (await this.deps.store.repos.tomokage.applies(t.id)).map(applyView),
    };
  }

  async delete(u: UserRecord, ids: number[]): Promise<{ deleted: number[] }> {
    const deleted: number[] = [];
    for (const id of ids) {
      const t = await this.owned(u, id);
      await this.deps.store.repos.tomokage.delete(t.id);
      await this.deps.storage.deletePrefix(t.storagePrefix).catch(() => 0);
      deleted.push(t.id);
    }
    return { deleted };
  }

  async collect(u: UserRecord, id: number, collected: boolean): Promise<TomokageView> {
    const t = await this.owned(u, id);
    const now = this.deps.clock.now();
    await this.deps.store.repos.tomokage.update(t.id, { collected }, now);
    return tomokageView({ ...t, collected, updatedAt: now });
  }

  /** Re-map: automatically (no mapping given) or the user's mapping from the editor, checked. */
  async redone(u: UserRecord, id: number, mapping?: Record<string, string>) {
    const t = await this.owned(u, id);
    const info = t.info as Partial<CharacterInspection>;
    const bones = new Set((info.bones ?? []).map((b) => b.name));
    if (mapping) {
      const used = new Map<string, string>();
      for (const [joint, bone] of Object.entries(mapping)) {
        if (!this.deps.engine.joints.includes(joint))
          throw new AppError(Codes.PARAMETER_ERROR, `mapping: "${joint}" is not a canonical joint`);
        if (!bones.has(bone))
          throw new AppError(Codes.PARAMETER_ERROR, `mapping: the character has no bone "${bone}"`);
        const other = used.get(bone);
        if (other)
          throw new AppError(
            Codes.PARAMETER_ERROR,
            `mapping: bone "${bone}" is set for both ${other} and ${joint}`,
          );
        used.set(bone, joint);
      }
      // The spine: any one torso joint (a Roblox R15 has a single UpperTorso, mapped as the chest).
      for (const j of REQUIRED_JOINTS)
        if (!mapping[j] && !(j === 'spine' && (mapping.spine1 || mapping.spine2)))
          throw new AppError(Codes.PARAMETER_ERROR, `mapping: ${j} is required`);
    }
    const bytes = new Uint8Array(await this.deps.storage.getBytes(t.fileKey));
    let ins: CharacterInspection;
    try {
      ins = await this.deps.engine.inspect(bytes, mapping);
    } catch (e) {
      if (isEngineFailure(e)) throw new AppError(Codes.REFUSED, e.message);
      throw e;
    }
    const { mapping: m, ...rest } = ins;
    const now = this.deps.clock.now();
    await this.deps.store.repos.tomokage.update(
      t.id,
      { mapping: m, info: rest, mappingEdited: !!mapping },
      now,
    );
    return this.detail(u, t.id);
  }

  private async signed(
    key: string | undefined,
    contentType?: string,
    fileName?: string,
  ): Promise<string | null> {
    if (!key) return null;
    return this.deps.storage.signedUrl(key, {
      expiresInS: 1800,
      ...(contentType ? { contentType } : {}),
      ...(fileName ? { fileName } : {}),
    });
  }

  /** Signed URLs of the pictures. */
  async pictures(u: UserRecord, id: number): Promise<{ front: string | null; threeQuarter: string | null }> {
    const t = await this.owned(u, id);
    return {
      front: await this.signed(t.pictures.front, 'image/png'),
      threeQuarter: await this.signed(t.pictures.threeQuarter, 'image/png'),
    };
  }

  /** cos_url: the uploaded file, the rest-pose preview GLB, and an applied motion's GLB when `applyId` is given. */
  async urls(u: UserRecord, id: number, applyId?: number) {
    const t = await this.owned(u, id);
    let animated: string | null = null;
    if (applyId !== undefined) {
      const a = await this.ownedApply(u, applyId);
      if (a.tomokageId !== t.id) throw new AppError(Codes.NOT_FOUND, 'applied motion not found');
      animated = await this.signed(a.outputs.glb?.key, 'model/gltf-binary');
    }
    return {
      source: (await this.signed(t.fileKey, 'application/octet-stream', t.fileName)) as string,
      preview: await this.signed(t.pictures.preview, 'model/gltf-binary'),
      animated,
    };
  }

  /** The user's motions that can be applied (made captures and dances, bought library animations). */
  async motions(u: UserRecord) {
    return (await this.deps.sources.mine(u.id, 100)).map((s) => ({
      kind: s.kind,
      id: s.id,
      name: s.name,
      duration: s.durationMs / 1000,
    }));
  }

  /** The queue the worker takes apply jobs from. */
  get applyQueue() {
    return this.deps.jobs.applyQueue;
  }

  /**
   * Applies a motion: an own capture or dance (free), a bought library animation (free), or a square video (1 V
   * per second, once per user and video: the same purchase as downloading it). Checked and priced here; the files
   * are made by the worker's job, which charges when they are stored.
   */
  async apply(u: UserRecord, id: number, source: { kind: MotionKind; id: number }) {
    await this.assertOpen(u);
    const t = await this.owned(u, id);
    const s = await this.deps.sources.find(source.kind, source.id, u.id);
    if (!s) throw new AppError(Codes.NOT_FOUND, `${source.kind} not found`);
    // A library animation is applied once bought in the library (the purchase is its licence): then free.
    if (s.kind === 'animation' && !s.bought)
      throw new AppError(Codes.REFUSED, TomokageMessages.BUY_ANIMATION, { price: s.price ?? null });
    const own = s.userId === u.id || (s.kind === 'animation' && s.bought === true);
    if (!own && !(s.kind === 'video' && s.inSquare))
      throw new AppError(Codes.INSUFFICIENT_PERMISSION, `this ${source.kind} is not yours`);
    if (!s.made || !s.clipKey) throw new AppError(Codes.REFUSED, TomokageMessages.NO_MOTION);
    const purchaseRef = `square_download:${s.id}:${u.id}`;
    const bought = !own && (await this.deps.store.repos.ledger.findByRef(purchaseRef)) !== undefined;
    const price = own || bought ? 0 : squareDownloadCost(s.durationMs / 1000);
    if (price > 0) await this.deps.coins.requireBalance(u.id, 'V', price);
    // The row first (its id names the job and the folder; listed once its files are stored), then the job.
    const row = await this.deps.store.repos.tomokage.addApply({
      tomokageId: t.id,
      userId: u.id,
      sourceKind: s.kind,
      sourceId: s.id,
      name: s.name,
      durationMs: s.durationMs,
      outputs: {},
      currency: 'V',
      charged: 0,
      chargeRef: price > 0 ? purchaseRef : null,
      createdAt: this.deps.clock.now(),
    });
    await this.deps.jobs.apply(row.id, price);
    const made = await this.deps.store.repos.tomokage.findApply(row.id);
    if (!made?.outputs.zip) throw new AppError(Codes.INTERNAL, 'the applied motion has no files');
    return { ...applyView(made), charged: made.charged };
  }

  /**
   * The worker's apply job: the character and the motion read from storage, retargeted and written (FBX with the
   * character's mesh, GLB, VRMA for VRM characters, the zip) under `apply/<id>/`, then charged and recorded.
   * A row that is gone (character deleted meanwhile) ends the job without files.
   */
  async runApply(job: TomokageApplyJobData): Promise<{ bytes: number } | { skipped: true }> {
    const a = await this.deps.store.repos.tomokage.findApply(job.applyId);
    if (!a) return { skipped: true };
    if (a.outputs.zip) return { bytes: a.outputs.zip.size };
    const t = await this.deps.store.repos.tomokage.findById(a.tomokageId);
    const s = await this.deps.sources.find(a.sourceKind, a.sourceId, a.userId);
    if (!t || !s?.clipKey) throw new PermanentJobError(`apply ${a.id}: the character or the motion is gone`);
    const clipJson = (await this.deps.storage.getBytes(s.clipKey)).toString('utf8');
    const bytes = new Uint8Array(await this.deps.storage.getBytes(t.fileKey));
    const base = safeName(`${t.name}_${a.name}`);
    let files: Awaited<ReturnType<CharacterEngine['apply']>>;
    try {
      files = await this.deps.engine.apply(bytes, t.mapping, clipJson, base);
    } catch (e) {
      if (isEngineFailure(e)) throw new PermanentJobError(e.message);
      throw e;
    }
    const dir = `${t.storagePrefix}/apply/${a.id}`;
    const outputs: ApplyOutputs = {};
    const list: { name: string; bytes: Uint8Array }[] = [
      { name: `${base}.fbx`, bytes: files.fbx },
      { name: `${base}.glb`, bytes: files.glb },
      ...(files.vrma ? [{ name: `${base}.vrma`, bytes: files.vrma }] : []),
    ];
    for (const f of list) {
      const ext = f.name.slice(f.name.lastIndexOf('.') + 1) as 'fbx' | 'glb' | 'vrma';
      const key = `${dir}/${f.name}`;
      await this.deps.storage.put(key, f.bytes, { contentType: 'application/octet-stream' });
      outputs[ext] = { key, size: f.bytes.length };
    }
    const z = await this.deps.engine.zip(list);
    outputs.zip = { key: `${dir}/${base}.zip`, size: z.length };
    await this.deps.storage.put(outputs.zip.key, z, { contentType: 'application/zip' });
    let charged = 0;
    if (job.price > 0 && a.chargeRef) {
      try {
        const r = await this.deps.coins.change(a.userId, -job.price, Reasons.SQUARE_DOWNLOAD, a.chargeRef, {
          note: `square video ${a.sourceId} applied to digital human ${t.id}`,
        });
        charged = r.duplicate ? 0 : job.price;
      } catch (e) {
        // Spent elsewhere since the request: no files without the payment.
        if (e instanceof AppError && e.code === Codes.REFUSED) throw new PermanentJobError(e.message);
        throw e;
      }
    }
    await this.deps.store.repos.tomokage.updateApply(
      a.id,
      outputs,
      charged,
      Math.round(files.durationS * 1000),
    );
    return { bytes: z.length };
  }

  /** An apply job failed for good: its row and any files it wrote are removed (nothing was charged). */
  async applyFailed(job: TomokageApplyJobData): Promise<void> {
    const a = await this.deps.store.repos.tomokage.findApply(job.applyId);
    if (!a || a.outputs.zip) return;
    const t = await this.deps.store.repos.tomokage.findById(a.tomokageId);
    if (t) await this.deps.storage.deletePrefix(`${t.storagePrefix}/apply/${a.id}`).catch(() => 0);
    await this.deps.store.repos.tomokage.deleteApply(a.id);
  }

  private async ownedApply(u: UserRecord, applyId: number): Promise<ApplyRecord> {
    const a = await this.deps.store.repos.tomokage.findApply(applyId);
    if (!a || a.userId !== u.id) throw new AppError(Codes.NOT_FOUND, 'applied motion not found');
    return a;
  }

  /** A signed URL of one applied file (fbx, glb, vrma). */
  async download(u: UserRecord, applyId: number, format: 'fbx' | 'glb' | 'vrma') {
    const a = await this.ownedApply(u, applyId);
    const t = await this.owned(u, a.tomokageId);
    const f = a.outputs[format];
    if (!f)
      throw new AppError(
        Codes.REFUSED,
        format === 'vrma' ? 'VRMA is made for VRM characters' : Messages.NO_FILE,
      );
    const fileName = f.key.slice(f.key.lastIndexOf('/') + 1);
    const url = (await this.signed(f.key, 'application/octet-stream', fileName)) as string;
    return { paths: [url], name: t.name, format, fileName };
  }

  /** zip: every file of an applied motion in one archive. */
  async zip(u: UserRecord, applyId: number) {
    const a = await this.ownedApply(u, applyId);
    const t = await this.owned(u, a.tomokageId);
    if (!a.outputs.zip) throw new AppError(Codes.REFUSED, Messages.NO_FILE);
    const fileName = a.outputs.zip.key.slice(a.outputs.zip.key.lastIndexOf('/') + 1);
    const url = (await this.signed(a.outputs.zip.key, 'application/zip', fileName)) as string;
    return { paths: [url], name: t.name, format: 'zip', fileName };
  }

  // ---------------------------------------------------------------- administrators (manageTomokage)

  async adminList(q: { page: number; size: number; keyword?: string; userId?: number }) {
    const p = await this.deps.store.repos.tomokage.list({
      page: q.page,
      size: q.size,
      ...(q.keyword ? { name: q.keyword } : {}),
      ...(q.userId ? { userId: q.userId } : {}),
      includeHidden: true,
    });
    const list = [];
    for (const t of p.list)
      list.push({
        ...tomokageView(t),
        userId: t.userId,
        ownerEmail: t.ownerEmail ?? null,
        front: await this.signed(t.pictures.front, 'image/png'),
      });
    return { ...p, list };
  }

  async adminHide(id: number, hidden: boolean) {
    const t = await this.deps.store.repos.tomokage.findById(id);
    if (!t) throw new AppError(Codes.NOT_FOUND, 'digital human not found');
    const now = this.deps.clock.now();
    await this.deps.store.repos.tomokage.update(id, { hidden }, now);
    return tomokageView({ ...t, hidden, updatedAt: now });
  }

  async adminDelete(ids: number[]) {
    const deleted: number[] = [];
    for (const id of ids) {
      const t = await this.deps.store.repos.tomokage.findById(id);
      if (!t) continue;
      await this.deps.store.repos.tomokage.delete(id);
      await this.deps.storage.deletePrefix(t.storagePrefix).catch(() => 0);
      deleted.push(id);
    }
    return { deleted };
  }
}

function safeName(s: string): string {
  return s.replace(/[\\/:*?"<>|\s]+/g, '_').slice(0, 80) || 'character';
}

async function md5Of(bytes: Uint8Array): Promise<string> {
  return createHash('md5').update(bytes).digest('hex');
}
