import { type Kysely, sql } from 'kysely';

/**
 * The election night's timeline reads counters, not records: votes per quarter of an hour (UTC, the
 * hour as the ISO prefix 'YYYY-MM-DDTHH' and its quarter 0 to 3, as `substr` cuts voted_at), department
 * and candidate, moved in the vote's own transaction like candidate_totals (decision 083). A day is at
 * most 96 quarters × departments × candidates rows, however many votes it holds. Filled here from the
 * ballots that count, so a database that already has votes starts with its counters right.
 */
export function quarterTotalsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('quarter_totals')
        .addColumn('hour', 'varchar(13)', (c) => c.notNull())
        .addColumn('quarter', 'integer', (c) => c.notNull())
        .addColumn('department_id', 'integer', (c) => c.notNull().references('departments.id').onDelete('cascade'))
        .addColumn('candidate_id', 'integer', (c) => c.notNull().references('candidates.id').onDelete('cascade'))
        .addColumn('votes', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('quarter_totals_pk', ['hour', 'quarter', 'department_id', 'candidate_id'])
        .execute();
      await sql`
        insert into quarter_totals (hour, quarter, department_id, candidate_id, votes)
        select substr(r.voted_at, 1, 13), cast(substr(r.voted_at, 15, 2) as integer) / 15, r.department_id,
          v.candidate_id, count(*)
        from record_votes v join records r on r.id = v.record_id
        where r.vote_counted = 1 and r.voted_at is not null
        group by substr(r.voted_at, 1, 13), cast(substr(r.voted_at, 15, 2) as integer) / 15, r.department_id,
          v.candidate_id`.execute(db);
    },
  };
}
