import { type Kysely, sql } from 'kysely';
import { counterRecounts } from '#server/core/records/records.repository';
import { ownPostgresClient } from '#server/platform/db/database';
import { RESULTS_CHANNEL } from '#server/platform/db/migrations/004-results';
import type { Database } from '#server/platform/db/schema';

export interface CandidateVotesRow {
  id: number;
  code: string;
  name: string;
  colour: string;
  photo_url: string;
  votes: number;
}

export interface DepartmentProgressRow {
  id: number;
  slug: string;
  title: string;
  total: number;
  voted: number;
  validated: number;
  reviewed: number;
  photos: number;
}

export interface PhotoCounterRow {
  department_id: number;
  photos: number;
}

export interface ProgressRow {
  department_id: number;
  total: number;
  voted: number;
  validated: number;
  reviewed: number;
}

export interface CounterRow {
  department_id: number;
  candidate_id: number;
  votes: number;
}

export interface QuarterCounterRow {
  /** 'YYYY-MM-DDTHH' (UTC). */
  hour: string;
  /** 0 to 3. */
  quarter: number;
  department_id: number;
  candidate_id: number;
  votes: number;
}

export interface BallotRow {
  department_id: number;
  ballots: number;
}

export interface VotedRecordRow {
  id: number;
  department: string;
  comunidad: string;
  ubch: string;
  nombre: string;
  vote_codes: string | null;
  gobernador: number;
  an: number;
  clez: number;
  completed: number;
  voted_by: string | null;
  voted_at: string | null;
  /** Each slot's review (decision 134): its state, and who reviewed it and when (the slot's last review). */
  gobernador_review: string | null;
  gobernador_reviewed_by: string | null;
  gobernador_reviewed_at: string | null;
  an_review: string | null;
  an_reviewed_by: string | null;
  an_reviewed_at: string | null;
  clez_review: string | null;
  clez_reviewed_by: string | null;
  clez_reviewed_at: string | null;
}

/** The last review of a record's slot: the current photo's, or the one that reopened the slot. */
const lastReview = (kind: 'gobernador' | 'an' | 'clez', column: 'reviewed_by' | 'reviewed_at') =>
  sql<
    string | null
  >`(select pr.${sql.ref(column)} from photo_reviews pr where pr.record_id = records.id and pr.kind = ${kind} order by pr.id desc limit 1)`;

/**
 * Reads of the Resultados page. Totals come from the counters the vote keeps in its own transaction
 * (candidate_totals: department × candidate, vote_totals: department): a few hundred rows at most,
 * however many records there are; the breakdown's progress comes from record_counts, kept the same
 * way by the records feature. Only the recount check and the download read records.
 */
export function createResultsRepository(db: Kysely<Database>) {
  return {
    /** Every candidate in ballot order with its votes summed over the departments. */
    async candidateVotes(): Promise<CandidateVotesRow[]> {
      const rows = await db
        .selectFrom('candidates')
        .leftJoin(
          (eb) =>
            eb
              .selectFrom('candidate_totals')
              .select((s) => ['candidate_id', s.fn.sum<number>('votes').as('votes')])
              .groupBy('candidate_id')
              .as('t'),
          (join) => join.onRef('t.candidate_id', '=', 'candidates.id'),
        )
        .select(['candidates.id', 'candidates.code', 'candidates.name', 'candidates.colour', 'candidates.photo_url'])
        .select((s) => s.fn.coalesce('t.votes', sql<number>`0`).as('votes'))
        .orderBy('candidates.position')
        .orderBy('candidates.id')
        .execute();
      return rows.map((r) => ({ ...r, votes: Number(r.votes) }));
    },

    /**
     * SQLite only: a value that changes whenever anything is written to the database, by this process
     * (its one connection's change count) or by another one (the file's data version). Two tiny
     * queries, against the handful the totals take.
     */
    async ballots(): Promise<number> {
      const row = await db
        .selectFrom('vote_totals')
        .select((s) => s.fn.coalesce(s.fn.sum<number>('ballots'), sql<number>`0`).as('ballots'))
        .executeTakeFirst();
      return Number(row?.ballots ?? 0);
    },

    async listCandidates(): Promise<{ id: number; code: string; name: string; colour: string }[]> {
      return db
        .selectFrom('candidates')
        .select(['id', 'code', 'name', 'colour'])
        .orderBy('position')
        .orderBy('id')
        .execute();
    },

    async listDepartments(): Promise<{ id: number; slug: string }[]> {
      return db.selectFrom('departments').select(['id', 'slug']).orderBy('position').execute();
    },

    /**
     * Every municipality in menu order with its pending, voted and validated records, from the counts
     * the records feature keeps in the same transaction as each insert, vote and photo.
     */
    async departmentProgress(): Promise<DepartmentProgressRow[]> {
      const rows = await db
        .selectFrom('departments')
        .leftJoin('record_counts', 'record_counts.department_id', 'departments.id')
        .leftJoin('photo_totals', 'photo_totals.department_id', 'departments.id')
        .select(['departments.id', 'departments.slug', 'departments.title'])
        .select((s) => [
          s.fn.coalesce('record_counts.total', sql<number>`0`).as('total'),
          s.fn.coalesce('record_counts.voted', sql<number>`0`).as('voted'),
          s.fn.coalesce('record_counts.validated', sql<number>`0`).as('validated'),
          s.fn.coalesce('record_counts.reviewed', sql<number>`0`).as('reviewed'),
          s.fn.coalesce('photo_totals.photos', sql<number>`0`).as('photos'),
        ])
        .where('departments.kind', '=', 'municipality')
        .orderBy('departments.position')
        .execute();
      return rows.map((r) => ({
        ...r,
        total: Number(r.total),
        voted: Number(r.voted),
        validated: Number(r.validated),
        reviewed: Number(r.reviewed),
        photos: Number(r.photos),
      }));
    },

    /** Photos received per department, as the photos kept them (photo_totals). */
    async photoCounters(): Promise<PhotoCounterRow[]> {
      const rows = await db.selectFrom('photo_totals').select(['department_id', 'photos']).execute();
      return rows.map((r) => ({ department_id: r.department_id, photos: Number(r.photos) }));
    },

    /** Photos received per department as they should be: every stored photo (a scan of photos). */
    async recountPhotos(): Promise<PhotoCounterRow[]> {
      const rows = await counterRecounts.photos(db).execute();
      return rows.map((r) => ({ department_id: r.department_id, photos: Number(r.photos) }));
    },

    async progressCounters(): Promise<ProgressRow[]> {
      const rows = await db
        .selectFrom('record_counts')
        .select(['department_id', 'total', 'voted', 'validated', 'reviewed'])
        .execute();
      return rows.map((r) => ({
        department_id: r.department_id,
        total: Number(r.total),
        voted: Number(r.voted),
        validated: Number(r.validated),
        reviewed: Number(r.reviewed),
      }));
    },

    /** The progress counts as they should be: pending records per department (a full scan). */
    async recountProgress(): Promise<ProgressRow[]> {
      const rows = await counterRecounts.progress(db).execute();
      return rows.map((r) => ({
        department_id: r.department_id,
        total: Number(r.total),
        voted: Number(r.voted),
        validated: Number(r.validated),
        reviewed: Number(r.reviewed),
      }));
    },

    async candidateCounters(): Promise<CounterRow[]> {
      const rows = await db.selectFrom('candidate_totals').select(['department_id', 'candidate_id', 'votes']).execute();
      return rows.map((r) => ({ ...r, votes: Number(r.votes) }));
    },

    async ballotCounters(): Promise<BallotRow[]> {
      const rows = await db.selectFrom('vote_totals').select(['department_id', 'ballots']).execute();
      return rows.map((r) => ({ ...r, ballots: Number(r.ballots) }));
    },

    /** The candidate counters as they should be: recounted from the ballots that count (a full scan). */
    async recountCandidateVotes(): Promise<CounterRow[]> {
      const rows = await counterRecounts.candidateVotes(db).execute();
      return rows.map((r) => ({ ...r, votes: Number(r.votes) }));
    },

    /** The ballot counters as they should be: voted records whose vote counts, per department (a full scan). */
    async recountBallots(): Promise<BallotRow[]> {
      const rows = await counterRecounts.ballots(db).execute();
      return rows.map((r) => ({ ...r, ballots: Number(r.ballots) }));
    },

    /**
     * Votes per candidate and quarter of an hour from the hour `sinceHour` ('YYYY-MM-DDTHH', UTC) on,
     * summed over departments from the counters the vote keeps (quarter_totals): at most 96 quarters ×
     * departments × candidates rows a day, however many votes they hold. `quarter` is 0 to 3.
     */
    async votesByQuarter(
      sinceHour: string,
    ): Promise<{ hour: string; quarter: number; candidate_id: number; votes: number }[]> {
      const rows = await db
        .selectFrom('quarter_totals')
        .select((s) => ['hour', 'quarter', 'candidate_id', s.fn.sum<number>('votes').as('votes')])
        .where('hour', '>=', sinceHour)
        .groupBy(['hour', 'quarter', 'candidate_id'])
        .execute();
      return rows.map((r) => ({ ...r, quarter: Number(r.quarter), votes: Number(r.votes) }));
    },

    /** The quarter counters as kept, per department (for `results:check`). */
    async quarterCounters(): Promise<QuarterCounterRow[]> {
      const rows = await db
        .selectFrom('quarter_totals')
        .select(['hour', 'quarter', 'department_id', 'candidate_id', 'votes'])
        .execute();
      return rows.map((r) => ({ ...r, quarter: Number(r.quarter), votes: Number(r.votes) }));
    },

    /** The quarter counters as they should be: recounted from the ballots that count (a full scan). */
    async recountQuarterVotes(): Promise<QuarterCounterRow[]> {
      const rows = await counterRecounts.quarterVotes(db).execute();
      return rows.map((r) => ({ ...r, quarter: Number(r.quarter), votes: Number(r.votes) }));
    },

    /** One page of voted records whose vote counts, by id, for the download (keyset: pass the last id seen). */
    async votedRecordsPage(afterId: number, limit: number): Promise<VotedRecordRow[]> {
      return db
        .selectFrom('records')
        .innerJoin('departments', 'departments.id', 'records.department_id')
        .select([
          'records.id',
          'departments.title as department',
          'records.comunidad',
          'records.ubch',
          'records.nombre',
          'records.vote_codes',
          'records.completed',
          'records.voted_by',
          'records.voted_at',
        ])
        .select([
          sql<number>`case when records.gobernador_photo_id is null then 0 else 1 end`.as('gobernador'),
          sql<number>`case when records.an_photo_id is null then 0 else 1 end`.as('an'),
          sql<number>`case when records.clez_photo_id is null then 0 else 1 end`.as('clez'),
          'records.gobernador_review',
          'records.an_review',
          'records.clez_review',
          lastReview('gobernador', 'reviewed_by').as('gobernador_reviewed_by'),
          lastReview('gobernador', 'reviewed_at').as('gobernador_reviewed_at'),
          lastReview('an', 'reviewed_by').as('an_reviewed_by'),
          lastReview('an', 'reviewed_at').as('an_reviewed_at'),
          lastReview('clez', 'reviewed_by').as('clez_reviewed_by'),
          lastReview('clez', 'reviewed_at').as('clez_reviewed_at'),
        ])
        .where('records.voted_at', 'is not', null)
        .where('records.vote_counted', '=', 1)
        .where('records.id', '>', afterId)
        .orderBy('records.id')
        .limit(limit)
        .execute();
    },

    /** How many rows the validated records' CSV holds (for its audit row). */
    async votedRecordsCount(): Promise<number> {
      const row = await db
        .selectFrom('records')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('voted_at', 'is not', null)
        .where('vote_counted', '=', 1)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
export type ResultsRepository = ReturnType<typeof createResultsRepository>;

export interface ResultsChannel {
  close(): Promise<void>;
}

/**
 * A dedicated PostgreSQL connection that LISTENs on the results channel (a pooled client cannot: the
 * pool hands it to other queries). `onNotify` runs for each notice, `onError` when the connection
 * is lost; the caller reconnects.
 */
export async function listenToResultsChannel(
  connectionString: string,
  handlers: { onNotify: () => void; onError: (error: Error) => void },
): Promise<ResultsChannel> {
  let closed = false;
  // Its 'error' listener is there from the start and stays after the close (decision 092).
  const client = ownPostgresClient({ connectionString, connectionTimeoutMillis: 5000, keepAlive: true }, (error) => {
    if (!closed) handlers.onError(error);
  });
  client.on('notification', () => handlers.onNotify());
  client.on('end', () => {
    if (!closed) handlers.onError(new Error('la conexión LISTEN se cerró'));
  });
  try {
    await client.connect();
    await client.query(`listen ${client.escapeIdentifier(RESULTS_CHANNEL)}`);
  } catch (error) {
    closed = true;
    await client.end().catch(() => {});
    throw error;
  }
  return {
    async close() {
      if (closed) return;
      closed = true;
      await client.end().catch(() => {});
    },
  };
}
