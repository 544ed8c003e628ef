/** zod schemas of the file routes (issue 25, spec §7 "Storage"). */
import { z } from 'zod';
import { TEXT_EXTENSIONS } from './service.ts';

export const Purpose = z.enum(['notice', 'avatar', 'picture', 'qrcode', 'text']);

export const FileViewSchema = z.object({
  id: z.number().int(),
  key: z.string().describe('uploadZM/<random id>.<extension of the content>'),
  url: z.string().describe('signed download URL (1 hour)'),
  kind: z.enum(['image', 'text']),
  purpose: Purpose,
  contentType: z.string(),
  size: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  name: z.string().describe('the name the client gave'),
  createdAt: z.number(),
});

export const WriteExtBody = z.object({
  content: z.string().max(2 * 1024 * 1024),
  ext: z
    .string()
    .min(1)
    .max(9)
    .describe(`one of ${TEXT_EXTENSIONS.join(', ')} (a leading dot is fine)`),
  name: z.string().max(255).optional(),
});

export const SignQuery = z.object({
  key: z.string().min(1).max(512),
  format: z.enum(['original', 'webp']).optional(),
  maxSide: z.coerce.number().int().min(16).max(4096).optional().describe('webp only: longest side in pixels'),
});

export const SignedFileSchema = z.object({
  key: z.string().describe('the object the URL reads (the webp conversion when one was asked)'),
  url: z.string(),
  contentType: z.string(),
  cached: z.boolean().describe('a stored webp conversion was reused'),
  expiresAt: z.number().int().describe('unix seconds'),
});
