/**
 * Capture jobs: what the server and the workers agree on. The server enqueues (`enqueue`), the worker runner
 * (`@mocap/worker`) calls the hooks as a job runs: `started` → `progress`… → `completed`, and `failedForGood`
 * after the last attempt (refunding the charge that paid for this run, once, by its ledger reference).
 * `reconcile` repairs what a crash between two steps can leave behind (a job lost before it was queued, a
 * final failure whose hook never ran); it is idempotent and runs periodically in the server.
 *
 * A job is `capture-<videoId>-<seq>`: `seq` grows with every remake/regen, and a job whose seq is no longer the
 * video's (superseded) does nothing.
 */

import { AppError, Codes, Messages } from '../../errors.ts';
import type { Clock, JobQueue } from '../../ports.ts';
import type { CoinService } from '../coins/service.ts';
import { JUDGE_FREE_REMAKES } from '../video/limits.ts';
import {
  type VideoOutputs,
  type VideoPatch,
  type VideoRecord,
  VideoStatus,
  type VideoStore,
} from '../video/ports.ts';

export type CaptureMode = 'capture' | 'resolve' | 'export';

export interface CaptureJobData {
  videoId: number;
  userId: number;
  /** capture: video → everything; resolve: stored (repaired) tracks → clip → zips; export: clip → zips. */
  mode: CaptureMode;
  seq: number;
  /** Ledger reference of the charge that paid for this run (refunded when it fails for good). */
  chargeRef?: string | null;
}

export const CAPTURE_QUEUE = 'capture';
export const JOB_ATTEMPTS = 3;

export function captureJobId(videoId: number, seq: number): string {
  return `capture-${videoId}-${seq}`;
}

/** The work a job does for a video, as the worker needs it. */
export interface JobVideo {
  video: VideoRecord;
  /** Storage keys. */
  sourceKey: string;
  prefix: string;
}

/**
 * The ledger reference of the charge that paid for the video's current run: the upload for the first run, the
 * paid remake for later ones (a free remake or a regen has none: refunding an unknown reference does nothing).
 */
export function runChargeRef(v: Pick<VideoRecord, 'id' | 'jobSeq' | 'chargeRef'>): string | null {
  return v.jobSeq === 0 ? v.chargeRef : `remake:${v.id}:${v.jobSeq}`;
}

export function sourceKeyOf(v: Pick<VideoRecord, 'storagePrefix'>): string {
  return `${v.storagePrefix}/source.mp4`;
}

export class CaptureJobs {
  constructor(
    private readonly deps: {
      store: VideoStore;
      coins: CoinService;
      queue: JobQueue<CaptureJobData>;
      clock: Clock;
      /** Retry delay base (default 5 s). */
      backoffMs?: number;
      attempts?: number;
      /** Told when a run made its results or failed for good (company e-mails and webhooks); never fails the job. */
      onFinished?: (video: VideoRecord, status: 'made' | 'failed') => Promise<void>;
    },
  ) {}

  private async tell(videoId: number, status: 'made' | 'failed'): Promise<void> {
    if (!this.deps.onFinished) return;
    try {
      const v = await this.deps.store.repos.videos.findById(videoId);
      if (v) await this.deps.onFinished(v, status);
    } catch {
      // a notice that cannot be sent must not fail the capture (webhook deliveries are retried on their own)
    }
  }

  get queue(): JobQueue<CaptureJobData> {
    return this.deps.queue;
  }

  /** Queues a run of the video (the video row must already hold `jobSeq` and `jobId`). */
  async enqueue(
    video: VideoRecord,
    mode: CaptureMode = 'capture',
    chargeRef: string | null = null,
  ): Promise<void> {
    await this.deps.queue.enqueue(
      { videoId: video.id, userId: video.userId, mode, seq: video.jobSeq, chargeRef },
      {
        jobId: captureJobId(video.id, video.jobSeq),
        priority: video.priority,
        attempts: this.deps.attempts ?? JOB_ATTEMPTS,
        backoffMs: this.deps.backoffMs ?? 5000,
      },
    );
  }

  private async current(data: CaptureJobData): Promise<VideoRecord | null> {
    const v = await this.deps.store.repos.videos.findById(data.videoId);
    if (!v || v.jobSeq !== data.seq) return null; // deleted or superseded by a newer run
    return v;
  }

  /** A run starts (or restarts after a crash). Returns the video, or null when there is nothing to do. */
  async started(data: CaptureJobData, attempt: number): Promise<JobVideo | null> {
    const v = await this.current(data);
    if (!v) return null;
    const now = this.deps.clock.now();
    const ok = await this.deps.store.repos.videos.updateIfStatus(
      v.id,
      [VideoStatus.NOT_MADE, VideoStatus.IN_PROGRESS, VideoStatus.MADE, VideoStatus.FAILED],
      { status: VideoStatus.IN_PROGRESS, progress: 0, attempts: attempt, startedAt: now, error: null },
      now,
    );
    if (!ok) return null;
    const fresh = (await this.deps.store.repos.videos.findById(v.id))!;
    return { video: fresh, sourceKey: sourceKeyOf(fresh), prefix: fresh.storagePrefix };
  }

  async progress(data: CaptureJobData, percent: number): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.store.repos.videos.updateIfStatus(
      data.videoId,
      [VideoStatus.IN_PROGRESS],
      { progress: Math.max(0, Math.min(99, Math.round(percent))) },
      now,
    );
  }

  /**
   * A run made its results. When the run judged its result (issue 15.3): the confidence is stored; a flagged
   * result (weak time ranges) grants one more free remake, at most `JUDGE_FREE_REMAKES` per video; an unusable
   * one gives back the run's charge (upload or paid remake) — all in one transaction, the refund with its ledger
   * row (`refund:<charge ref>`, so once per charge, also against `failedForGood`).
   */
  async completed(data: CaptureJobData, outputs: VideoOutputs): Promise<void> {
    const v = await this.current(data);
    if (!v) return;
    const now = this.deps.clock.now();
    const j = outputs.judgement;
    await this.deps.store.transaction(async (r) => {
      const merged: VideoOutputs = { ...v.outputs, ...outputs, lower: {} };
      const patch: VideoPatch = {
        status: VideoStatus.MADE,
        progress: 100,
        outputs: merged,
        error: null,
        finishedAt: now,
      };
      if (j) {
        patch.confidence = j.confidence;
        merged.refundedCoins = 0;
        if ((j.unusable || j.ranges.length > 0) && v.judgeRemakes < JUDGE_FREE_REMAKES) {
          patch.freeRemakes = v.freeRemakes + 1;
          patch.judgeRemakes = v.judgeRemakes + 1;
        }
        if (j.unusable && data.chargeRef) {
          const back = await this.deps.coins.refundIn(
            r,
            data.chargeRef,
            `unusable result (confidence ${j.confidence}): video ${v.id}`,
          );
          if (back) {
            merged.refundedCoins = back.entry.amount;
            patch.refunded = true;
          }
        }
      }
      await r.videos.update(v.id, patch, now);
    });
    await this.tell(v.id, 'made');
  }

  /**
   * The run failed after its last attempt: the video is failed (or back to made when an earlier run's results
   * exist) and the run's charge is refunded, once.
   */
  async failedForGood(data: CaptureJobData, error: string): Promise<void> {
    const v = await this.deps.store.repos.videos.findById(data.videoId);
    const now = this.deps.clock.now();
    if (data.chargeRef) await this.deps.coins.refund(data.chargeRef, `capture failed: video ${data.videoId}`);
    if (!v || v.jobSeq !== data.seq) return;
    const hadResults = Boolean(v.outputs.zips && Object.keys(v.outputs.zips).length > 0);
    await this.deps.store.repos.videos.update(
      v.id,
      {
        status: hadResults ? VideoStatus.MADE : VideoStatus.FAILED,
        progress: hadResults ? 100 : 0,
        error: `${Messages.VIDEO_FAILED} (${error.slice(0, 500)})`,
        refunded: data.chargeRef ? true : v.refunded,
        finishedAt: now,
      },
      now,
    );
    await this.tell(v.id, 'failed');
  }

  /**
   * Repairs unfinished videos whose queue job was lost (re-queued) or failed without its hook (failed for good
   * now). Returns what it did.
   */
  async reconcile(): Promise<{ requeued: number; failed: number }> {
    let requeued = 0;
    let failed = 0;
    for (const v of await this.deps.store.repos.videos.unfinished(500)) {
      const jobId = captureJobId(v.id, v.jobSeq);
      const job = await this.deps.queue.getJob(jobId);
      const data: CaptureJobData = {
        videoId: v.id,
        userId: v.userId,
        mode: 'capture',
        seq: v.jobSeq,
        chargeRef: runChargeRef(v),
      };
      if (!job) {
        // Created but never queued (crash between commit and enqueue), or removed from the queue.
        if (this.deps.clock.now() - v.updatedAt < 10_000) continue; // being queued right now
        await this.enqueue(v, 'capture', data.chargeRef ?? null);
        requeued++;
      } else if (job.state === 'failed') {
        await this.failedForGood({ ...data, ...(job.data as CaptureJobData) }, job.error ?? 'failed');
        failed++;
      }
    }
    return { requeued, failed };
  }

  /** The queue position (0 = next) of a waiting video, or null. */
  async position(video: VideoRecord): Promise<number | null> {
    if (video.status !== VideoStatus.NOT_MADE) return null;
    return this.deps.queue.position(captureJobId(video.id, video.jobSeq));
  }

  /** Removes the video's queued job; refuses while it runs. */
  async cancel(video: VideoRecord): Promise<void> {
    const jobId = captureJobId(video.id, video.jobSeq);
    const job = await this.deps.queue.getJob(jobId);
    if (job?.state === 'active') {
      throw new AppError(Codes.REFUSED, 'the video is being made; try again when it is done');
    }
    if (job) await this.deps.queue.remove(jobId);
  }
}
