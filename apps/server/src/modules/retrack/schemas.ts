/** Schemas of the re-track job routes (2D repair editor, issue 23). */
import { z } from 'zod';
import { IdParam } from '../../http/envelope.ts';

export const RetrackBody = z.object({
  id: IdParam,
  frame: z.coerce.number().int().min(0),
  pose: z.array(z.array(z.number()).min(2).max(5)).length(33),
});

export const RetrackQuery = z.object({ jobId: z.string().min(1).max(200) });

export const RetrackSchema = z.object({
  jobId: z.string(),
  status: z.enum(['waiting', 'active', 'done', 'failed']),
  progress: z.number(),
  from: z.number().int().describe('first re-tracked frame'),
  to: z.number().int().describe('last re-tracked frame (when done)'),
  frames: z.array(z.record(z.string(), z.unknown())).optional().describe('the new track frames, when done'),
  error: z.string().optional(),
});
