/** Zod schemas of the music routes (they also make the OpenAPI document). */
import { z } from 'zod';

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

export const MusicCenterBody = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  keyword: z.string().max(64).optional(),
});

export const MusicIdsBody = z.object({ ids: z.array(z.coerce.number().int().positive()).min(1).max(100) });

export const MusicDownloadSchema = z.object({
  paths: z.array(z.string()),
  name: z.string(),
  bonetype: z.string(),
  motionsName: z.array(z.string()),
});

export const MusicUrlsSchema = z.object({
  audio: z.string().describe('signed URL of the music'),
  clip: z.string().nullable().describe('signed URL of the dance (mocap-motion JSON), once made'),
});
