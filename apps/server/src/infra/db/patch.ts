/** The column values of a partial record (an insert's or update's fields), the way the repositories store them. */

/** A boolean stored as 0/1. */
export const flag = (b: boolean): number => (b ? 1 : 0);
/** A value stored as JSON text. */
export const jsonText = (v: unknown): string => JSON.stringify(v);
/** JSON text read back, or `fallback` when it does not parse. */
export function parsedOr<T>(s: string, fallback: T): T {
  try {
    return JSON.parse(s) as T;
  } catch {
    return fallback;
  }
}

/** A field's column: its name in snake case (`jobSeq` → `job_seq`). */
export const columnOf = (field: string): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The columns of `p`'s fields that are given (not undefined), each under its column name (`columnOf`): the
 * `plain` fields as they are, the `stored` ones converted (`flag`: booleans 0/1, `jsonText`: text).
 */
export function columnValues<P extends object>(
  p: P,
  plain: readonly (keyof P & string)[],
  stored: { [K in keyof P & string]?: (value: NonNullable<P[K]>) => unknown } = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of plain) if (p[key] !== undefined) out[columnOf(key)] = p[key];
  for (const key of Object.keys(stored) as (keyof P & string)[]) {
    const value = p[key];
    if (value !== undefined) out[columnOf(key)] = stored[key]!(value as NonNullable<P[keyof P & string]>);
  }
  return out;
}
