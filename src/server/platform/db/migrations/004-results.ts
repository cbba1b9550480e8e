import { type Kysely, sql } from 'kysely';
import type { Dialect } from '#server/platform/db/dialect';

/** The PostgreSQL channel told about every change of the result counters (LISTEN/NOTIFY). */
export const RESULTS_CHANNEL = 'comando_results';

/**
 * Live results across app instances. On PostgreSQL, triggers on the counters notify RESULTS_CHANNEL
 * inside the vote's own transaction, so the notice goes out exactly when the vote commits, from
 * whichever instance (or import script) wrote it, and the vote path need not know about it. Once per
 * statement: a vote is two or three statements, not one notice per candidate row. A change of the
 * denominator notifies too. SQLite is one process: its instance reads the counters itself.
 */
export function resultsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql`
        create function comando_results_notify() returns trigger language plpgsql as $$
        begin
          perform pg_notify(${sql.lit(RESULTS_CHANNEL)}, tg_table_name);
          return null;
        end
        $$`.execute(db);
      for (const table of ['candidate_totals', 'vote_totals']) {
        await sql`
          create trigger ${sql.id(`${table}_notify`)}
          after insert or update or delete or truncate on ${sql.table(table)}
          for each statement execute function comando_results_notify()`.execute(db);
      }
      await sql`
        create trigger settings_results_notify
        after insert or update on settings
        for each row when (new.key = 'results_denominator')
        execute function comando_results_notify()`.execute(db);
    },
  };
}
