import { type Kysely, sql } from 'kysely';
import { compiledQuery } from '#server/platform/db/compiled-query';
import type { Database } from '#server/platform/db/schema';
import { completedSql, validatedSql } from './record-rules';
import { createRecordsRepository, quarterOf, RECORD_COLUMNS, type RecordRow } from './records.repository';

/* The vote, as the records kernel writes it: the record, its ballot rows and the counters they move. */

type Db = Kysely<Database>;

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
        completed: completedSql({ voting: true }),
        // A vote that comes after the three photos is the step that validates the record.
        validated_by: sql<string | null>`case when ${validatedSql({ voting: true })} then ${by} else null end`,
      })
      .where('id', '=', recordId)
      .where('department_id', '=', departmentId)
      .where('status', '=', 'pendiente')
      .where('voted_at', 'is', null)
      .returning(RECORD_COLUMNS),
);

/** A ballot's own rows (one per candidate), one compiled variant per number of candidates. */
const ballotRowsQueries = new Map<number, ReturnType<typeof buildBallotRowsQuery>>();
function buildBallotRowsQuery(count: number) {
  const slots = Array.from({ length: count }, (_, i) => i);
  return compiledQuery((db: Db, recordId: number, at: string, ...candidateIds: number[]) =>
    db
      .insertInto('record_votes')
      .values(slots.map((i) => ({ record_id: recordId, candidate_id: candidateIds[i] as number, created_at: at }))),
  );
}

/**
 * The counters' moves of the votes of one transaction, summed (decision 090): the department's ballots,
 * voted and validated records, and its candidates' votes in total and in each quarter of an hour. The
 * vote writer adds each vote that went through and writes the sums once, just before the commit, so a
 * batch of votes moves each counter row once instead of once per vote.
 */
export class BallotTally {
  readonly departments = new Map<number, { ballots: number; validated: number }>();
  readonly candidates = new Map<string, { departmentId: number; candidateId: number; votes: number }>();
  readonly quarters = new Map<
    string,
    { hour: string; quarter: number; departmentId: number; candidateId: number; votes: number }
  >();

  /** One ballot cast at `at` (ISO) for these candidates; `validated` when it completed its record. */
  add(ballot: { departmentId: number; candidateIds: number[]; at: string; validated: boolean }): void {
    const { departmentId, candidateIds, at } = ballot;
    const department = this.departments.get(departmentId) ?? { ballots: 0, validated: 0 };
    department.ballots += 1;
    if (ballot.validated) department.validated += 1;
    this.departments.set(departmentId, department);
    const { hour, quarter } = quarterOf(at);
    for (const candidateId of candidateIds) {
      const totalKey = `${departmentId} ${candidateId}`;
      const total = this.candidates.get(totalKey) ?? { departmentId, candidateId, votes: 0 };
      total.votes += 1;
      this.candidates.set(totalKey, total);
      const quarterKey = `${hour} ${quarter} ${departmentId} ${candidateId}`;
      const inQuarter = this.quarters.get(quarterKey) ?? { hour, quarter, departmentId, candidateId, votes: 0 };
      inQuarter.votes += 1;
      this.quarters.set(quarterKey, inQuarter);
    }
  }
}

/** Department, then candidate: every transaction takes the counters' rows in this order (no deadlocks). */
const byRow = (a: { departmentId: number; candidateId: number; hour?: string; quarter?: number }, b: typeof a) =>
  a.departmentId - b.departmentId ||
  a.candidateId - b.candidateId ||
  (a.hour ?? '').localeCompare(b.hour ?? '') ||
  (a.quarter ?? 0) - (b.quarter ?? 0);

/** The vote's writes (the hot path: compiled queries, decision 036; the counters once per transaction, 090). */
export function createVotesRepository(db: Db) {
  return {
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

    /** The ballot's own rows, one per candidate (its counters move with the transaction's tally). */
    async addBallotRows(recordId: number, candidateIds: number[], at: string): Promise<void> {
      if (candidateIds.length === 0) return;
      let query = ballotRowsQueries.get(candidateIds.length);
      if (!query) {
        query = buildBallotRowsQuery(candidateIds.length);
        ballotRowsQueries.set(candidateIds.length, query);
      }
      await query(db, recordId, at, ...candidateIds);
    },

    /**
     * Writes a transaction's tally: each counter row it moves, once, by the sum (decision 090). On
     * PostgreSQL these rows are shared by every vote and held from their update to the commit: the
     * caller writes the tally last.
     */
    async writeTally(tally: BallotTally): Promise<void> {
      const records = createRecordsRepository(db);
      const departments = [...tally.departments].sort(([a], [b]) => a - b);
      for (const [departmentId, { ballots }] of departments) await records.moveBallots(departmentId, ballots);
      const candidates = [...tally.candidates.values()].sort(byRow);
      if (candidates.length > 0) {
        await db
          .insertInto('candidate_totals')
          .values(
            candidates.map((c) => ({ department_id: c.departmentId, candidate_id: c.candidateId, votes: c.votes })),
          )
          .onConflict((oc) =>
            oc
              .columns(['department_id', 'candidate_id'])
              .doUpdateSet((eb) => ({ votes: eb('candidate_totals.votes', '+', eb.ref('excluded.votes')) })),
          )
          .execute();
      }
      const quarters = [...tally.quarters.values()].sort(byRow);
      if (quarters.length > 0) {
        await db
          .insertInto('quarter_totals')
          .values(
            quarters.map((q) => ({
              hour: q.hour,
              quarter: q.quarter,
              department_id: q.departmentId,
              candidate_id: q.candidateId,
              votes: q.votes,
            })),
          )
          .onConflict((oc) =>
            oc
              .columns(['hour', 'quarter', 'department_id', 'candidate_id'])
              .doUpdateSet((eb) => ({ votes: eb('quarter_totals.votes', '+', eb.ref('excluded.votes')) })),
          )
          .execute();
      }
      for (const [departmentId, { ballots, validated }] of departments) {
        await records.bumpCounts(departmentId, { voted: ballots, validated });
      }
    },
  };
}
