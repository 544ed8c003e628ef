/**
 * Video repository over Kysely (SQLite or PostgreSQL): videos, downloads, collects. Table types live here
 * (migrations `101_videos`, `400_video_solve_options`, `600_video_judgement`); the instance may be a connection or a transaction.
 */
import { randomBytes } from 'node:crypto';
import { DEFAULT_SOLVE_OPTIONS, type FootLockMode, type SolveOptions } from '@mocap/contracts';
import { type ColumnType, type Generated, type Kysely, type Selectable, sql } from 'kysely';
import * as Rows from '../../infra/db/rows.ts';
import type { DB } from '../../infra/db/schema.ts';
import type { Page } from '../../ports.ts';
import type {
  DownloadRecord,
  NewVideo,
  VideoListItem,
  VideoPatch,
  VideoQuery,
  VideoRecord,
  VideoRepo,
  VideoStatusCode,
} from './ports.ts';

type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface VideosTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  title_in_square: string | null;
  description: Defaulted<string>;
  file_name: Defaulted<string>;
  storage_prefix: string;
  md5: string;
  size_bytes: number;
  duration_ms: number;
  width: number;
  height: number;
  fps: number;
  capture_type: Defaulted<string>;
  bone_type: string;
  model_type: Defaulted<string>;
  serial_no: string;
  status: Defaulted<number>;
  progress: Defaulted<number>;
  error: string | null;
  priority: Defaulted<string>;
  job_id: string | null;
  job_seq: Defaulted<number>;
  attempts: Defaulted<number>;
  in_square: Defaulted<number>;
  square_at: number | null;
  repair_count: Defaulted<number>;
  download_count: Defaulted<number>;
  collect_count: Defaulted<number>;
  remake_count: Defaulted<number>;
  free_remakes: Defaulted<number>;
  judge_remakes: Defaulted<number>;
  confidence: number | null;
  regen_count: Defaulted<number>;
  category_id: number | null;
  tags: Defaulted<string>;
  currency: Defaulted<string>;
  charged: Defaulted<number>;
  charge_ref: string | null;
  refunded: Defaulted<number>;
  outputs: Defaulted<string>;
  smoothing: Defaulted<number>;
  foot_lock: Defaulted<string>;
  root_at_origin: Defaulted<number>;
  performer_height: number | null;
  feedback: string | null;
  feedback_status: Defaulted<number>;
  feedback_at: number | null;
  started_at: number | null;
  finished_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface VideoDownloadsTable {
  id: Generated<number>;
  video_id: number;
  user_id: number;
  bone_type: string;
  kind: string;
  charged: Defaulted<number>;
  created_at: number;
}

export interface VideoCollectsTable {
  video_id: number;
  user_id: number;
  created_at: number;
}

export interface VideoDB extends DB {
  videos: VideosTable;
  video_downloads: VideoDownloadsTable;
  video_collects: VideoCollectsTable;
}

const n = (v: unknown): number => Number(v);
const nn = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function solveOptionsOf(r: Selectable<VideosTable>): SolveOptions {
  return {
    smoothing: Number(r.smoothing),
    footLock: r.foot_lock as FootLockMode,
    rootAtOrigin: Number(r.root_at_origin) === 1,
    height: nn(r.performer_height),
  };
}

function solveOptionsRow(o: SolveOptions) {
  return {
    smoothing: o.smoothing,
    foot_lock: o.footLock,
    root_at_origin: o.rootAtOrigin ? 1 : 0,
    performer_height: o.height,
  };
}

export function toVideo(r: Selectable<VideosTable>): VideoRecord {
  return {
    id: n(r.id),
    userId: n(r.user_id),
    name: r.name,
    titleInSquare: r.title_in_square,
    description: r.description,
    fileName: r.file_name,
    storagePrefix: r.storage_prefix,
    md5: r.md5,
    sizeBytes: n(r.size_bytes),
    durationMs: n(r.duration_ms),
    width: r.width,
    height: r.height,
    fps: Number(r.fps),
    captureType: r.capture_type as VideoRecord['captureType'],
    boneType: r.bone_type,
    modelType: r.model_type,
    serialNo: r.serial_no,
    status: r.status as VideoStatusCode,
    progress: r.progress,
    error: r.error,
    priority: r.priority as VideoRecord['priority'],
    jobId: r.job_id,
    jobSeq: r.job_seq,
    attempts: r.attempts,
    inSquare: r.in_square === 1,
    squareAt: nn(r.square_at),
    repairCount: r.repair_count,
    downloadCount: r.download_count,
    collectCount: r.collect_count,
    remakeCount: r.remake_count,
    freeRemakes: r.free_remakes,
    judgeRemakes: r.judge_remakes,
    confidence: r.confidence === null || r.confidence === undefined ? null : Number(r.confidence),
    regenCount: r.regen_count,
    categoryId: nn(r.category_id),
    tags: r.tags ? r.tags.split(',') : [],
    currency: r.currency as 'V' | 'CV',
    charged: n(r.charged),
    chargeRef: r.charge_ref,
    refunded: r.refunded === 1,
    outputs: JSON.parse(r.outputs || '{}'),
    solveOptions: solveOptionsOf(r),
    feedback: r.feedback,
    feedbackStatus: r.feedback_status,
    feedbackAt: nn(r.feedback_at),
    startedAt: nn(r.started_at),
    finishedAt: nn(r.finished_at),
    createdAt: n(r.created_at),
    updatedAt: n(r.updated_at),
  };
}

/**
 * A list row with its creator's name. Built on the record rather than spread into a new object: copying a
 * 47-key object per row was a third of the cost of a page of projects.
 */
function withCreator(r: Selectable<VideosTable> & { creator_name: string }): VideoListItem {
  const v = toVideo(r) as VideoListItem;
  v.creatorName = r.creator_name;
  return v;
}

// biome-ignore lint/suspicious/noExplicitAny: column values are checked by the VideoPatch type.
function toRow(p: VideoPatch): Record<string, any> {
  // biome-ignore lint/suspicious/noExplicitAny: see above.
  const out: Record<string, any> = {};
  const map: Record<string, keyof VideosTable> = {
    name: 'name',
    titleInSquare: 'title_in_square',
    description: 'description',
    boneType: 'bone_type',
    status: 'status',
    progress: 'progress',
    error: 'error',
    jobId: 'job_id',
    jobSeq: 'job_seq',
    attempts: 'attempts',
    squareAt: 'square_at',
    categoryId: 'category_id',
    feedback: 'feedback',
    feedbackStatus: 'feedback_status',
    feedbackAt: 'feedback_at',
    startedAt: 'started_at',
    finishedAt: 'finished_at',
    remakeCount: 'remake_count',
    freeRemakes: 'free_remakes',
    judgeRemakes: 'judge_remakes',
    confidence: 'confidence',
    regenCount: 'regen_count',
    repairCount: 'repair_count',
    priority: 'priority',
    modelType: 'model_type',
    captureType: 'capture_type',
  };
  for (const [k, v] of Object.entries(p)) {
    if (v === undefined) continue;
    if (k === 'inSquare') out.in_square = v ? 1 : 0;
    else if (k === 'refunded') out.refunded = v ? 1 : 0;
    else if (k === 'tags') out.tags = (v as string[]).join(',');
    else if (k === 'outputs') out.outputs = JSON.stringify(v);
    else if (k === 'solveOptions') Object.assign(out, solveOptionsRow(v as SolveOptions));
    else if (map[k]) out[map[k]] = v;
  }
  return out;
}

export class KyselyVideoRepo implements VideoRepo {
  private readonly db: Kysely<VideoDB>;
  constructor(
    db: Kysely<DB>,
    private readonly kind: 'sqlite' | 'postgres',
  ) {
    this.db = db as unknown as Kysely<VideoDB>;
  }

  async create(v: NewVideo): Promise<VideoRecord> {
    const { solveOptions, ...fields } = v;
    const row = await Rows.insertRow(this.db, 'videos', {
      ...Rows.snakeKeys(fields),
      tags: v.tags.join(','),
      ...solveOptionsRow(solveOptions ?? DEFAULT_SOLVE_OPTIONS),
      updated_at: v.createdAt,
    });
    return toVideo(row);
  }

  async findById(id: number): Promise<VideoRecord | undefined> {
    const r = await Rows.rowWhere(this.db, 'videos', { id });
    return r ? toVideo(r) : undefined;
  }

  async findWithCreator(id: number): Promise<VideoListItem | undefined> {
    const r = await this.db
      .selectFrom('videos')
      .innerJoin('users', 'users.id', 'videos.user_id')
      .selectAll('videos')
      .select('users.username as creator_name')
      .where('videos.id', '=', id)
      .executeTakeFirst();
    return r ? withCreator(r) : undefined;
  }

  async update(id: number, patch: VideoPatch, now: number): Promise<void> {
    await Rows.updateWhere(this.db, 'videos', { ...toRow(patch), updated_at: now }, { id });
  }

  async updateIfStatus(id: number, fromStatus: number[], patch: VideoPatch, now: number): Promise<boolean> {
    const set = { ...toRow(patch), updated_at: now };
    return (await Rows.updateWhere(this.db, 'videos', set, { id, status: fromStatus })) > 0;
  }

  async delete(id: number): Promise<boolean> {
    return (await Rows.deleteWhere(this.db, 'videos', { id })) > 0;
  }

  async list(q: VideoQuery): Promise<Page<VideoListItem>> {
    let base = this.db.selectFrom('videos').innerJoin('users', 'users.id', 'videos.user_id');
    if (q.collectedBy !== undefined) {
      base = base
        .innerJoin('video_collects', 'video_collects.video_id', 'videos.id')
        .where('video_collects.user_id', '=', q.collectedBy);
    }
    if (q.userId !== undefined) base = base.where('videos.user_id', '=', q.userId);
    if (q.inSquare !== undefined) base = base.where('videos.in_square', '=', q.inSquare ? 1 : 0);
    if (q.status?.length) base = base.where('videos.status', 'in', q.status);
    if (q.categoryId !== undefined) base = base.where('videos.category_id', '=', q.categoryId);
    if (q.from !== undefined) base = base.where('videos.created_at', '>=', q.from);
    if (q.to !== undefined) base = base.where('videos.created_at', '<=', q.to);
    if (q.keyword) {
      const like = Rows.likePattern(q.keyword);
      const op = this.kind === 'postgres' ? 'ilike' : 'like';
      base = base.where((eb) =>
        eb.or([
          eb(sql`videos.name`, op, sql`${like} escape '\\'`),
          eb(sql`coalesce(videos.title_in_square, '')`, op, sql`${like} escape '\\'`),
          eb(sql`videos.tags`, op, sql`${like} escape '\\'`),
          eb('videos.serial_no', '=', q.keyword ?? ''),
        ]),
      );
    }
    if (q.tag) {
      // Tags are stored comma-joined (a tag never holds a comma).
      base = base.where(
        sql<boolean>`(',' || videos.tags || ',') like ${Rows.likePattern(`,${q.tag},`)} escape '\\'`,
      );
    }
    const totalRow = await base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
    let rows = base.selectAll('videos').select('users.username as creator_name');
    switch (q.sort) {
      case 'old':
        rows = rows.orderBy('videos.created_at', 'asc');
        break;
      case 'downloads':
        rows = rows.orderBy('videos.download_count', 'desc');
        break;
      case 'collects':
        rows = rows.orderBy('videos.collect_count', 'desc');
        break;
      default:
        rows = q.inSquare
          ? rows.orderBy('videos.square_at', 'desc')
          : rows.orderBy('videos.created_at', 'desc');
    }
    const list = await rows
      .orderBy('videos.id', 'desc')
      .limit(q.size)
      .offset((q.page - 1) * q.size)
      .execute();
    return {
      list: list.map(withCreator),
      total: Number(totalRow?.n ?? 0),
      page: q.page,
      size: q.size,
    };
  }

  async countByStatus(userId: number, statuses: number[]): Promise<number> {
    return Rows.countWhere(this.db, 'videos', { user_id: userId, status: statuses });
  }

  async countByCategory(categoryId: number): Promise<number> {
    return Rows.countWhere(this.db, 'videos', { category_id: categoryId });
  }

  async findByMd5(userId: number, md5: string): Promise<VideoRecord | undefined> {
    const r = await Rows.rowWhere(this.db, 'videos', { user_id: userId, md5 });
    return r ? toVideo(r) : undefined;
  }

  async latest(userId: number): Promise<VideoRecord | undefined> {
    const r = await this.db
      .selectFrom('videos')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return r ? toVideo(r) : undefined;
  }

  async unfinished(limit: number): Promise<VideoRecord[]> {
    return (await Rows.rowsWhere(this.db, 'videos', { status: [0, 1] }, [['id', 'asc']], limit)).map(toVideo);
  }

  async incrementDownloads(id: number): Promise<void> {
    await this.db
      .updateTable('videos')
      .set({ download_count: sql`download_count + 1` })
      .where('id', '=', id)
      .execute();
  }

  async addDownload(d: Omit<DownloadRecord, 'id'>): Promise<void> {
    await Rows.insertRow(this.db, 'video_downloads', Rows.snakeKeys(d));
  }

  async downloadsOf(userId: number, videoId: number): Promise<DownloadRecord[]> {
    const rows = await Rows.rowsWhere(this.db, 'video_downloads', { user_id: userId, video_id: videoId }, [
      ['id', 'asc'],
    ]);
    return rows.map((r) => ({
      id: n(r.id),
      videoId: n(r.video_id),
      userId: n(r.user_id),
      boneType: r.bone_type,
      kind: r.kind as DownloadRecord['kind'],
      charged: n(r.charged),
      createdAt: n(r.created_at),
    }));
  }

  async toggleCollect(videoId: number, userId: number, now: number): Promise<boolean> {
    if ((await Rows.deleteWhere(this.db, 'video_collects', { video_id: videoId, user_id: userId })) > 0) {
      await this.db
        .updateTable('videos')
        .set({ collect_count: sql`case when collect_count > 0 then collect_count - 1 else 0 end` })
        .where('id', '=', videoId)
        .execute();
      return false;
    }
    await this.db
      .insertInto('video_collects')
      .values({ video_id: videoId, user_id: userId, created_at: now })
      .onConflict((oc) => oc.doNothing())
      .execute();
    await this.db
      .updateTable('videos')
      .set({ collect_count: sql`collect_count + 1` })
      .where('id', '=', videoId)
      .execute();
    return true;
  }

  async isCollected(videoId: number, userId: number): Promise<boolean> {
    return (
      (await Rows.rowWhere(this.db, 'video_collects', { video_id: videoId, user_id: userId })) !== undefined
    );
  }

  async collectedAmong(userId: number, videoIds: number[]): Promise<Set<number>> {
    if (videoIds.length === 0) return new Set();
    const rows = await Rows.rowsWhere(this.db, 'video_collects', { user_id: userId, video_id: videoIds });
    return new Set(rows.map((r) => Number(r.video_id)));
  }

  async nextSerial(now: number): Promise<string> {
    const day = new Date(now).toISOString().slice(0, 10).replace(/-/g, '');
    return `MC${day}${randomBytes(4).toString('hex').toUpperCase()}`;
  }
}
