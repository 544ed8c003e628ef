/**
 * The response envelope `{ code, message, data }` (spec §8) and zod helpers for route schemas.
 */
import { z } from 'zod';

export interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

export const ok = <T>(data: T, message = 'success'): Envelope<T> => ({ code: 0, message, data });

/** Response schema of a successful call whose data is `data`. */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.number().int().describe('0 on success'), message: z.string(), data });

export const ErrorEnvelope = z
  .object({ code: z.number().int(), message: z.string(), data: z.unknown() })
  .describe('Error envelope: code from the catalogue of spec §8');

/** Positive integer path/query parameter (`/user/test/{id}`). */
export const IdParam = z.coerce.number().int().positive();

export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});

/** Spec-shaped page of rows: the contract's. */
export { pageOf } from '@mocap/contracts';
