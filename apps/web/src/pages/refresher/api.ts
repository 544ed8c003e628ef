/**
 * The 2D repair editor's calls: `GET/PUT /video/2d` (spec §7), the re-track job, the re-solve's progress and the
 * draft autosaved on the server (`/video/2d/draft`).
 */
import { api } from '../../lib/api.ts';
import { videoById } from '../../lib/endpoints.ts';
import type { Video } from '../../lib/types.ts';
import type { Draft, ImagePoint, TrackFrame, TracksDoc } from './model.ts';

export interface Editable {
  id: number;
  repairCount: number;
  poseUrl: string;
  videoUrl: string;
}

export const loadEditable = (id: Video['id']): Promise<Editable> =>
  api.get<Editable>('/video/2d', { query: { id }, silent: true });

/** The tracks behind a signed URL; never from the HTTP cache (a URL signed in the same second as the one before
 *  a save is the same URL, and the saved tracks must replace the old ones). */
export async function fetchTracks(url: string): Promise<TracksDoc> {
  const res = await fetch(url, { cache: 'no-store' });
  if (!res.ok) throw new Error(`tracks: HTTP ${res.status}`);
  const doc = (await res.json()) as TracksDoc;
  if (doc?.format !== 'mocap-tracks' || !Array.isArray(doc.frames)) throw new Error('not a tracks document');
  return doc;
}

/** Saves the repaired tracks; the server re-solves (the video goes back through the queue). */
export const saveRepair = (id: Video['id'], tracks: TracksDoc): Promise<unknown> =>
  api.put<unknown>('/video/2d', { id, tracks }, { timeoutMs: 120_000 });

/** The solved clip (mocap-motion JSON), fresh after a re-solve (not from the HTTP cache). */
export async function solvedClip(id: Video['id']): Promise<unknown> {
  const d = (await api.get<unknown>(`/motion/video/${id}/clip_url`, { silent: true })) as { url?: string };
  if (!d?.url) throw new Error('no clip');
  const res = await fetch(d.url, { cache: 'no-store' });
  if (!res.ok) throw new Error(`clip: HTTP ${res.status}`);
  return res.json();
}

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

export interface ServerDraft {
  base: string;
  rev: number;
  at: number;
  draft: Draft;
}

/** The draft saved on the server for this video (null when none). */
export const loadDraft = (id: Video['id']): Promise<ServerDraft | null> =>
  api.get<ServerDraft | null>('/video/2d/draft', { query: { id }, silent: true });

/** Saves the draft over revision `rev` (0: none yet); refused (code 307) when a newer one was saved meanwhile. */
export const saveDraft = (id: Video['id'], base: string, rev: number, draft: Draft): Promise<ServerDraft> =>
  api.put<ServerDraft>('/video/2d/draft', { id, base, rev, draft }, { silent: true, timeoutMs: 60_000 });

export const deleteDraft = (id: Video['id']): Promise<unknown> =>
  api.del<unknown>('/video/2d/draft', undefined, { query: { id }, silent: true });
