import { type Kysely, type Selection, sql } from 'kysely';
import { createRecordChangesRepository } from '#server/core/records/record-changes.repository';
import { RESULTS_CHANNEL } from '#server/platform/db/migrations/004-results';
import type { Database } from '#server/platform/db/schema';

const COLUMNS = [
  'candidates.id',
  'candidates.code',
  'candidates.name',
  'candidates.colour',
  'candidates.photo_url',
  'candidates.position',
] as const;

/** A candidate with the votes counted for it. */
export type AdminCandidateRow = Selection<Database, 'candidates', (typeof COLUMNS)[number]> & { votes: number };

export function createAdminCandidatesRepository(db: Kysely<Database>) {
  const withVotes = () =>
    db.selectFrom('candidates').select((eb) => [
      ...COLUMNS,
      eb.fn
        .coalesce(
          eb
            .selectFrom('candidate_totals')
            .select((t) => t.fn.sum<number>('candidate_totals.votes').as('v'))
            .whereRef('candidate_totals.candidate_id', '=', 'candidates.id'),
          eb.lit(0),
        )
        .as('votes'),
    ]);
  const toRow = (r: Omit<AdminCandidateRow, 'votes'> & { votes: number | string | null }): AdminCandidateRow => ({
    ...r,
    votes: Number(r.votes ?? 0),
  });

  return {
    /** In ballot order, with the votes counted for each. */
    async list(): Promise<AdminCandidateRow[]> {
      const rows = await withVotes().orderBy('candidates.position').orderBy('candidates.id').execute();
      return rows.map(toRow);
    },

    async find(id: number): Promise<AdminCandidateRow | undefined> {
      const row = await withVotes().where('candidates.id', '=', id).executeTakeFirst();
      return row && toRow(row);
    },

    async findByCode(code: string): Promise<{ id: number } | undefined> {
      return db.selectFrom('candidates').select('id').where('code', '=', code).executeTakeFirst();
    },

    async findByPhotoUrl(url: string): Promise<{ id: number } | undefined> {
      return db.selectFrom('candidates').select('id').where('photo_url', '=', url).executeTakeFirst();
    },

    /** True when some record's vote names the candidate (its code is part of the ballots). */
    async hasBallots(id: number): Promise<boolean> {
      const row = await db
        .selectFrom('record_votes')
        .select('candidate_id')
        .where('candidate_id', '=', id)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    async insert(c: { code: string; name: string; colour: string; photoUrl: string }): Promise<number> {
      const last = await db
        .selectFrom('candidates')
        .select((eb) => eb.fn.max('position').as('p'))
        .executeTakeFirst();
      const position = last?.p == null ? 0 : Number(last.p) + 1;
      const row = await db
        .insertInto('candidates')
        .values({ code: c.code, name: c.name, colour: c.colour, photo_url: c.photoUrl, position })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async update(
      id: number,
      change: { code?: string | undefined; name?: string | undefined; colour?: string | undefined; photo_url?: string },
    ): Promise<void> {
      const set = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined));
      if (Object.keys(set).length === 0) return;
      await db.updateTable('candidates').set(set).where('id', '=', id).execute();
    },

    /** Puts the candidates in this order (ids), numbering their positions from 0. */
    async reorder(ids: number[]): Promise<void> {
      for (const [position, id] of ids.entries()) {
        await db.updateTable('candidates').set({ position }).where('id', '=', id).execute();
      }
    },

    async delete(id: number): Promise<void> {
      // Its counters first (the records kernel writes them).
      await createRecordChangesRepository(db).forgetCandidateCounters(id);
      await db.deleteFrom('candidates').where('id', '=', id).execute();
    },

    /** Tells the live results of every instance that the candidates changed (PostgreSQL only). */
    async notifyResults(dialect: 'sqlite' | 'postgres'): Promise<void> {
      if (dialect === 'postgres') await sql`select pg_notify(${RESULTS_CHANNEL}, 'candidates')`.execute(db);
    },
  };
}
