import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './schema';

type Db = Kysely<Database>;

/**
 * A query of a hot path (the vote, the session and access checks), built and compiled once per SQL
 * dialect and then run with new values on the database or on an open transaction. Kysely otherwise
 * rebuilds and recompiles the query at every call: a sixth to a quarter of a vote's cost (decision 036,
 * which also says to measure before adding a use). `build` gets one unique placeholder string per
 * argument; each may only be used as a value, and is swapped for the real one at run time.
 */
export function compiledQuery<Args extends unknown[], Row>(build: (db: Db, ...placeholders: Args) => Compilable<Row>) {
  const byDialect = new Map<string, { sql: string; parameters: readonly unknown[]; placeholders: string[] }>();
  return async (db: Db, ...args: Args): Promise<Row[]> => {
    const dialect = db.getExecutor().adapter.constructor.name;
    let compiled = byDialect.get(dialect);
    if (!compiled) {
      const placeholders = args.map((_, i) => `\u0000arg-${i}\u0000`);
      const query = build(db, ...(placeholders as unknown as Args)).compile();
      compiled = { sql: query.sql, parameters: query.parameters, placeholders };
      byDialect.set(dialect, compiled);
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

/** compiledQuery bound to one database: `build` uses that database, the call passes only the values. */
export function preparedQuery<Row, Args extends (string | number)[]>(
  db: Db,
  build: (...placeholders: Args) => Compilable<Row>,
) {
  const query = compiledQuery<Args, Row>((_db, ...placeholders) => build(...placeholders));
  return (...args: Args): Promise<Row[]> => query(db, ...args);
}
