/** At most this many values in one statement: well under SQLite's and PostgreSQL's bound-parameter limits. */
export const VALUES_PER_STATEMENT = 500;

/**
 * `values` cut into slices of at most `size`, one statement each: an `IN (…)` list of a lookup, or the
 * rows of one multi-row insert. `for (const slice of inSlices(ids)) found.push(...(await query(slice)))`.
 */
export function inSlices<T>(values: readonly T[], size: number = VALUES_PER_STATEMENT): T[][] {
  const slices: T[][] = [];
  for (let i = 0; i < values.length; i += size) slices.push(values.slice(i, i + size));
  return slices;
}
