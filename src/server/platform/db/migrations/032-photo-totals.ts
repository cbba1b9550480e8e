import { type Kysely, sql } from 'kysely';
import type { Dialect } from '#server/platform/db/dialect';

/**
 * Photos move the live stream like votes (decision 087). `photo_totals`: ballot photos received per
 * department (a replacement is one more; the drill's go with the drill's erasure, which rebuilds the counters), moved in the photo's own
 * transaction, so the map's figures change with every photo, on one instance as on several. On
 * PostgreSQL the counter notifies the results channel like the vote's counters do (`comando_results_notify`, migration 004), and
 * so does `record_counts`, whose validated records a photo, a new record, a void or a restore move
 * without a vote. Filled here from the photos already stored.
 */
export function photoTotalsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('photo_totals')
        .addColumn('department_id', 'integer', (c) => c.primaryKey().references('departments.id').onDelete('cascade'))
        .addColumn('photos', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`
        insert into photo_totals (department_id, photos)
        select r.department_id, count(*)
        from photos p join records r on r.id = p.record_id
        group by r.department_id`.execute(db);
      if (dialect !== 'postgres') return;
      for (const table of ['photo_totals', 'record_counts']) {
        await sql`
          create trigger ${sql.id(`${table}_notify`)}
          after insert or update or delete or truncate on ${sql.table(table)}
          for each statement execute function comando_results_notify()`.execute(db);
      }
    },
  };
}
