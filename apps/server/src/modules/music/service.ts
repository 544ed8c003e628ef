/**
 * Music → dance (issue 22): upload a track, the checks in a fixed order (name → queue limit → content → plan
 * duration → duplicate → coins), the charge and the row in one transaction, then a music job that analyses the
 * track and makes a dance (`@mocap/dance`, in `apps/worker/src/music.ts`); the card in My Projects with status
 * and progress; downloads per bone type (`DownLoadMusicMotion`); redone with a new seed; delete.
 *
 * Prices (the spec bills video per second; music the same way, stated here):
 * - upload: 1 V coin per second of audio, rounded up (company accounts: 1 CV per second);
 * - redone (a new dance for the same music): 1 V per 2 seconds, rounded up to a multiple of 2 s, as a video
 *   remake; the first redone of each track is free;
 * - downloads of one's own dances: free, bone types by plan as for videos (free plan: FBX bone types only).
 * Limits by plan as for videos (`PLAN_LIMITS`): queued tracks 2/5/10, duration 30/60/120 s, size 100/200/400M.
 * Storage: the audio under `uploadMusic/<random id>.<ext>` (spec §7 prefix), outputs under
 * `music/u<user>/<uuid>/` (clip.json, zips/<bone type>.zip).
 */

import { randomUUID } from 'node:crypto';
import { companyUploadCost, remakeCost, uploadCost } from '@mocap/contracts';
import { AppError, Codes, Messages } from '../../errors.ts';
import type { Clock, JobQueue, ObjectStorage, Page, UserRecord } from '../../ports.ts';
import { type CoinService, insufficientMessage, Reasons } from '../coins/service.ts';
import { assertBoneTypeFor, MB, PLAN_LIMITS, planOf } from '../video/limits.ts';
import type { MusicStore } from './ports.ts';
import {
  type AudioFilePort,
  MUSIC_STATUS_NAMES,
  type MusicJobData,
  type MusicOutputs,
  type MusicRecord,
  MusicStatus,
  musicJobId,
} from './ports.ts';

export const MusicMessages = {
  WRONG_FORMAT: '文件格式错误,请重新选择!',
  DUPLICATE: '当前文件已存在',
  /** The spec's duration message, for music. */
  tooLong: (s: number) => `music duration cannot exceed ${s} seconds`,
  /** The spec's title rule (at most 15 characters), worded for music. */
  TITLE_LENGTH: 'Music title at most 15 characters',
  /** The spec's size message (视频上传大小不能大于NM), worded for music. */
  tooLarge: (mb: number) => `音乐上传大小不能大于${mb}M`,
  queueFull: (n: number) => `at most ${n} songs can wait in the queue on your plan; wait until one is made`,
  ONE_FILE: '当前限制选择 最多1 个音乐',
  FAILED: '你的音乐制作失败,请重新上传',
} as const;

/** File extensions kept for the stored audio (by container); anything else ffmpeg reads is stored as-is. */
function extensionOf(format: string, fileName: string): string {
  if (/wav/.test(format)) return 'wav';
  if (/mp3/.test(format)) return 'mp3';
  if (/ogg/.test(format)) return 'ogg';
  if (/flac/.test(format)) return 'flac';
  if (/mp4|m4a|mov/.test(format)) return 'm4a';
  const m = /\.([a-z0-9]{1,5})$/i.exec(fileName);
  return m ? m[1].toLowerCase() : 'audio';
}

export interface MusicView {
  id: number;
  name: string;
  fileName: string;
  duration: number;
  status: number;
  statusName: string;
  progress: number;
  error: string | null;
  seed: number;
  redoneCount: number;
  tempo: number | null;
  beats: number | null;
  boneTypes: string[];
  charged: number;
  currency: string;
  createAt: number;
  finishedAt: number | null;
}

export function musicView(m: MusicRecord): MusicView {
  return {
    id: m.id,
    name: m.name,
    fileName: m.fileName,
    duration: m.durationMs / 1000,
    status: m.status,
    statusName: MUSIC_STATUS_NAMES[m.status] ?? 'unknown',
    progress: m.progress,
    error: m.error,
    seed: m.seed,
    redoneCount: m.redoneCount,
    tempo: m.outputs.tempo ?? null,
    beats: m.outputs.beats ?? null,
    boneTypes: Object.keys(m.outputs.zips ?? {}),
    charged: m.charged,
    currency: m.currency,
    createAt: m.createdAt,
    finishedAt: m.finishedAt,
  };
}

export const FREE_REDONES = 1;

export class MusicService {
  constructor(
    private readonly deps: {
      store: MusicStore;
      coins: CoinService;
      storage: ObjectStorage;
      files: AudioFilePort;
      queue: JobQueue<MusicJobData>;
      clock: Clock;
      attempts?: number;
      backoffMs?: number;
      /** Seeds for new dances (tests inject a fixed sequence). */
      random?: () => number;
    },
  ) {}

  get queue(): JobQueue<MusicJobData> {
    return this.deps.queue;
  }

  maxUploadBytes(u: UserRecord): number {
    return PLAN_LIMITS[planOf(u, this.deps.clock.now())].sizeMB * MB;
  }

  private newSeed(): number {
    return 1 + Math.floor((this.deps.random ?? Math.random)() * 2_000_000_000);
  }

  private costOf(u: UserRecord, durationS: number) {
    return u.type === 2
      ? { amount: companyUploadCost(durationS), currency: 'CV' as const, reason: Reasons.COMPANY_UPLOAD }
      : { amount: uploadCost(durationS), currency: 'V' as const, reason: 'music_upload' };
  }

  async checkQueue(u: UserRecord): Promise<void> {
    const limit = PLAN_LIMITS[planOf(u, this.deps.clock.now())].queue;
    const n = await this.deps.store.repos.music.countByStatus(u.id, [
      MusicStatus.NOT_MADE,
      MusicStatus.IN_PROGRESS,
    ]);
    if (n >= limit) throw new AppError(Codes.REFUSED, MusicMessages.queueFull(limit));
  }

  /** Creates a music card from a received temp file (consumed). Every refusal happens before storing or charging. */
  async createFromFile(
    u: UserRecord,
    fields: { name?: string },
    file: { path: string; fileName: string },
  ): Promise<MusicView> {
    try {
      const plan = planOf(u, this.deps.clock.now());
      const limits = PLAN_LIMITS[plan];
      const name =
        (fields.name ?? '').trim() || file.fileName.replace(/\.[^.]*$/, '').slice(0, 15) || 'music';
      if ([...name].length > 15) throw new AppError(Codes.REFUSED, MusicMessages.TITLE_LENGTH);
      await this.checkQueue(u);
      const size = await this.deps.files.size(file.path);
      if (size === 0) throw new AppError(Codes.REFUSED, MusicMessages.WRONG_FORMAT);
      if (size > limits.sizeMB * MB) throw new AppError(Codes.REFUSED, MusicMessages.tooLarge(limits.sizeMB));
      const probe = await this.deps.files.probe(file.path);
      if (!probe.audio || !(probe.durationS > 0))
        throw new AppError(Codes.REFUSED, MusicMessages.WRONG_FORMAT);
      if (probe.durationS > limits.durationS + 0.05)
        throw new AppError(Codes.REFUSED, MusicMessages.tooLong(limits.durationS));
      const md5 = await this.deps.files.md5(file.path);
      if (await this.deps.store.repos.music.findByMd5(u.id, md5))
        throw new AppError(Codes.REFUSED, MusicMessages.DUPLICATE);
      const cost = this.costOf(u, probe.durationS);
      await this.deps.coins.requireBalance(u.id, cost.currency, cost.amount);
      const uuid = randomUUID();
      const audioKey = `uploadMusic/${uuid.replace(/-/g, '')}.${extensionOf(probe.format, file.fileName)}`;
      const prefix = `music/u${u.id}/${uuid}`;
      await this.deps.storage.putFile(audioKey, file.path, {});
      const now = this.deps.clock.now();
      const chargeRef = `music_upload:${uuid}`;
      let m: MusicRecord;
      try {
        m = await this.deps.store.transaction(async (r) => {
          await r.users.balanceForUpdate(u.id, cost.currency);
          const queued = await r.music.countByStatus(u.id, [MusicStatus.NOT_MADE, MusicStatus.IN_PROGRESS]);
          if (queued >= limits.queue)
            throw new AppError(Codes.REFUSED, MusicMessages.queueFull(limits.queue));
          const row = await r.music.create({
            userId: u.id,
            name,
            fileName: file.fileName.slice(0, 255),
            audioKey,
            storagePrefix: prefix,
            md5,
            sizeBytes: size,
            durationMs: Math.round(probe.durationS * 1000),
            format: `${probe.format}/${probe.codec}`.slice(0, 64),
            priority: limits.priority,
            seed: this.newSeed(),
            currency: cost.currency,
            charged: cost.amount,
            chargeRef,
            createdAt: now,
          });
          await this.deps.coins.changeIn(r, u.id, -cost.amount, cost.reason, chargeRef, {
            currency: cost.currency,
            note: `music ${row.id} (${probe.durationS.toFixed(1)} s)`,
            insufficientMessage: insufficientMessage(cost.currency),
          });
          return row;
        });
      } catch (err) {
        await this.deps.storage.delete(audioKey).catch(() => {});
        throw err;
      }
      await this.enqueue(m, chargeRef).catch(() => {});
      return musicView(m);
    } finally {
      await this.deps.files.remove(file.path).catch(() => {});
    }
  }

  async enqueue(m: MusicRecord, chargeRef: string | null): Promise<void> {
    await this.deps.queue.enqueue(
      { musicId: m.id, userId: m.userId, seq: m.jobSeq, seed: m.seed, chargeRef },
      {
        jobId: musicJobId(m.id, m.jobSeq),
        priority: m.priority,
        attempts: this.deps.attempts ?? 3,
        backoffMs: this.deps.backoffMs ?? 5000,
      },
    );
  }

  async owned(u: UserRecord, id: number): Promise<MusicRecord> {
    const m = await this.deps.store.repos.music.findById(id);
    if (!m || m.userId !== u.id) throw new AppError(Codes.NOT_FOUND, 'music not found');
    return m;
  }

  async center(u: UserRecord, q: { page: number; size: number; name?: string }): Promise<Page<MusicView>> {
    const p = await this.deps.store.repos.music.list({ userId: u.id, ...q });
    return { ...p, list: p.list.map(musicView) };
  }

  async get(u: UserRecord, id: number): Promise<MusicView> {
    return musicView(await this.owned(u, id));
  }

  /** Deletes cards and their files; a card not yet made (or failed without a refund) is refunded. */
  async delete(u: UserRecord, ids: number[]): Promise<{ deleted: number[] }> {
    const deleted: number[] = [];
    for (const id of ids) {
      const m = await this.owned(u, id);
      if (m.status === MusicStatus.IN_PROGRESS)
        throw new AppError(Codes.REFUSED, 'the dance is being made; try again when it is done');
      await this.deps.queue.remove(musicJobId(m.id, m.jobSeq)).catch(() => false);
      if (m.status === MusicStatus.NOT_MADE && m.jobSeq === 0 && m.chargeRef && !m.refunded) {
        await this.deps.coins.refund(m.chargeRef, `music ${m.id} deleted before it was made`);
      }
      await this.deps.store.repos.music.delete(m.id);
      await this.deps.storage.delete(m.audioKey).catch(() => {});
      await this.deps.storage.deletePrefix(m.storagePrefix).catch(() => 0);
      deleted.push(m.id);
    }
    return { deleted };
  }

  /** A new dance for the same music (new seed). The first is free, then 1 V per 2 s (rounded up). */
  async redone(u: UserRecord, id: number): Promise<MusicView> {
    const m = await this.owned(u, id);
    if (m.status === MusicStatus.NOT_MADE || m.status === MusicStatus.IN_PROGRESS) {
      throw new AppError(Codes.REFUSED, 'the dance is being made; try again when it is done');
    }
    const free = m.redoneCount < FREE_REDONES;
    const cost = free ? 0 : remakeCost(m.durationMs / 1000);
    const seq = m.jobSeq + 1;
    const chargeRef = cost > 0 ? `music_redone:${m.id}:${seq}` : null;
    const seed = this.newSeed();
    const now = this.deps.clock.now();
    const fresh = await this.deps.store.transaction(async (r) => {
      if (cost > 0 && chargeRef) {
        await this.deps.coins.changeIn(r, u.id, -cost, Reasons.REMAKE, chargeRef, {
          currency: 'V',
          note: `music ${m.id} redone`,
          insufficientMessage: Messages.INSUFFICIENT_V,
        });
      }
      const ok = await r.music.updateIfStatus(
        m.id,
        [MusicStatus.MADE, MusicStatus.FAILED],
        {
          status: MusicStatus.NOT_MADE,
          progress: 0,
          error: null,
          seed,
          jobSeq: seq,
          redoneCount: m.redoneCount + 1,
          finishedAt: null,
        },
        now,
      );
      if (!ok) throw new AppError(Codes.REFUSED, 'the dance is being made; try again when it is done');
      return (await r.music.findById(m.id))!;
    });
    await this.enqueue(fresh, chargeRef).catch(() => {});
    return musicView(fresh);
  }

  /** DownLoadMusicMotion: a signed URL of the dance's zip for a bone type (plan rules as for videos). */
  async download(
    u: UserRecord,
    id: number,
    boneType: string,
  ): Promise<{ paths: string[]; name: string; bonetype: string; motionsName: string[] }> {
    const m = await this.owned(u, id);
    assertBoneTypeFor(u, boneType, this.deps.clock.now());
    const z = m.outputs.zips?.[boneType];
    if (m.status !== MusicStatus.MADE || !z)
      throw new AppError(Codes.REFUSED, Messages.NO_FILE, { paths: [] });
    const url = await this.deps.storage.signedUrl(z.key, {
      fileName: z.fileName,
      contentType: 'application/zip',
      expiresInS: 300,
    });
    return { paths: [url], name: m.name, bonetype: boneType, motionsName: [z.fileName] };
  }

  /** cos_url: signed URLs of the music itself and of the dance's clip (preview). */
  async urls(u: UserRecord, id: number): Promise<{ audio: string; clip: string | null }> {
    const m = await this.owned(u, id);
    const audio = await this.deps.storage.signedUrl(m.audioKey, { expiresInS: 1800 });
    const clip = m.outputs.clipKey
      ? await this.deps.storage.signedUrl(m.outputs.clipKey, {
          expiresInS: 1800,
          contentType: 'application/json',
        })
      : null;
    return { audio, clip };
  }

  // ---------------------------------------------------------------- job hooks (the worker calls these)

  private async current(d: MusicJobData): Promise<MusicRecord | null> {
    const m = await this.deps.store.repos.music.findById(d.musicId);
    return m && m.jobSeq === d.seq ? m : null;
  }

  async started(d: MusicJobData, attempt: number): Promise<MusicRecord | null> {
    const m = await this.current(d);
    if (!m) return null;
    const now = this.deps.clock.now();
    const ok = await this.deps.store.repos.music.updateIfStatus(
      m.id,
      [MusicStatus.NOT_MADE, MusicStatus.IN_PROGRESS],
      { status: MusicStatus.IN_PROGRESS, progress: 0, attempts: attempt, startedAt: now, error: null },
      now,
    );
    return ok ? this.deps.store.repos.music.findById(m.id) : null;
  }

  async progress(d: MusicJobData, percent: number): Promise<void> {
    await this.deps.store.repos.music.updateIfStatus(
      d.musicId,
      [MusicStatus.IN_PROGRESS],
      { progress: Math.max(0, Math.min(99, Math.round(percent))) },
      this.deps.clock.now(),
    );
  }

  async completed(d: MusicJobData, outputs: MusicOutputs): Promise<void> {
    const m = await this.current(d);
    if (!m) return;
    const now = this.deps.clock.now();
    await this.deps.store.repos.music.update(
      m.id,
      { status: MusicStatus.MADE, progress: 100, outputs, error: null, finishedAt: now },
      now,
    );
  }

  async failedForGood(d: MusicJobData, error: string): Promise<void> {
    if (d.chargeRef) await this.deps.coins.refund(d.chargeRef, `dance failed: music ${d.musicId}`);
    const m = await this.current(d);
    if (!m) return;
    const now = this.deps.clock.now();
    await this.deps.store.repos.music.update(
      m.id,
      {
        status: MusicStatus.FAILED,
        progress: 0,
        error: `${MusicMessages.FAILED} (${error.slice(0, 500)})`,
        refunded: d.chargeRef ? true : m.refunded,
        finishedAt: now,
      },
      now,
    );
  }

  /** Re-queues cards whose job was lost; fails those whose job failed without its hook. */
  async reconcile(): Promise<{ requeued: number; failed: number }> {
    let requeued = 0;
    let failed = 0;
    for (const m of await this.deps.store.repos.music.unfinished(500)) {
      const job = await this.deps.queue.getJob(musicJobId(m.id, m.jobSeq));
      const chargeRef = m.jobSeq === 0 ? m.chargeRef : null;
      if (!job) {
        if (this.deps.clock.now() - m.updatedAt < 10_000) continue;
        await this.enqueue(m, chargeRef);
        requeued++;
      } else if (job.state === 'failed') {
        await this.failedForGood(job.data, job.error ?? 'failed');
        failed++;
      }
    }
    return { requeued, failed };
  }
}
