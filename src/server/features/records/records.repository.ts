import { type Kysely, sql } from 'kysely';
import { compiledQuery } from '#server/platform/db/compiled-query';
import type { Database } from '#server/platform/db/schema';
import { quarterOf, RECORD_COLUMNS, type RecordRow } from '#server/platform/records/records.repository';

/* The validators' side of the records: their lists and the vote. What other features share is in platform/records. */

type Db = Kysely<Database>;

const allPhotos = sql<boolean>`gobernador_photo_id is not null and an_photo_id is not null and clez_photo_id is not null`;

const markVotedQuery = compiledQuery(
  (db: Db, departmentId: number, recordId: number, codes: string, by: string, at: string) =>
    db
      .updateTable('records')
      .set({
        voted_at: at,
        voted_by: by,
        vote_codes: codes,
        vote_revision: sql<number>`vote_revision + 1`,
        updated_at: at,
        completed: sql<number>`case when ${allPhotos} then 1 else 0 end`,
        // A vote that comes after the three photos is the step that validates the record.
        validated_by: sql<string | null>`case when ${allPhotos} then ${by} else null end`,
      })
      .where('id', '=', recordId)
      .where('department_id', '=', departmentId)
      .where('status', '=', 'pendiente')
      .where('voted_at', 'is', null)
      .returning(RECORD_COLUMNS),
);

const bumpBallotsQuery = compiledQuery((db: Db, departmentId: number) =>
  db
    .insertInto('vote_totals')
    .values({ department_id: departmentId, ballots: 1 })
    .onConflict((oc) =>
      oc.column('department_id').doUpdateSet((eb) => ({ ballots: eb('vote_totals.ballots', '+', 1) })),
    ),
);

/** Ballot rows and candidate counters, one compiled variant per number of candidates. */
const ballotQueries = new Map<number, ReturnType<typeof buildBallotQueries>>();
function buildBallotQueries(count: number) {
  const slots = Array.from({ length: count }, (_, i) => i);
  return {
    rows: compiledQuery((db: Db, recordId: number, at: string, ...candidateIds: number[]) =>
      db
        .insertInto('record_votes')
        .values(slots.map((i) => ({ record_id: recordId, candidate_id: candidateIds[i] as number, created_at: at }))),
    ),
    totals: compiledQuery((db: Db, departmentId: number, ...candidateIds: number[]) =>
      db
        .insertInto('candidate_totals')
        .values(slots.map((i) => ({ department_id: departmentId, candidate_id: candidateIds[i] as number, votes: 1 })))
        .onConflict((oc) =>
          oc
            .columns(['department_id', 'candidate_id'])
            .doUpdateSet((eb) => ({ votes: eb('candidate_totals.votes', '+', 1) })),
        ),
    ),
    // The vote's quarter of an hour, for the timeline (decision 083): one row per candidate, one statement.
    quarters: compiledQuery((db: Db, hour: string, quarter: number, departmentId: number, ...candidateIds: number[]) =>
      db
        .insertInto('quarter_totals')
        .values(
          slots.map((i) => ({
            hour,
            quarter,
            department_id: departmentId,
            candidate_id: candidateIds[i] as number,
            votes: 1,
          })),
        )
        .onConflict((oc) =>
          oc
            .columns(['hour', 'quarter', 'department_id', 'candidate_id'])
            .doUpdateSet((eb) => ({ votes: eb('quarter_totals.votes', '+', 1) })),
        ),
    ),
  };
}

export function createValidationRepository(db: Db) {
  return {
    /**
     * One page of a department's pending records, by id after `after`. Finished records are left out
     * unless asked for. `pattern` is a LIKE pattern over the stored search text (escape `\`).
     */
    async listPage(
      departmentId: number,
      options: { includeValidated: boolean; pattern?: string; after?: number; limit: number },
    ): Promise<{ rows: RecordRow[]; nextCursor: number | null }> {
      // Built at each call: the shared pages are kept for a second (recordListAnswers) and a search
      // scans the department's rows, so compiling ahead saves nothing that shows (decision 036).
      let query = db
        .selectFrom('records')
        .select(RECORD_COLUMNS)
        .where('department_id', '=', departmentId)
        .where('status', '=', 'pendiente');
      if (!options.includeValidated) query = query.where('completed', '=', 0);
      if (options.pattern !== undefined)
        query = query.where(sql<boolean>`search_text like ${options.pattern} escape '\\'`);
      if (options.after !== undefined) query = query.where('id', '>', options.after);
      const rows = await query
        .orderBy('id')
        .limit(options.limit + 1)
        .execute();
      const hasMore = rows.length > options.limit;
      const page = hasMore ? rows.slice(0, options.limit) : rows;
      return { rows: page, nextCursor: hasMore ? (page.at(-1)?.id ?? null) : null };
    },

    /**
     * Marks the record voted, only if nobody did before: the first vote wins, the database decides.
     * Returns the updated record, or undefined when it was already voted (or is not in the department).
     */
    async markVoted(
      departmentId: number,
      recordId: number,
      vote: { codes: string[]; by: string; at: string },
    ): Promise<RecordRow | undefined> {
      return (await markVotedQuery(db, departmentId, recordId, vote.codes.join(','), vote.by, vote.at))[0];
    },

    /** The ballot's candidates, and the department's counters (totals and the quarter's) moved in the same transaction. */
    async addVotes(departmentId: number, recordId: number, candidateIds: number[], at: string): Promise<void> {
      // Same lock order in every transaction (totals row, then candidates by id): no deadlocks.
      const ids = [...candidateIds].sort((a, b) => a - b);
      let queries = ballotQueries.get(ids.length);
      if (ids.length > 0 && !queries) {
        queries = buildBallotQueries(ids.length);
        ballotQueries.set(ids.length, queries);
      }
      // The ballot's own rows first: the counters' rows are shared by every vote and, on PostgreSQL,
      // held from their update to the commit.
      if (queries) await queries.rows(db, recordId, at, ...ids);
      await bumpBallotsQuery(db, departmentId);
      if (!queries) return;
      await queries.totals(db, departmentId, ...ids);
      const { hour, quarter } = quarterOf(at);
      await queries.quarters(db, hour, quarter, departmentId, ...ids);
    },
  };
}
