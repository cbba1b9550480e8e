import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema';
import type { RecordsTable } from '../../db/schema-records';
import { recordSearchText } from './records.search';

export type RecordRow = Pick<
  Selectable<RecordsTable>,
  | 'id'
  | 'department_id'
  | 'comunidad'
  | 'nombre'
  | 'ubch'
  | 'telefono'
  | 'status'
  | 'voted_at'
  | 'vote_codes'
  | 'gobernador_photo_id'
  | 'an_photo_id'
  | 'clez_photo_id'
  | 'completed'
>;

const RECORD_COLUMNS = [
  'id',
  'department_id',
  'comunidad',
  'nombre',
  'ubch',
  'telefono',
  'status',
  'voted_at',
  'vote_codes',
  'gobernador_photo_id',
  'an_photo_id',
  'clez_photo_id',
  'completed',
] as const;

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

export interface CandidateRow {
  id: number;
  code: string;
  name: string;
  colour: string;
  photo_url: string;
}

/** Rows per INSERT: well under SQLite's and PostgreSQL's bound-parameter limits. */
const INSERT_BATCH = 500;

export function createRecordsRepository(db: Kysely<Database>) {
  return {
    async listCandidates(): Promise<CandidateRow[]> {
      return db
        .selectFrom('candidates')
        .select(['id', 'code', 'name', 'colour', 'photo_url'])
        .orderBy('position')
        .orderBy('id')
        .execute();
    },

    /** The record when it belongs to the department, otherwise undefined (another department looks absent). */
    async findInDepartment(departmentId: number, recordId: number): Promise<RecordRow | undefined> {
      return db
        .selectFrom('records')
        .select(RECORD_COLUMNS)
        .where('id', '=', recordId)
        .where('department_id', '=', departmentId)
        .executeTakeFirst();
    },

    /**
     * One page of a department's pending records, by id after `after`. Finished records are left out
     * unless asked for. `pattern` is a LIKE pattern over the stored search text (escape `\`).
     */
    async listPage(
      departmentId: number,
      options: { includeValidated: boolean; pattern?: string; after?: number; limit: number },
    ): Promise<{ rows: RecordRow[]; nextCursor: number | null }> {
      let query = db
        .selectFrom('records')
        .select(RECORD_COLUMNS)
        .where('department_id', '=', departmentId)
        .where('status', '=', 'pendiente');
      if (!options.includeValidated) query = query.where('completed', '=', 0);
      if (options.pattern) query = query.where(sql<boolean>`search_text like ${options.pattern} escape '\\'`);
      if (options.after !== undefined) query = query.where('id', '>', options.after);
      const rows = await query
        .orderBy('id')
        .limit(options.limit + 1)
        .execute();
      const hasMore = rows.length > options.limit;
      const page = hasMore ? rows.slice(0, options.limit) : rows;
      return { rows: page, nextCursor: hasMore ? (page.at(-1)?.id ?? null) : null };
    },

    async summary(departmentId: number): Promise<{ total: number; voted: number; validated: number }> {
      const row = await db
        .selectFrom('records')
        .select((eb) => [
          eb.fn.countAll<number>().as('total'),
          eb.fn.count<number>('voted_at').as('voted'),
          eb.fn.coalesce(eb.fn.sum<number>('completed'), sql<number>`0`).as('validated'),
        ])
        .where('department_id', '=', departmentId)
        .where('status', '=', 'pendiente')
        .executeTakeFirstOrThrow();
      return { total: Number(row.total), voted: Number(row.voted), validated: Number(row.validated) };
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
      return db
        .updateTable('records')
        .set({
          voted_at: vote.at,
          voted_by: vote.by,
          vote_codes: vote.codes.join(','),
          updated_at: vote.at,
          completed: sql<number>`case when gobernador_photo_id is not null and an_photo_id is not null and clez_photo_id is not null then 1 else 0 end`,
        })
        .where('id', '=', recordId)
        .where('department_id', '=', departmentId)
        .where('status', '=', 'pendiente')
        .where('voted_at', 'is', null)
        .returning(RECORD_COLUMNS)
        .executeTakeFirst();
    },

    /** The ballot's candidates, and the department's counters moved in the same transaction. */
    async addVotes(departmentId: number, recordId: number, candidateIds: number[], at: string): Promise<void> {
      // Same lock order in every transaction (totals row, then candidates by id): no deadlocks.
      const ids = [...candidateIds].sort((a, b) => a - b);
      await db
        .insertInto('vote_totals')
        .values({ department_id: departmentId, ballots: 1 })
        .onConflict((oc) =>
          oc.column('department_id').doUpdateSet((eb) => ({ ballots: eb('vote_totals.ballots', '+', 1) })),
        )
        .execute();
      if (ids.length === 0) return;
      await db
        .insertInto('record_votes')
        .values(ids.map((candidate_id) => ({ record_id: recordId, candidate_id, created_at: at })))
        .execute();
      await db
        .insertInto('candidate_totals')
        .values(ids.map((candidate_id) => ({ department_id: departmentId, candidate_id, votes: 1 })))
        .onConflict((oc) =>
          oc
            .columns(['department_id', 'candidate_id'])
            .doUpdateSet((eb) => ({ votes: eb('candidate_totals.votes', '+', 1) })),
        )
        .execute();
    },

    async candidateTotals(): Promise<{ department_id: number; candidate_id: number; votes: number }[]> {
      return db.selectFrom('candidate_totals').select(['department_id', 'candidate_id', 'votes']).execute();
    },

    async voteTotals(): Promise<{ department_id: number; ballots: number }[]> {
      return db.selectFrom('vote_totals').select(['department_id', 'ballots']).execute();
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

    async listMunicipalities(): Promise<{ id: number; slug: string; title: string }[]> {
      return db
        .selectFrom('departments')
        .select(['id', 'slug', 'title'])
        .where('kind', '=', 'municipality')
        .orderBy('position')
        .execute();
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
          completed: sql<number>`case when voted_at is not null and gobernador_photo_id is not null and an_photo_id is not null and clez_photo_id is not null then 1 else 0 end`,
        })
        .where((eb) =>
          eb.exists(eb.selectFrom('photos').select('photos.id').whereRef('photos.record_id', '=', 'records.id')),
        )
        .execute();
    },

    /** Recounts the result counters from the ballots (after bulk loads, or to repair). */
    async rebuildTotals(): Promise<void> {
      await db.deleteFrom('candidate_totals').execute();
      await db.deleteFrom('vote_totals').execute();
      await db
        .insertInto('vote_totals')
        .columns(['department_id', 'ballots'])
        .expression((eb) =>
          eb
            .selectFrom('records')
            .select((s) => ['department_id', s.fn.countAll<number>().as('ballots')])
            .where('voted_at', 'is not', null)
            .groupBy('department_id'),
        )
        .execute();
      await db
        .insertInto('candidate_totals')
        .columns(['department_id', 'candidate_id', 'votes'])
        .expression((eb) =>
          eb
            .selectFrom('record_votes')
            .innerJoin('records', 'records.id', 'record_votes.record_id')
            .select((s) => ['records.department_id', 'record_votes.candidate_id', s.fn.countAll<number>().as('votes')])
            .groupBy(['records.department_id', 'record_votes.candidate_id']),
        )
        .execute();
    },

    /** Inserts records in batches; returns their ids in order. */
    async insertMany(records: NewRecord[], now: Date): Promise<number[]> {
      const at = now.toISOString();
      const ids: number[] = [];
      for (let i = 0; i < records.length; i += INSERT_BATCH) {
        const batch = records.slice(i, i + INSERT_BATCH).map((r) => ({
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
        }));
        const rows = await db.insertInto('records').values(batch).returning('id').execute();
        ids.push(...rows.map((r) => r.id));
      }
      return ids;
    },
  };
}
export type RecordsRepository = ReturnType<typeof createRecordsRepository>;
