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

/** One edited point on one frame (image pixels), or hidden there. */
const PointKey = z.object({ x: z.number(), y: z.number(), hidden: z.boolean().optional() });

/** The editor's draft: keyframes per frame and landmark, swaps over frame ranges, re-tracked frames. */
export const DraftBody = z
  .object({
    keys: z
      .record(z.string(), z.record(z.string(), PointKey))
      .describe('frame → landmark → keyframe (landmarks 0-32 body, 33-53 left hand, 54-74 right hand)'),
    swaps: z.array(
      z.object({
        from: z.number().int().min(0),
        to: z.number().int().min(0),
        part: z.enum(['all', 'legs', 'arms']),
      }),
    ),
    replaced: z
      .record(z.string(), z.record(z.string(), z.unknown()))
      .optional()
      .describe('frames replaced by a re-track (frame → track frame)'),
  })
  .passthrough();

export const DraftQuery = z.object({ id: IdParam });

export const DraftPut = z.object({
  id: IdParam,
  base: z.string().max(500).describe('identity of the tracks the draft was made on'),
  rev: z.number().int().min(0).describe('the revision this copy started from (0: none)'),
  draft: DraftBody,
});

export const DraftSchema = z.object({
  base: z.string(),
  rev: z.number().int(),
  at: z.number().describe('server time of the last save (ms)'),
  draft: DraftBody,
});
