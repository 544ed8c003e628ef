/**
 * SQL of the console's video pages (issue 21): every video with its owner for manageVideo, and the download
 * history (table video_downloads) for videoDownHistory. The only SQL of the console slice.
 */
import { type Kysely, sql } from 'kysely';
import { likePattern } from '../../infra/db/rows.ts';
import type { DB } from '../../infra/db/schema.ts';
import type { ConsoleRepo, DownloadQuery, DownloadRow, VideoAdminQuery, VideoAdminRow } from './ports.ts';

export class KyselyConsoleRepo implements ConsoleRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async searchVideos(q: VideoAdminQuery) {
    // biome-ignore lint/suspicious/noExplicitAny: the videos table is typed by the video slice, not in DB.
    const db = this.db as unknown as Kysely<any>;
    let w = db.selectFrom('videos as v').innerJoin('users as u', 'u.id', 'v.user_id');
    if (q.keyword) {
      const p = likePattern(q.keyword.toLowerCase());
      w = w.where(
        sql<boolean>`(lower(v.name) like ${p} escape '\\' or lower(u.email) like ${p} escape '\\' or v.serial_no like ${p} escape '\\')`,
      );
    }
    if (q.id !== undefined) w = w.where('v.id', '=', q.id);
    if (q.userId !== undefined) w = w.where('v.user_id', '=', q.userId);
    if (q.status !== undefined) w = w.where('v.status', '=', q.status);
    if (q.inSquare !== undefined) w = w.where('v.in_square', '=', q.inSquare ? 1 : 0);
    if (q.feedback === 'open') w = w.where('v.feedback', 'is not', null).where('v.feedback_status', '=', 0);
    if (q.feedback === 'handled')
      w = w.where('v.feedback', 'is not', null).where('v.feedback_status', '=', 1);
    if (q.feedback === 'any') w = w.where('v.feedback', 'is not', null);
    const total = await w.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await w
      .select([
        'v.id',
        'v.name',
        'v.serial_no',
        'v.user_id',
        'u.email',
        'v.status',
        'v.progress',
        'v.error',
        'v.in_square',
        'v.duration_ms',
        'v.bone_type',
        'v.capture_type',
        'v.model_type',
        'v.download_count',
        'v.feedback',
        'v.feedback_status',
        'v.feedback_at',
        'v.charged',
        'v.currency',
        'v.storage_prefix',
        'v.outputs',
        'v.created_at',
        'v.finished_at',
      ])
      .orderBy('v.id', 'desc')
      .limit(q.size)
      .offset((q.page - 1) * q.size)
      .execute();
    const list: VideoAdminRow[] = rows.map((r) => {
      let thumbKey: string | null = null;
      try {
        thumbKey = (JSON.parse(r.outputs ?? '{}') as { thumbKey?: string }).thumbKey ?? null;
      } catch {
        thumbKey = null;
      }
      return {
        id: Number(r.id),
        name: r.name,
        serialNo: r.serial_no,
        userId: Number(r.user_id),
        email: r.email,
        status: Number(r.status),
        progress: Number(r.progress),
        error: r.error,
        inSquare: Number(r.in_square) === 1,
        durationMs: Number(r.duration_ms),
        boneType: r.bone_type,
        captureType: r.capture_type,
        modelType: r.model_type,
        downloads: Number(r.download_count),
        feedback: r.feedback,
        feedbackStatus: Number(r.feedback_status),
        feedbackAt: r.feedback_at === null ? null : Number(r.feedback_at),
        charged: Number(r.charged),
        currency: r.currency,
        storagePrefix: r.storage_prefix,
        thumbKey,
        createdAt: Number(r.created_at),
        finishedAt: r.finished_at === null ? null : Number(r.finished_at),
      };
    });
    return { list, total: Number(total.n), page: q.page, size: q.size };
  }

  async searchDownloads(q: DownloadQuery) {
    // biome-ignore lint/suspicious/noExplicitAny: the tables are typed by the video slice, not in DB.
    const db = this.db as unknown as Kysely<any>;
    let w = db
      .selectFrom('video_downloads as d')
      .innerJoin('users as u', 'u.id', 'd.user_id')
      .innerJoin('videos as v', 'v.id', 'd.video_id');
    if (q.keyword) {
      const p = likePattern(q.keyword.toLowerCase());
      w = w.where(
        sql<boolean>`(lower(u.email) like ${p} escape '\\' or lower(v.name) like ${p} escape '\\')`,
      );
    }
    if (q.userId !== undefined) w = w.where('d.user_id', '=', q.userId);
    if (q.videoId !== undefined) w = w.where('d.video_id', '=', q.videoId);
    if (q.from !== undefined) w = w.where('d.created_at', '>=', q.from);
    if (q.to !== undefined) w = w.where('d.created_at', '<', q.to);
    const sums = await w
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('d.charged').as('coins')])
      .executeTakeFirstOrThrow();
    const rows = await w
      .select([
        'd.id',
        'd.video_id',
        'v.name',
        'd.user_id',
        'u.email',
        'd.bone_type',
        'd.kind',
        'd.charged',
        'd.created_at',
      ])
      .orderBy('d.id', 'desc')
      .limit(q.size)
      .offset((q.page - 1) * q.size)
      .execute();
    const list: DownloadRow[] = rows.map((r) => ({
      id: Number(r.id),
      videoId: Number(r.video_id),
      videoName: r.name,
      userId: Number(r.user_id),
      email: r.email,
      boneType: r.bone_type,
      kind: r.kind,
      coins: Number(r.charged),
      createdAt: Number(r.created_at),
    }));
    return { list, total: Number(sums.n), coins: Number(sums.coins ?? 0), page: q.page, size: q.size };
  }
}
