/** The column values of a partial record (an insert's or update's fields), the way the repositories store them. */

/** How a field is stored: under its column name, or under it converted (`flag`: booleans 0/1, `jsonText`: text). */
export type ColumnOf<V> = string | readonly [column: string, store: (value: V) => unknown];

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

/** The columns of `p`'s fields that are given (not undefined), named and converted as `columns` says. */
export function columnValues<P extends object>(
  p: P,
  columns: { [K in keyof P]?: ColumnOf<NonNullable<P[K]>> },
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(columns) as (keyof P)[]) {
    const value = p[key];
    const column = columns[key];
    if (value === undefined || column === undefined) continue;
    if (typeof column === 'string') out[column] = value;
    else out[column[0]] = column[1](value as NonNullable<P[keyof P]>);
  }
  return out;
}
