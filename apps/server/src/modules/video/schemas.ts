/** Zod schemas of the video and motion routes (they also document the API). */
import { z } from 'zod';
import { CAPTURE_TYPES } from './ports.ts';

export const VideoSchema = z.object({
  id: z.number().int(),
  name: z.string().describe('title (at most 15 characters)'),
  titleInSquare: z.string().nullable(),
  path: z.string().nullable().describe('signed URL of the uploaded video (owner, or a square video)'),
  thumbnail: z.string().nullable().describe('signed URL of the card thumbnail (JPEG)'),
  md5: z.string(),
  captureType: z.string().describe('body | hands | face | full'),
  boneType: z.string().describe('the bone type chosen at upload (spec §1 display names)'),
  format: z.string().describe('file family of the bone type: fbx, vmd, anim, bip, bvh, csm'),
  serialNumber: z.string(),
  duration: z.number().describe('seconds'),
  createAt: z.number().describe('epoch ms'),
  description: z.string(),
  status: z.number().int().describe('0 not made, 1 in progress, 2 made, 3 failed'),
  statusName: z.string(),
  progress: z.number().int().describe('0..100'),
  error: z.string().nullable(),
  creatorId: z.number().int(),
  creatorName: z.string(),
  inSquare: z.number().int().describe('1 when shared on the square'),
  repairCount: z.number().int().describe('2D repairs'),
  downloadCount: z.number().int(),
  collectCount: z.number().int(),
  category: z.number().int().nullable(),
  tags: z.array(z.string()),
  width: z.number().int(),
  height: z.number().int(),
  fps: z.number(),
  size: z.number().int().describe('bytes'),
  remakeCount: z.number().int(),
  freeRemakes: z.number().int().describe('free remakes left'),
  price: z.number().int().describe('V coins a non-owner pays to download it from the square'),
});

export const VideoDetailSchema = VideoSchema.extend({
  collected: z.boolean(),
  position: z.number().int().nullable().describe('jobs ahead in the queue (0 = next), null when not waiting'),
});

export const VideoPage = z.object({
  list: z.array(VideoSchema),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
});

/** A square page: each item says whether I collected it. */
export const SquarePage = VideoPage.extend({
  list: z.array(VideoSchema.extend({ collected: z.boolean() })),
});

const Tags = z
  .union([z.array(z.string()), z.string()])
  .optional()
  .nullable()
  .describe('tags (no comma inside a tag); category or tag is required');

export const UploadFieldsSchema = z.object({
  name: z.string().describe('title, at most 15 characters'),
  description: z.string().max(2000).optional(),
  categoryId: z.coerce.number().int().positive().optional().nullable(),
  tags: Tags,
  boneType: z.string().describe('bone type (free accounts: FBX bone types only)'),
  captureType: z.enum(CAPTURE_TYPES as [string, ...string[]]).optional(),
  titleInSquare: z.string().max(64).optional().nullable(),
});

export const ListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  keyword: z.string().max(64).optional(),
  status: z.array(z.number().int().min(0).max(3)).optional(),
  categoryId: z.number().int().positive().optional(),
  tag: z.string().max(20).optional(),
  from: z.number().optional(),
  to: z.number().optional(),
  sort: z.enum(['new', 'old', 'downloads', 'collects']).optional(),
});

export const MotionResultSchema = z.object({
  paths: z.array(z.string()).describe('signed, expiring download URLs'),
  name: z.string(),
  bonetype: z.string(),
  motionsName: z.string().describe('file name of the zip'),
  charged: z.number().int().describe('V coins charged by this call'),
  expiresIn: z.number().int().describe('seconds the URLs stay valid'),
});

export const IdsBody = z.object({ ids: z.array(z.coerce.number().int().positive()).min(1).max(100) });
