/** Music endpoints' shapes (`/music/*`): the cards, their list body, downloads and preview URLs. */
import { z } from 'zod';

/** One music card (`GET /music/{id}`, the upload, `/music/center`, `/music/redone/{id}`). */
export const MusicSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  fileName: z.string(),
  duration: z.number().describe('seconds'),
  status: z.number().int().describe('0 not made, 1 in progress, 2 made, 3 failed'),
  statusName: z.string(),
  progress: z.number().int().describe('0..100'),
  error: z.string().nullable(),
  seed: z.number().int().describe('the seed of the current dance'),
  redoneCount: z.number().int(),
  tempo: z.number().nullable().describe('BPM, once analysed'),
  beats: z.number().int().nullable(),
  boneTypes: z.array(z.string()).describe('bone types whose zips are ready'),
  charged: z.number().int(),
  currency: z.string(),
  createAt: z.number().int(),
  finishedAt: z.number().int().nullable(),
});
export type Music = z.infer<typeof MusicSchema>;

export const MusicCenterBody = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  keyword: z.string().max(64).optional(),
});

/** `GET /music/download/{bodyType}/{id}/{boneType}`. */
export const MusicDownloadSchema = z.object({
  paths: z.array(z.string()),
  name: z.string(),
  bonetype: z.string(),
  motionsName: z.array(z.string()),
});
export type MusicDownload = z.infer<typeof MusicDownloadSchema>;

/** `GET /music/cos_url/{id}`. */
export const MusicUrlsSchema = z.object({
  audio: z.string().describe('signed URL of the music'),
  clip: z.string().nullable().describe('signed URL of the dance (mocap-motion JSON), once made'),
});
export type MusicUrls = z.infer<typeof MusicUrlsSchema>;
