/** Shapes many endpoints share: a page of rows, a list's first rows with the total, a list of ids to act on, the ids a delete removed. */
import { z } from 'zod';

/** Spec-shaped page of rows. */
export const pageOf = <T extends z.ZodType>(row: T) =>
  z.object({ list: z.array(row), total: z.number().int(), page: z.number().int(), size: z.number().int() });
/** A list's first rows and how many there are in all (no paging). */
export const listOf = <T extends z.ZodType>(row: T) =>
  z.object({ list: z.array(row), total: z.number().int() });
export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  size: number;
}

/** `{ ids }`: the rows a delete (or another bulk action) is about, 1 to 100. */
export const IdsBody = z.object({ ids: z.array(z.coerce.number().int().positive()).min(1).max(100) });

/** What a delete answers: the ids it removed. */
export const DeletedSchema = z.object({ deleted: z.array(z.number().int()) });
export type Deleted = z.infer<typeof DeletedSchema>;

/** `?page&size` of a paged list. */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});
