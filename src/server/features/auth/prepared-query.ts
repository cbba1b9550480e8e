import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * A query on a hot path, built and compiled once, then run with new values. Kysely rebuilds and
 * recompiles a query at every call; for the lookups every signed-in request makes, that was most of
 * their cost. `build` receives unique placeholder strings (whatever the declared types) that must only be
 * used as values; each is swapped for the real value at run time.
 */
export function preparedQuery<Row, Args extends (string | number)[]>(
  db: Kysely<Database>,
  build: (...placeholders: Args) => Compilable<Row>,
) {
  let compiled: { sql: string; parameters: readonly unknown[]; placeholders: string[] } | undefined;
  return async (...args: Args): Promise<Row[]> => {
    if (!compiled) {
      const placeholders = args.map((_, i) => `\u0000placeholder-${i}\u0000`);
      const query = build(...(placeholders as unknown as Args)).compile();
      compiled = { sql: query.sql, parameters: query.parameters, placeholders };
    }
    const { sql, parameters, placeholders } = compiled;
    const values = parameters.map((p) => {
      const index = typeof p === 'string' ? placeholders.indexOf(p) : -1;
      return index >= 0 ? args[index] : p;
    });
    const result = await db.executeQuery<Row>(CompiledQuery.raw(sql, values));
    return result.rows;
  };
}
