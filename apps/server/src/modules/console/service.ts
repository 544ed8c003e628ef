/**
 * The console's video pages (issue 21): manageVideo (every video with owner, status, square flag, feedback and its
 * status; re-run at the house's expense, take off the square, delete, preview) and videoDownHistory (who
 * downloaded what, when, for how many coins). Permission is decided per route (modules/rbac).
 */
import { AppError, Codes } from '../../errors.ts';
import type { Clock } from '../../ports.ts';
import { captureJobId, sourceKeyOf } from '../jobs/service.ts';
import type { VideoPatch, VideoRecord } from '../video/ports.ts';
import { VideoStatus } from '../video/ports.ts';
import type { ConsoleRepo, DownloadQuery, DownloadRow, VideoAdminQuery, VideoAdminRow } from './ports.ts';

export type { ConsoleRepo, DownloadQuery, DownloadRow, VideoAdminQuery, VideoAdminRow };

export interface ConsoleDeps {
  repo: ConsoleRepo;
  videos: {
    findById(id: number): Promise<VideoRecord | undefined>;
    update(id: number, patch: VideoPatch, now: number): Promise<void>;
    updateIfStatus(id: number, from: number[], patch: VideoPatch, now: number): Promise<boolean>;
  };
  enqueue(video: VideoRecord): Promise<void>;
  /** Deletes videos as the video service does (cancels jobs, removes files), on behalf of `actorId`. */
  deleteVideos(actorId: number, ids: number[]): Promise<{ deleted: number[] }>;
  signedUrl(key: string, contentType?: string): Promise<string>;
  clock: Clock;
}

export class ConsoleService {
  constructor(private readonly deps: ConsoleDeps) {}

  async videos(q: VideoAdminQuery) {
    const p = await this.deps.repo.searchVideos(q);
    const list = await Promise.all(
      p.list.map(async ({ storagePrefix, thumbKey, ...v }) => ({
        ...v,
        thumbnail: thumbKey ? await this.deps.signedUrl(thumbKey).catch(() => null) : null,
        _prefix: storagePrefix,
      })),
    );
    return { ...p, list: list.map(({ _prefix, ...v }) => v) };
  }

  private async video(id: number): Promise<VideoRecord> {
    const v = await this.deps.videos.findById(id);
    if (!v) throw new AppError(Codes.NOT_FOUND, 'video not found');
    return v;
  }

  /** Signed URL of the source video (any owner) for the preview. */
  async preview(id: number): Promise<{ source: string; thumbnail: string | null }> {
    const v = await this.video(id);
    return {
      source: await this.deps.signedUrl(sourceKeyOf(v), 'video/mp4'),
      thumbnail: v.outputs.thumbKey ? await this.deps.signedUrl(v.outputs.thumbKey).catch(() => null) : null,
    };
  }

  async setFeedbackStatus(id: number, status: number): Promise<void> {
    const v = await this.video(id);
    if (!v.feedback) throw new AppError(Codes.REFUSED, 'this video has no feedback');
    await this.deps.videos.update(v.id, { feedbackStatus: status }, this.deps.clock.now());
  }

  /** Takes a video off the square (or puts a made one back). */
  async setSquare(id: number, flag: boolean): Promise<void> {
    const v = await this.video(id);
    if (flag && v.status !== VideoStatus.MADE)
      throw new AppError(Codes.REFUSED, 'only a made video can be on the square');
    const now = this.deps.clock.now();
    await this.deps.videos.update(v.id, { inSquare: flag, squareAt: flag ? now : null }, now);
  }

  /** Runs the capture again at the house's expense (no charge, no free remake used): made or failed videos. */
  async rerun(id: number): Promise<void> {
    const v = await this.video(id);
    const seq = v.jobSeq + 1;
    const ok = await this.deps.videos.updateIfStatus(
      v.id,
      [VideoStatus.MADE, VideoStatus.FAILED],
      { status: VideoStatus.NOT_MADE, progress: 0, error: null, jobSeq: seq, jobId: captureJobId(v.id, seq) },
      this.deps.clock.now(),
    );
    if (!ok) throw new AppError(Codes.REFUSED, 'the video is already waiting or being made');
    await this.deps.enqueue(await this.video(v.id));
  }

  deleteVideos(actorId: number, ids: number[]) {
    return this.deps.deleteVideos(actorId, ids);
  }

  downloads(q: DownloadQuery) {
    return this.deps.repo.searchDownloads(q);
  }
}
