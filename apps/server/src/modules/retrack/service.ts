/**
 * The server side of the 2D repair editor (issue 23) besides `GET/PUT /video/2d`:
 * - "Re-track from here": a job on its own queue (`retrack`) that runs the tracker forward from an edited frame
 *   of a made video, seeded with the pose the owner corrected there. The job's state and progress live in the
 *   queue; its result (the new track frames) in storage under the video's prefix.
 * - The editor's autosaved draft (the unsaved edits), kept in storage under the video's prefix so it survives a
 *   reload, another browser or another device; a revision number refuses a save made on a stale copy.
 * Paid plans only, like the repair itself; owner only.
 */
import { randomUUID } from 'node:crypto';
import { AppError, Codes, Messages } from '../../errors.ts';
import {
  type Clock,
  type JobQueue,
  type ObjectStorage,
  StorageNotFoundError,
  type UserRecord,
} from '../../ports.ts';
import { sourceKeyOf } from '../jobs/service.ts';
import { planOf } from '../video/limits.ts';
import { VideoStatus } from '../video/ports.ts';
import type { VideoService } from '../video/service.ts';

export const RETRACK_QUEUE = 'retrack';
/** At most this many seconds are re-tracked per job (the editor asks again from a later frame for more). */
export const RETRACK_MAX_SECONDS = 20;

export interface RetrackJobData {
  videoId: number;
  userId: number;
  sourceKey: string;
  resultKey: string;
  /** The edited frame; tracking starts at the next one and ends before `to`. */
  frame: number;
  to: number;
  /** The corrected image landmarks of `frame` (33 × [x, y, z, visibility, presence]). */
  pose: number[][];
  model: string;
  hands: boolean;
}

export interface RetrackView {
  jobId: string;
  status: 'waiting' | 'active' | 'done' | 'failed';
  progress: number;
  from: number;
  to: number;
  frames?: Record<string, unknown>[];
  error?: string;
}

/** The editor's draft: keyframes per frame and landmark, swaps over frame ranges, re-tracked frames. */
export interface DraftData {
  keys: Record<string, Record<string, { x: number; y: number; hidden?: boolean }>>;
  swaps: { from: number; to: number; part: 'all' | 'legs' | 'arms' }[];
  replaced?: Record<string, Record<string, unknown>>;
  [more: string]: unknown;
}

/** The editor's unsaved edits of one video as stored. */
export interface StoredDraft {
  /** Identity of the tracks the draft was made on (the editor drops a draft whose base differs). */
  base: string;
  draft: DraftData;
  /** Revision: 1 for the first save, +1 per save. */
  rev: number;
  /** Server time of the last save (ms). */
  at: number;
}

/** A draft past this size (JSON bytes) is refused: the editor keeps re-tracked frames in it, not whole clips. */
export const DRAFT_MAX_BYTES = 16 * 1024 * 1024;

export interface RetrackDeps {
  videos: Pick<VideoService, 'owned'>;
  storage: Pick<ObjectStorage, 'getBytes' | 'exists' | 'put' | 'delete'>;
  queue: JobQueue<RetrackJobData>;
  clock: Clock;
}

export class RetrackService {
  constructor(private readonly deps: RetrackDeps) {}

  get queue(): JobQueue<RetrackJobData> {
    return this.deps.queue;
  }

  async start(u: UserRecord, id: number, frame: number, pose: number[][]): Promise<RetrackView> {
    if (planOf(u, this.deps.clock.now()) === 'free') throw new AppError(Codes.REFUSED, Messages.FREE_CLOSED);
    const v = await this.deps.videos.owned(u, id);
    if (v.status !== VideoStatus.MADE || !v.outputs.tracksKey) {
      throw new AppError(Codes.REFUSED, 'only a made video can be re-tracked');
    }
    // Frames past the end are refused by the worker (the video's own frame count); here only the shape.
    if (!Number.isInteger(frame) || frame < 0) {
      throw new AppError(Codes.PARAMETER_ERROR, 'frame is outside the video');
    }
    const seen = (j: number) =>
      Array.isArray(pose[j]) && pose[j].length >= 2 && pose[j].every(Number.isFinite);
    if (pose.length !== 33 || ![11, 12, 23, 24].every(seen)) {
      throw new AppError(Codes.PARAMETER_ERROR, 'pose must hold 33 landmarks with both shoulders and hips');
    }
    const jobId = `retrack-${v.id}-${randomUUID()}`;
    const fps = 60;
    const data: RetrackJobData = {
      videoId: v.id,
      userId: u.id,
      sourceKey: sourceKeyOf(v),
      resultKey: `${v.storagePrefix}/retrack/${jobId}.json`,
      frame,
      to: frame + 1 + RETRACK_MAX_SECONDS * fps,
      pose: pose.map((p) => p.slice(0, 5).map(Number)),
      model: ['lite', 'full', 'heavy'].includes(v.modelType) ? v.modelType : 'heavy',
      hands: v.captureType === 'hands' || v.captureType === 'full',
    };
    await this.deps.queue.enqueue(data, { jobId, priority: 'high', attempts: 2 });
    return { jobId, status: 'waiting', progress: 0, from: frame + 1, to: frame };
  }

  async state(u: UserRecord, jobId: string): Promise<RetrackView> {
    const job = await this.deps.queue.getJob(jobId);
    if (!job || job.data.userId !== u.id) throw new AppError(Codes.NOT_FOUND, 'no such re-track job');
    const base = { jobId, progress: job.progress, from: job.data.frame + 1, to: job.data.frame };
    if (job.state === 'failed') return { ...base, status: 'failed', error: job.error ?? 'failed' };
    if (job.state !== 'completed') return { ...base, status: job.state === 'active' ? 'active' : 'waiting' };
    if (!(await this.deps.storage.exists(job.data.resultKey))) {
      return { ...base, status: 'failed', error: 'the result is gone' };
    }
    const doc = JSON.parse((await this.deps.storage.getBytes(job.data.resultKey)).toString('utf8')) as {
      frames: ({ index: number } & Record<string, unknown>)[];
    };
    const last = doc.frames.length > 0 ? doc.frames[doc.frames.length - 1].index : job.data.frame;
    return { ...base, status: 'done', progress: 100, to: last, frames: doc.frames };
  }

  // ---------------------------------------------------------------- drafts

  private async draftKey(u: UserRecord, id: number): Promise<string> {
    if (planOf(u, this.deps.clock.now()) === 'free') throw new AppError(Codes.REFUSED, Messages.FREE_CLOSED);
    const v = await this.deps.videos.owned(u, id);
    return `${v.storagePrefix}/refresher/draft.json`;
  }

  /** The saved draft of a video, or null when there is none. */
  async draft(u: UserRecord, id: number): Promise<StoredDraft | null> {
    return this.readDraft(await this.draftKey(u, id));
  }

  /** The stored draft, or null (also when it is deleted while being read: a discard from another window). */
  private async readDraft(key: string): Promise<StoredDraft | null> {
    try {
      return JSON.parse((await this.deps.storage.getBytes(key)).toString('utf8')) as StoredDraft;
    } catch (e) {
      if (e instanceof StorageNotFoundError) return null;
      throw e;
    }
  }

  /**
   * Saves the draft. `rev` is the revision the editor's copy started from (0 when it had none): when another
   * save came in between (another tab or device), the save is refused and the stored draft answered in `data`.
   */
  async saveDraft(
    u: UserRecord,
    id: number,
    body: { base: string; draft: DraftData; rev: number },
  ): Promise<StoredDraft> {
    const key = await this.draftKey(u, id);
    const cur = await this.readDraft(key);
    if ((cur?.rev ?? 0) !== body.rev) {
      throw new AppError(Codes.REFUSED, 'the draft was changed in another window or device', cur);
    }
    const next: StoredDraft = {
      base: body.base,
      draft: body.draft,
      rev: (cur?.rev ?? 0) + 1,
      at: this.deps.clock.now(),
    };
    const json = JSON.stringify(next);
    if (Buffer.byteLength(json) > DRAFT_MAX_BYTES) {
      throw new AppError(Codes.PARAMETER_ERROR, 'the draft is too large');
    }
    await this.deps.storage.put(key, json, { contentType: 'application/json' });
    return next;
  }

  /** Drops the draft (discarded, or saved as the repair). */
  async deleteDraft(u: UserRecord, id: number): Promise<{ deleted: boolean }> {
    const key = await this.draftKey(u, id);
    const had = await this.deps.storage.exists(key);
    await this.deps.storage.delete(key);
    return { deleted: had };
  }
}
