/**
 * `GET /<thing>/download/:bodyType/:id/:boneType` of motion that is whole-body only (music dances, library
 * animations): the params, and the refusal of bodyType 1 (the lower body) in the slice's words.
 */
import { z } from 'zod';
import { AppError, Codes } from '../errors.ts';
import { IdParam } from './envelope.ts';

export const WholeBodyDownloadParams = z.object({
  bodyType: z.coerce.number().int().min(0).max(1),
  id: IdParam,
  boneType: z.string().min(1).max(32),
});

/** Refuses (REFUSED) any bodyType but 0: `what` are whole-body motion. */
export function wholeBodyOnly(bodyType: number, what: string): void {
  if (bodyType !== 0) throw new AppError(Codes.REFUSED, `${what} are whole-body motion (bodyType 0)`);
}
