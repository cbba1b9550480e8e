import { type Kysely, type Selectable, sql } from 'kysely';
import { compiledQuery } from '#server/platform/db/compiled-query';
import type { CandidatesTable, Database } from '#server/platform/db/schema';
import type { PhotosTable, RecordsTable } from '#server/platform/db/schema-records';
import { writeRecordCodes } from './record-codes';
import { completedSql, reviewedSql, validatedSql } from './record-rules';
import { recordSearchText } from './records.search';

/**
 * What a validator's list reads of each record: what its card shows, but for the review columns
 * (decision 134), which few records have and the list reads apart (`REVIEW_COLUMNS`). Each column
 * costs a page of 100 records a few per cent of its statement on SQLite (better-sqlite3 makes one
 * property per column and row), so the list reads no more than the card needs (decision 138).
 */
export const LISTED_COLUMNS = [
  'id',
  'comunidad',
  'nombre',
  'ubch',
  'telefono',
  'status',
  'voted_at',
  'voted_by',
  'vote_codes',
  'gobernador_photo_id',
  'an_photo_id',
  'clez_photo_id',
  'completed',
  'validated_by',
  'vote_revision',
  'short_code',
] as const satisfies readonly (keyof RecordsTable)[];
export type ListedRow = Pick<Selectable<RecordsTable>, (typeof LISTED_COLUMNS)[number]>;

/** A record's photo reviews and their notes (decision 134). */
export const REVIEW_COLUMNS = [
  'gobernador_review',
  'an_review',
  'clez_review',
  'gobernador_review_note',
  'an_review_note',
  'clez_review_note',
] as const satisfies readonly (keyof RecordsTable)[];
export type ReviewRow = Pick<Selectable<RecordsTable>, (typeof REVIEW_COLUMNS)[number]>;

/** What the validators' side reads of one record. */
export const RECORD_COLUMNS = [
  ...LISTED_COLUMNS,
  'department_id',
  ...REVIEW_COLUMNS,
] as const satisfies readonly (keyof RecordsTable)[];
export type RecordRow = Pick<Selectable<RecordsTable>, (typeof RECORD_COLUMNS)[number]>;

export interface NewRecord {
  departmentId: number;
  sourceId?: string | null;
  comunidad: string;
  nombre: string;
  ubch: string;
  telefono: string;
  status?: 'pendiente' | 'anulado';
  /** Only for demo and benchmark data: a vote already cast. */
  vote?: { codes: string[]; by: string; at: string };
}

/** A ballot photo written in bulk (demo, benchmark and test data). */
export type NewPhoto = Omit<Selectable<PhotosTable>, 'id' | 'replaced_at' | 'replaced_by' | 'shared_url'> & {
  shared_url?: string | null;
};

/** A municipality or parish: where records belong. */
export interface MunicipalityRow {
  id: number;
  slug: string;
  title: string;
}

const CANDIDATE_COLUMNS = [
  'id',
  'code',
  'name',
  'colour',
  'photo_url',
] as const satisfies readonly (keyof CandidatesTable)[];
export type CandidateRow = Pick<Selectable<CandidatesTable>, (typeof CANDIDATE_COLUMNS)[number]>;

/** Rows per INSERT: well under SQLite's and PostgreSQL's bound-parameter limits. */
const INSERT_BATCH = 500;

type Db = Kysely<Database>;

const findInDepartmentQuery = compiledQuery((db: Db, departmentId: number, recordId: number) =>
  db.selectFrom('records').select(RECORD_COLUMNS).where('id', '=', recordId).where('department_id', '=', departmentId),
);

const countsQuery = compiledQuery((db: Db, departmentId: number) =>
  db.selectFrom('record_counts').select(['total', 'voted', 'validated']).where('department_id', '=', departmentId),
);

const candidatesQuery = compiledQuery((db: Db) =>
  db.selectFrom('candidates').select(CANDIDATE_COLUMNS).orderBy('position').orderBy('id'),
);

/** Moves a department's ballots (records voted) by `delta`; the row appears with its first vote. */
const moveBallotsQuery = compiledQuery((db: Db, departmentId: number, delta: number) =>
  db
    .insertInto('vote_totals')
    .values({ department_id: departmentId, ballots: delta })
    .onConflict((oc) =>
      oc
        .column('department_id')
        .doUpdateSet((eb) => ({ ballots: eb('vote_totals.ballots', '+', eb.ref('excluded.ballots')) })),
    ),
);

/**
 * The quarter of an hour a vote cast at `votedAt` (ISO, UTC) counts in, cut from the text as the
 * timeline's SQL cuts it (`substr`): the hour 'YYYY-MM-DDTHH' and its minutes / 15.
 */
export function quarterOf(votedAt: string): { hour: string; quarter: number } {
  return { hour: votedAt.slice(0, 13), quarter: Math.floor(Number(votedAt.slice(14, 16)) / 15) };
}

/** The same cut in SQL, over records.voted_at (rebuilds and recounts). */
const quarterHourSql = sql<string>`substr(records.voted_at, 1, 13)`;
const quarterSql = sql<number>`cast(substr(records.voted_at, 15, 2) as integer) / 15`;

/**
 * What each counter table should hold, recounted from the records, the ballots and the photos (full
 * scans). The rebuild writes these into the counters and `results:check` compares the counters with
 * them, so the two always count the same way.
 */
export const counterRecounts = {
  /** vote_totals: voted records whose vote counts, per department. */
  ballots: (db: Db) =>
    db
      .selectFrom('records')
      .select((s) => ['department_id', s.fn.countAll<number>().as('ballots')])
      .where('voted_at', 'is not', null)
      .where('vote_counted', '=', 1)
      .groupBy('department_id'),
  /** candidate_totals: the ballots that count, per department and candidate. */
  candidateVotes: (db: Db) =>
    db
      .selectFrom('record_votes')
      .innerJoin('records', 'records.id', 'record_votes.record_id')
      .select((s) => ['records.department_id', 'record_votes.candidate_id', s.fn.countAll<number>().as('votes')])
      .where('records.vote_counted', '=', 1)
      .groupBy(['records.department_id', 'record_votes.candidate_id']),
  /** quarter_totals: the same, per quarter of an hour of the vote too. */
  quarterVotes: (db: Db) =>
    db
      .selectFrom('record_votes')
      .innerJoin('records', 'records.id', 'record_votes.record_id')
      .select((s) => [
        quarterHourSql.as('hour'),
        quarterSql.as('quarter'),
        'records.department_id',
        'record_votes.candidate_id',
        s.fn.countAll<number>().as('votes'),
      ])
      .where('records.vote_counted', '=', 1)
      .where('records.voted_at', 'is not', null)
      .groupBy([quarterHourSql, quarterSql, 'records.department_id', 'record_votes.candidate_id']),
  /** record_counts: pending records, how many are voted and how many validated, per department. */
  progress: (db: Db) =>
    db
      .selectFrom('records')
      .select((s) => [
        'department_id',
        s.fn.countAll<number>().as('total'),
        s.fn.count<number>('voted_at').as('voted'),
        s.fn.coalesce(s.fn.sum<number>('completed'), sql<number>`0`).as('validated'),
        s.fn.coalesce(s.fn.sum<number>(reviewedSql), sql<number>`0`).as('reviewed'),
      ])
      .where('status', '=', 'pendiente')
      .groupBy('department_id'),
  /** photo_totals: every stored photo, replacements included, per department (decision 087). */
  photos: (db: Db) =>
    db
      .selectFrom('photos')
      .innerJoin('records', 'records.id', 'photos.record_id')
      .select((s) => ['records.department_id', s.fn.countAll<number>().as('photos')])
      .groupBy('records.department_id'),
};

/** Moves a department's votes of a candidate in a quarter by `delta`; the row appears with its first vote. */
export const moveQuarterVotesQuery = compiledQuery(
  (db: Db, hour: string, quarter: number, departmentId: number, candidateId: number, delta: number) =>
    db
      .insertInto('quarter_totals')
      .values({ hour, quarter, department_id: departmentId, candidate_id: candidateId, votes: delta })
      .onConflict((oc) =>
        oc
          .columns(['hour', 'quarter', 'department_id', 'candidate_id'])
          .doUpdateSet((eb) => ({ votes: eb('quarter_totals.votes', '+', eb.ref('excluded.votes')) })),
      ),
);

/** Adds to a department's counts; the row appears with the department's first record. */
const bumpCountsQuery = compiledQuery((db: Db, departmentId: number, total: number, voted: number, validated: number) =>
  db
    .insertInto('record_counts')
    .values({ department_id: departmentId, total, voted, validated })
    .onConflict((oc) =>
      oc.column('department_id').doUpdateSet((eb) => ({
        total: eb('record_counts.total', '+', eb.ref('excluded.total')),
        voted: eb('record_counts.voted', '+', eb.ref('excluded.voted')),
        validated: eb('record_counts.validated', '+', eb.ref('excluded.validated')),
      })),
    ),
);

/** The same with the reviewed records (decision 134): only the changes that move them use it. */
const bumpCountsWithReviewedQuery = compiledQuery(
  (db: Db, departmentId: number, total: number, voted: number, validated: number, reviewed: number) =>
    db
      .insertInto('record_counts')
      .values({ department_id: departmentId, total, voted, validated, reviewed })
      .onConflict((oc) =>
        oc.column('department_id').doUpdateSet((eb) => ({
          total: eb('record_counts.total', '+', eb.ref('excluded.total')),
          voted: eb('record_counts.voted', '+', eb.ref('excluded.voted')),
          validated: eb('record_counts.validated', '+', eb.ref('excluded.validated')),
          reviewed: eb('record_counts.reviewed', '+', eb.ref('excluded.reviewed')),
        })),
      ),
);

export function createRecordsRepository(db: Kysely<Database>) {
  return {
    async listCandidates(): Promise<CandidateRow[]> {
      return candidatesQuery(db);
    },

    /** The record when it belongs to the department, otherwise undefined (another department looks absent). */
    async findInDepartment(departmentId: number, recordId: number): Promise<RecordRow | undefined> {
      return (await findInDepartmentQuery(db, departmentId, recordId))[0];
    },

    async findById(recordId: number): Promise<RecordRow | undefined> {
      return db.selectFrom('records').select(RECORD_COLUMNS).where('id', '=', recordId).executeTakeFirst();
    },

    /** Who voted a record of the department and when (for the 409 of a second vote). */
    /**
     * When a record of the department was voided, or undefined when it is not voided (or not there).
     * Nothing changes a voided record (every write asks for a pending one), so its last change is its voiding.
     */
    async voidedAt(departmentId: number, recordId: number): Promise<string | undefined> {
      const row = await db
        .selectFrom('records')
        .select('updated_at')
        .where('id', '=', recordId)
        .where('department_id', '=', departmentId)
        .where('status', '=', 'anulado')
        .executeTakeFirst();
      return row?.updated_at;
    },

    /** Pending, voted and validated records of a department, from its counters. */
    async summary(departmentId: number): Promise<{ total: number; voted: number; validated: number }> {
      const row = (await countsQuery(db, departmentId))[0];
      return { total: Number(row?.total ?? 0), voted: Number(row?.voted ?? 0), validated: Number(row?.validated ?? 0) };
    },

    /** Moves a department's counts (inside the transaction of the change that moves them). */
    async bumpCounts(
      departmentId: number,
      by: { total?: number; voted?: number; validated?: number; reviewed?: number },
    ): Promise<void> {
      const { total = 0, voted = 0, validated = 0, reviewed = 0 } = by;
      if (reviewed === 0) await bumpCountsQuery(db, departmentId, total, voted, validated);
      else await bumpCountsWithReviewedQuery(db, departmentId, total, voted, validated, reviewed);
    },

    /** Moves a department's ballots (records voted) by `delta`; the row appears with its first vote. */
    async moveBallots(departmentId: number, delta: number): Promise<void> {
      await moveBallotsQuery(db, departmentId, delta);
    },

    /**
     * Takes a ballot cast at `votedAt` out of the results (`sign` -1) or puts it back (+1): the
     * department's ballots and the votes of its candidates, in total and in the vote's quarter of an
     * hour. The ballot's own rows (record_votes) stay as they are.
     */
    async moveBallot(
      departmentId: number,
      candidateIds: number[],
      sign: 1 | -1,
      votedAt: string | null,
    ): Promise<void> {
      await this.moveBallots(departmentId, sign);
      await this.moveCandidateVotes(departmentId, candidateIds, sign, votedAt);
    },

    /**
     * Moves the department's votes of these candidates by `delta` each, in total and in the quarter of
     * an hour of `votedAt` (the ballot's vote time; a ballot always has one), ids in order: no deadlocks.
     */
    async moveCandidateVotes(
      departmentId: number,
      candidateIds: number[],
      delta: number,
      votedAt: string | null,
    ): Promise<void> {
      if (votedAt === null) throw new Error('Un voto sin hora no tiene cuarto de hora en la línea de tiempo');
      const ids = [...candidateIds].sort((a, b) => a - b);
      for (const candidateId of ids) {
        await db
          .insertInto('candidate_totals')
          .values({ department_id: departmentId, candidate_id: candidateId, votes: delta })
          .onConflict((oc) =>
            oc
              .columns(['department_id', 'candidate_id'])
              .doUpdateSet((eb) => ({ votes: eb('candidate_totals.votes', '+', eb.ref('excluded.votes')) })),
          )
          .execute();
      }
      const { hour, quarter } = quarterOf(votedAt);
      for (const candidateId of ids) await moveQuarterVotesQuery(db, hour, quarter, departmentId, candidateId, delta);
    },

    /** Replaces a ballot's candidates (a correction): rows of `removed` go, rows of `added` come. */
    async replaceVoteRows(recordId: number, removed: number[], added: number[], at: string): Promise<void> {
      if (removed.length > 0) {
        await db
          .deleteFrom('record_votes')
          .where('record_id', '=', recordId)
          .where('candidate_id', 'in', removed)
          .execute();
      }
      if (added.length > 0) {
        await db
          .insertInto('record_votes')
          .values(added.map((candidateId) => ({ record_id: recordId, candidate_id: candidateId, created_at: at })))
          .execute();
      }
    },

    async candidateTotals(): Promise<{ department_id: number; candidate_id: number; votes: number }[]> {
      return db.selectFrom('candidate_totals').select(['department_id', 'candidate_id', 'votes']).execute();
    },

    async voteTotals(): Promise<{ department_id: number; ballots: number }[]> {
      return db.selectFrom('vote_totals').select(['department_id', 'ballots']).execute();
    },

    /** Ballots and ballot photos received so far, everywhere (what a close by hand is confirmed with). */
    async receivedTotals(): Promise<{ votes: number; photos: number }> {
      const [votes, photos] = await Promise.all([
        db
          .selectFrom('vote_totals')
          .select((s) => s.fn.coalesce(s.fn.sum<number>('ballots'), sql<number>`0`).as('n'))
          .executeTakeFirst(),
        db
          .selectFrom('photo_totals')
          .select((s) => s.fn.coalesce(s.fn.sum<number>('photos'), sql<number>`0`).as('n'))
          .executeTakeFirst(),
      ]);
      return { votes: Number(votes?.n ?? 0), photos: Number(photos?.n ?? 0) };
    },

    async votesOf(recordId: number): Promise<number[]> {
      const rows = await db
        .selectFrom('record_votes')
        .select('candidate_id')
        .where('record_id', '=', recordId)
        .orderBy('candidate_id')
        .execute();
      return rows.map((r) => r.candidate_id);
    },

    async listMunicipalities(): Promise<MunicipalityRow[]> {
      return db
        .selectFrom('departments')
        .select(['id', 'slug', 'title'])
        .where('kind', '=', 'municipality')
        .orderBy('position')
        .execute();
    },

    /** The municipality or parish with this slug, if there is one. */
    async findMunicipality(slug: string): Promise<MunicipalityRow | undefined> {
      return db
        .selectFrom('departments')
        .select(['id', 'slug', 'title'])
        .where('slug', '=', slug)
        .where('kind', '=', 'municipality')
        .executeTakeFirst();
    },

    /** Ballot rows written in bulk (demo and benchmark data; the vote path uses addVotes). */
    async insertVoteRows(rows: { record_id: number; candidate_id: number; created_at: string }[]): Promise<void> {
      for (let i = 0; i < rows.length; i += INSERT_BATCH) {
        await db
          .insertInto('record_votes')
          .values(rows.slice(i, i + INSERT_BATCH))
          .execute();
      }
    },

    /**
     * Points every record's photo slots at its newest photo that was not replaced, and recomputes
     * `completed`. For data written in bulk (demo, imports), not for the upload path.
     */
    async relinkPhotoSlots(): Promise<void> {
      const newest = (kind: 'gobernador' | 'an' | 'clez') =>
        sql<
          number | null
        >`(select max(p.id) from photos p where p.record_id = records.id and p.kind = ${kind} and p.replaced_at is null)`;
      await db
        .updateTable('records')
        .set({ gobernador_photo_id: newest('gobernador'), an_photo_id: newest('an'), clez_photo_id: newest('clez') })
        .where((eb) =>
          eb.exists(eb.selectFrom('photos').select('photos.id').whereRef('photos.record_id', '=', 'records.id')),
        )
        .execute();
      await db
        .updateTable('records')
        .set({
          completed: completedSql(),
          // Whoever's step came last: the newest of the three photos, or the vote when it came later.
          validated_by: sql<string | null>`case when ${validatedSql()} then (
            select case when records.voted_at > p.uploaded_at then records.voted_by else p.uploaded_by end
            from photos p
            where p.id in (records.gobernador_photo_id, records.an_photo_id, records.clez_photo_id)
            order by p.uploaded_at desc, p.id desc
            limit 1
          ) else null end`,
        })
        .where((eb) =>
          eb.exists(eb.selectFrom('photos').select('photos.id').whereRef('photos.record_id', '=', 'records.id')),
        )
        .execute();
    },

    /**
     * Recounts the result counters from the ballots, the progress counts from the records and the
     * photos received from the photos (after bulk loads, the drill's erasure, or to repair).
     */
    async rebuildTotals(): Promise<void> {
      await this.recountProgress();
      await db.deleteFrom('candidate_totals').execute();
      await db.deleteFrom('quarter_totals').execute();
      await db.deleteFrom('vote_totals').execute();
      await db
        .insertInto('vote_totals')
        .columns(['department_id', 'ballots'])
        .expression(counterRecounts.ballots(db))
        .execute();
      await db
        .insertInto('candidate_totals')
        .columns(['department_id', 'candidate_id', 'votes'])
        .expression(counterRecounts.candidateVotes(db))
        .execute();
      await db
        .insertInto('quarter_totals')
        .columns(['hour', 'quarter', 'department_id', 'candidate_id', 'votes'])
        .expression(counterRecounts.quarterVotes(db))
        .execute();
      await db.deleteFrom('photo_totals').execute();
      await db
        .insertInto('photo_totals')
        .columns(['department_id', 'photos'])
        .expression(counterRecounts.photos(db))
        .execute();
    },

    /**
     * Recounts every department's pending, voted and validated records from the records themselves
     * (after bulk loads, or to repair).
     */
    async recountProgress(): Promise<void> {
      await db.deleteFrom('record_counts').execute();
      await db
        .insertInto('record_counts')
        .columns(['department_id', 'total', 'voted', 'validated', 'reviewed'])
        .expression(counterRecounts.progress(db))
        .execute();
    },

    /** Inserts records in batches, each with the counts it moves; returns their ids in order. */
    async insertMany(records: NewRecord[], now: Date): Promise<number[]> {
      const at = now.toISOString();
      const ids: number[] = [];
      const insertBatch = async (tx: Kysely<Database>, batch: NewRecord[]) => {
        const rows = await tx
          .insertInto('records')
          .values(
            batch.map((r) => ({
              department_id: r.departmentId,
              source_id: r.sourceId ?? null,
              comunidad: r.comunidad,
              nombre: r.nombre,
              ubch: r.ubch,
              telefono: r.telefono,
              status: r.status ?? 'pendiente',
              search_text: recordSearchText(r),
              voted_at: r.vote?.at ?? null,
              voted_by: r.vote?.by ?? null,
              vote_codes: r.vote ? r.vote.codes.join(',') : null,
              completed: 0,
              created_at: at,
              updated_at: at,
            })),
          )
          .returning('id')
          .execute();
        ids.push(...rows.map((r) => r.id));
        // The short code comes from the id, so it is written once the id is known, in the same transaction.
        await writeRecordCodes(
          tx as Kysely<unknown>,
          rows.map((r) => r.id),
        );
        const counts = new Map<number, { total: number; voted: number }>();
        for (const r of batch) {
          if ((r.status ?? 'pendiente') !== 'pendiente') continue;
          const c = counts.get(r.departmentId) ?? { total: 0, voted: 0 };
          c.total++;
          if (r.vote) c.voted++;
          counts.set(r.departmentId, c);
        }
        for (const [departmentId, c] of counts) await bumpCountsQuery(tx, departmentId, c.total, c.voted, 0);
      };
      for (let i = 0; i < records.length; i += INSERT_BATCH) {
        const batch = records.slice(i, i + INSERT_BATCH);
        if (db.isTransaction) await insertBatch(db, batch);
        else await db.transaction().execute((trx) => insertBatch(trx, batch));
      }
      return ids;
    },

    /** Ballot photos written in bulk (demo, benchmark and test data; the upload path is features/photos). */
    async insertPhotos(photos: NewPhoto[]): Promise<number[]> {
      const ids: number[] = [];
      for (let i = 0; i < photos.length; i += 500) {
        const rows = await db
          .insertInto('photos')
          .values(photos.slice(i, i + 500))
          .returning('id')
          .execute();
        ids.push(...rows.map((r) => r.id));
      }
      return ids;
    },
  };
}
export type RecordsRepository = ReturnType<typeof createRecordsRepository>;
