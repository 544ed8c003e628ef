/** The console slice's ports: its records and the repository interface its service uses (`repo.ts` implements it). */
import type { Page } from '../../ports.ts';

export interface VideoAdminQuery {
  keyword?: string;
  id?: number;
  userId?: number;
  status?: number;
  inSquare?: boolean;
  feedback?: 'open' | 'handled' | 'any';
  page: number;
  size: number;
}

export interface VideoAdminRow {
  id: number;
  name: string;
  serialNo: string;
  userId: number;
  email: string;
  status: number;
  progress: number;
  error: string | null;
  inSquare: boolean;
  durationMs: number;
  boneType: string;
  captureType: string;
  modelType: string;
  downloads: number;
  feedback: string | null;
  feedbackStatus: number;
  feedbackAt: number | null;
  charged: number;
  currency: string;
  storagePrefix: string;
  thumbKey: string | null;
  createdAt: number;
  finishedAt: number | null;
}

export interface DownloadQuery {
  keyword?: string;
  userId?: number;
  videoId?: number;
  from?: number;
  to?: number;
  page: number;
  size: number;
}

export interface DownloadRow {
  id: number;
  videoId: number;
  videoName: string;
  userId: number;
  email: string;
  boneType: string;
  kind: string;
  coins: number;
  createdAt: number;
}

export interface ConsoleRepo {
  searchVideos(q: VideoAdminQuery): Promise<Page<VideoAdminRow>>;
  searchDownloads(q: DownloadQuery): Promise<Page<DownloadRow> & { coins: number }>;
}
