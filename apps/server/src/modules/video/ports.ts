/**
 * Video domain types and the repository interface (implemented in `repo.ts`, the only place with video SQL).
 */
import type { Page, Repos, TempFilePort } from '../../ports.ts';

/** Spec §3: not made, in progress, made, failed. */
export const VideoStatus = { NOT_MADE: 0, IN_PROGRESS: 1, MADE: 2, FAILED: 3 } as const;
export type VideoStatusCode = (typeof VideoStatus)[keyof typeof VideoStatus];
/** The statuses' names, by code. */
export const STATUS_NAMES = ['not made', 'in progress', 'made', 'failed'] as const;

export { CAPTURE_TYPES, type CaptureType } from '@mocap/contracts';

/** How the motion is solved (smoothing, foot lock, root at origin, height): the contract's (`@mocap/contracts`). */
import type { CaptureType, JudgeReason, SolveOptions } from '@mocap/contracts';

export interface StoredZip {
  key: string;
  fileName: string;
  size: number;
}

/** Why a stretch of a result is weak (issue 15.3; the worker's `judgeTracks`): the contract's. */
export { JUDGE_REASONS, type JudgeReason } from '@mocap/contracts';

/** The capture's judgement of its own result: confidence 0..1 per clip and the weak time ranges. */
export interface CaptureJudgement {
  confidence: number;
  ranges: { from: number; to: number; confidence: number; reasons: JudgeReason[] }[];
  unusable: boolean;
}

/** Where a made video's results are in storage. */
export interface VideoOutputs {
  tracksKey?: string;
  clipKey?: string;
  thumbKey?: string;
  zips?: Record<string, StoredZip>;
  /** Lower-body variants made on demand, by bone type. */
  lower?: Record<string, StoredZip>;
  frameCount?: number;
  fps?: number;
  warnings?: string[];
  /** The capture's judgement of this result (issue 15.3). */
  judgement?: CaptureJudgement;
  /** Coins given back for this result because it was unusable (0/absent: none). */
  refundedCoins?: number;
}

export interface VideoRecord {
  id: number;
  userId: number;
  name: string;
  titleInSquare: string | null;
  description: string;
  fileName: string;
  storagePrefix: string;
  md5: string;
  sizeBytes: number;
  durationMs: number;
  width: number;
  height: number;
  fps: number;
  captureType: CaptureType;
  boneType: string;
  modelType: string;
  serialNo: string;
  status: VideoStatusCode;
  progress: number;
  error: string | null;
  priority: 'low' | 'normal' | 'high';
  jobId: string | null;
  jobSeq: number;
  attempts: number;
  inSquare: boolean;
  squareAt: number | null;
  repairCount: number;
  downloadCount: number;
  collectCount: number;
  remakeCount: number;
  freeRemakes: number;
  /** Free remakes granted by the capture's judgement of a flagged result (at most `JUDGE_FREE_REMAKES`). */
  judgeRemakes: number;
  /** The current result's confidence 0..1 (issue 15.3); null before a judged result exists. */
  confidence: number | null;
  regenCount: number;
  categoryId: number | null;
  tags: string[];
  currency: 'V' | 'CV';
  charged: number;
  chargeRef: string | null;
  refunded: boolean;
  outputs: VideoOutputs;
  /** Solve options (upload form, remake). */
  solveOptions: SolveOptions;
  feedback: string | null;
  feedbackStatus: number;
  feedbackAt: number | null;
  startedAt: number | null;
  finishedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** The fields the making, sharing, remakes and feedback of a video set: a new video starts without them. */
type MadeFields =
  | 'status'
  | 'progress'
  | 'error'
  | 'jobId'
  | 'jobSeq'
  | 'attempts'
  | 'inSquare'
  | 'squareAt'
  | 'repairCount'
  | 'remakeCount'
  | 'judgeRemakes'
  | 'confidence'
  | 'regenCount'
  | 'refunded'
  | 'outputs'
  | 'feedback'
  | 'feedbackStatus'
  | 'feedbackAt'
  | 'startedAt'
  | 'finishedAt'
  | 'solveOptions';

export type NewVideo = Omit<
  VideoRecord,
  'id' | 'downloadCount' | 'collectCount' | 'updatedAt' | MadeFields
> & {
  /** Default: the solver's defaults (`DEFAULT_SOLVE_OPTIONS`). */
  solveOptions?: SolveOptions;
};

export type VideoPatch = Partial<
  Pick<
    VideoRecord,
    | MadeFields
    | 'name'
    | 'titleInSquare'
    | 'description'
    | 'boneType'
    | 'categoryId'
    | 'tags'
    | 'freeRemakes'
    | 'priority'
    | 'modelType'
    | 'captureType'
  >
>;

export interface VideoQuery {
  userId?: number;
  inSquare?: boolean;
  status?: number[];
  keyword?: string;
  categoryId?: number;
  tag?: string;
  from?: number;
  to?: number;
  /** Only videos collected by this user. */
  collectedBy?: number;
  sort?: 'new' | 'old' | 'downloads' | 'collects';
  page: number;
  size: number;
}

export interface VideoListItem extends VideoRecord {
  creatorName: string;
}

export interface DownloadRecord {
  id: number;
  videoId: number;
  userId: number;
  boneType: string;
  kind: 'own' | 'square' | 'lower' | 'bulk';
  charged: number;
  createdAt: number;
}

export interface VideoRepo {
  create(v: NewVideo): Promise<VideoRecord>;
  findById(id: number): Promise<VideoRecord | undefined>;
  findWithCreator(id: number): Promise<VideoListItem | undefined>;
  update(id: number, patch: VideoPatch, now: number): Promise<void>;
  /** Conditional update (status guard); false when the video is not in one of `fromStatus`. */
  updateIfStatus(id: number, fromStatus: number[], patch: VideoPatch, now: number): Promise<boolean>;
  delete(id: number): Promise<boolean>;
  list(q: VideoQuery): Promise<Page<VideoListItem>>;
  /** Videos of the user in the given statuses (the queue limit counts not made + in progress). */
  countByStatus(userId: number, statuses: number[]): Promise<number>;
  /** Videos filed under the category (any owner): deleting a category in use is refused. */
  countByCategory(categoryId: number): Promise<number>;
  findByMd5(userId: number, md5: string): Promise<VideoRecord | undefined>;
  /** The user's most recent video. */
  latest(userId: number): Promise<VideoRecord | undefined>;
  /** Videos waiting or running whose job is unknown or finished (for reconciliation). */
  unfinished(limit: number): Promise<VideoRecord[]>;
  incrementDownloads(id: number): Promise<void>;
  addDownload(d: Omit<DownloadRecord, 'id'>): Promise<void>;
  downloadsOf(userId: number, videoId: number): Promise<DownloadRecord[]>;
  /** Toggles a collect; returns the new state. */
  toggleCollect(videoId: number, userId: number, now: number): Promise<boolean>;
  isCollected(videoId: number, userId: number): Promise<boolean>;
  /** Which of `videoIds` the user collected. */
  collectedAmong(userId: number, videoIds: number[]): Promise<Set<number>>;
  /** The next serial number of the day (`MC` + yyyymmdd + sequence). */
  nextSerial(now: number): Promise<string>;
}

/** What the content check needs to know about a file (ffprobe, `infra/media/video-files.ts`). */
export interface ProbedFile {
  /** True when the bytes are an MP4 (ISO BMFF `ftyp`, not QuickTime) with a readable video stream. */
  mp4: boolean;
  /** Why it is not a readable MP4 video (for logs). */
  problem?: string;
  durationS: number;
  width: number;
  height: number;
  fps: number;
  /** Frames counted by the probe (not the header's claim). */
  frameCount?: number;
}

export interface FilePort extends TempFilePort {
  probe(path: string): Promise<ProbedFile>;
  /** A fresh temp file path (not created). */
  tempPath(ext: string): string;
}

/** The video slice's store: the shared repositories plus the video repository, on one connection or transaction. */
export type VideoRepos = Repos & { videos: VideoRepo };

export interface VideoStore {
  readonly kind: 'sqlite' | 'postgres';
  readonly repos: VideoRepos;
  transaction<T>(fn: (repos: VideoRepos) => Promise<T>): Promise<T>;
}
