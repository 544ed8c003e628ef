/** Animation library endpoints' shapes (`/animation/*`, `/admin/animation/*`). */
import { z } from 'zod';
import { BoneTypeSchema } from './bone-types.ts';
export const AnimationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  category: z.string(),
  tags: z.array(z.string()),
  duration: z.number().describe('seconds'),
  frameCount: z.number().int(),
  fps: z.number().int(),
  price: z.number().int().describe('coins, charged once per user (1 per second of motion, rounded up)'),
  currency: z.string().describe('V, or CV for company accounts'),
  status: z.number().int().describe('1 published, 0 hidden'),
  downloads: z.number().int(),
  credit: z.string().describe('acknowledgement of the source data, shown with the animation'),
  collected: z.boolean(),
  purchased: z.boolean().describe('bought: every bone type downloads free'),
  picture: z
    .string()
    .describe('signed URL of the card picture (SVG: four poses of the take, rendered from the clip)'),
  mine: z.boolean().describe('a capture I shared from the square: I may redo it from the video (redone)'),
  createAt: z.number().int(),
});

export const AnimationDetailSchema = AnimationSchema.extend({
  clip: z.string().describe('signed URL of the clip (mocap-motion JSON) for the 3D preview'),
});

export const AnimationSearchBody = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  keyword: z.string().max(64).optional(),
  category: z.string().max(32).optional(),
  tag: z.string().max(32).optional(),
  collected: z.boolean().optional().describe('only the animations I collected'),
});

export const AnimationAdminSearchBody = AnimationSearchBody.omit({ collected: true, tag: true }).extend({
  status: z.union([z.literal(0), z.literal(1)]).optional(),
});

export const AnimationCategories = z.array(z.object({ category: z.string(), count: z.number().int() }));

export const AnimationDownloadSchema = z.object({
  paths: z.array(z.string()),
  name: z.string(),
  bonetype: z.string(),
  motionsName: z.array(z.string()),
  charged: z.number().int().describe('coins charged by this call (0 once bought)'),
});

export const AnimationUrlsSchema = z.object({
  clip: z.string().describe('signed URL of the clip (mocap-motion JSON) for the 3D preview'),
  picture: z.string().describe('signed URL of the picture (SVG)'),
  zips: z
    .array(z.object({ boneType: z.string(), fileName: z.string(), url: z.string() }))
    .describe('once bought: the bone type zips already made that my plan may download (5-minute URLs)'),
});

export const AnimationBundleBody = z.object({
  ids: z.array(z.number().int().positive()).min(1).max(20),
  boneType: BoneTypeSchema,
});

export const AnimationBundleSchema = AnimationDownloadSchema.extend({
  count: z.number().int().describe('animations in the zip'),
});

export type Animation = z.infer<typeof AnimationSchema>;
export type AnimationDetail = z.infer<typeof AnimationDetailSchema>;
export type AnimationDownload = z.infer<typeof AnimationDownloadSchema>;
export type AnimationUrls = z.infer<typeof AnimationUrlsSchema>;
export type AnimationBundle = z.infer<typeof AnimationBundleSchema>;
