/** The music slice's ports: its records, repository, audio probe and job payload. */
import type { Page, Repos, TempFilePort } from '../../ports.ts';

export const MusicStatus = { NOT_MADE: 0, IN_PROGRESS: 1, MADE: 2, FAILED: 3 } as const;
export type MusicStatusCode = (typeof MusicStatus)[keyof typeof MusicStatus];
export const MUSIC_STATUS_NAMES = ['not made', 'in progress', 'made', 'failed'] as const;

export interface MusicOutputs {
  clipKey?: string;
  zips?: Record<string, { key: string; fileName: string; size: number }>;
  tempo?: number;
  beats?: number;
  frameCount?: number;
  fps?: number;
  moves?: number;
}

export interface MusicRecord {
  id: number;
  userId: number;
  name: string;
  fileName: string;
  audioKey: string;
  storagePrefix: string;
  md5: string;
  sizeBytes: number;
  durationMs: number;
  format: string;
  status: MusicStatusCode;
  progress: number;
  error: string | null;
  priority: 'low' | 'normal' | 'high';
  seed: number;
  jobSeq: number;
  attempts: number;
  redoneCount: number;
  currency: 'V' | 'CV';
  charged: number;
  chargeRef: string | null;
  refunded: boolean;
  outputs: MusicOutputs;
  startedAt: number | null;
  finishedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export type NewMusic = Pick<
  MusicRecord,
  | 'userId'
  | 'name'
  | 'fileName'
  | 'audioKey'
  | 'storagePrefix'
  | 'md5'
  | 'sizeBytes'
  | 'durationMs'
  | 'format'
  | 'priority'
  | 'seed'
  | 'currency'
  | 'charged'
  | 'chargeRef'
  | 'createdAt'
>;

export type MusicPatch = Partial<
  Pick<
    MusicRecord,
    | 'status'
    | 'progress'
    | 'error'
    | 'seed'
    | 'jobSeq'
    | 'attempts'
    | 'redoneCount'
    | 'refunded'
    | 'outputs'
    | 'startedAt'
    | 'finishedAt'
    | 'name'
  >
>;

export interface MusicRepo {
  create(m: NewMusic): Promise<MusicRecord>;
  findById(id: number): Promise<MusicRecord | null>;
  findByMd5(userId: number, md5: string): Promise<MusicRecord | null>;
  list(q: { userId: number; page: number; size: number; name?: string }): Promise<Page<MusicRecord>>;
  countByStatus(userId: number, statuses: number[]): Promise<number>;
  update(id: number, p: MusicPatch, now: number): Promise<void>;
  updateIfStatus(id: number, statuses: number[], p: MusicPatch, now: number): Promise<boolean>;
  delete(id: number): Promise<void>;
  unfinished(limit: number): Promise<MusicRecord[]>;
}

/** What the content check learns about an audio file (ffprobe). */
export interface ProbedAudio {
  audio: boolean;
  durationS: number;
  format: string;
  codec: string;
}

export interface AudioFilePort extends TempFilePort {
  probe(path: string): Promise<ProbedAudio>;
}

export interface MusicJobData {
  musicId: number;
  userId: number;
  seq: number;
  seed: number;
  chargeRef?: string | null;
}

export const MUSIC_QUEUE = 'music';
export const musicJobId = (id: number, seq: number) => `music-${id}-${seq}`;

export type MusicRepos = Repos & { music: MusicRepo };

export interface MusicStore {
  readonly repos: MusicRepos;
  transaction<T>(fn: (repos: MusicRepos) => Promise<T>): Promise<T>;
}
