/** The 2D repair editor's calls: `GET/PUT /video/2d` (spec §7), the re-track job, the re-solve's progress. */
import { api } from '../../lib/api.ts';
import { videoById } from '../../lib/endpoints.ts';
import type { Video } from '../../lib/types.ts';
import type { ImagePoint, TrackFrame, TracksDoc } from './model.ts';

export interface Editable {
  id: number;
  repairCount: number;
  poseUrl: string;
  videoUrl: string;
}

export const loadEditable = (id: Video['id']): Promise<Editable> =>
  api.get<Editable>('/video/2d', { query: { id }, silent: true });

export async function fetchTracks(url: string): Promise<TracksDoc> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`tracks: HTTP ${res.status}`);
  const doc = (await res.json()) as TracksDoc;
  if (doc?.format !== 'mocap-tracks' || !Array.isArray(doc.frames)) throw new Error('not a tracks document');
  return doc;
}

/** Saves the repaired tracks; the server re-solves (the video goes back through the queue). */
export const saveRepair = (id: Video['id'], tracks: TracksDoc): Promise<unknown> =>
  api.put<unknown>('/video/2d', { id, tracks }, { timeoutMs: 120_000 });

export const videoState = (id: Video['id']): Promise<Video> => videoById(id);

export interface RetrackState {
  jobId: string;
  status: 'waiting' | 'active' | 'done' | 'failed';
  progress: number;
  from: number;
  to: number;
  frames?: TrackFrame[];
  error?: string;
}

/** Starts the re-track job: the tracker runs forward from `frame`, seeded with the edited pose of that frame. */
export const startRetrack = (id: Video['id'], frame: number, pose: ImagePoint[]): Promise<RetrackState> =>
  api.post<RetrackState>('/video/2d/retrack', { id, frame, pose });

export const retrackState = (jobId: string): Promise<RetrackState> =>
  api.get<RetrackState>('/video/2d/retrack', { query: { jobId }, silent: true });
