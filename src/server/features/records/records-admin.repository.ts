import { CompiledQuery, type Kysely, type Selectable, type Selection, sql } from 'kysely';
import type { Database, DepartmentsTable } from '#server/platform/db/schema';
import { recordSearchText } from './records.search';

/** A record as the back office reads it, with its department. */
const RECORD_COLUMNS = [
  'records.id',
  'records.department_id',
  'departments.slug as department_slug',
  'departments.title as department_title',
  'records.comunidad',
  'records.nombre',
  'records.ubch',
  'records.telefono',
  'records.status',
  'records.voted_at',
  'records.voted_by',
  'records.vote_codes',
  'records.gobernador_photo_id',
  'records.an_photo_id',
  'records.clez_photo_id',
  'records.completed',
  'records.validated_by',
  'records.vote_counted',
  'records.vote_revision',
  'records.created_at',
  'records.updated_at',
] as const;
export type RecordAdminRow = Selection<Database, 'records' | 'departments', (typeof RECORD_COLUMNS)[number]>;

const MUNICIPALITY_COLUMNS = ['id', 'slug', 'title'] as const satisfies readonly (keyof DepartmentsTable)[];
export type MunicipalityRow = Pick<Selectable<DepartmentsTable>, (typeof MUNICIPALITY_COLUMNS)[number]>;

export interface RecordFieldsUpdate {
  departmentId: number;
  comunidad: string;
  nombre: string;
  ubch: string;
  telefono: string;
}

type StatusFilter = 'pendiente' | 'anulado' | 'todos';
type Db = Kysely<Database>;

/** A new pending record of an import. */
export interface ImportedRecord {
  departmentId: number;
  comunidad: string;
  nombre: string;
  ubch: string;
  telefono: string;
}

const IMPORT_COLUMNS = [
  'department_id',
  'comunidad',
  'nombre',
  'ubch',
  'telefono',
  'status',
  'search_text',
  'completed',
  'created_at',
  'updated_at',
] as const;

/** The INSERT of `rows` records, written once per dialect and size (the statement cache then reuses it). */
const insertStatements = new Map<string, string>();
function insertStatement(postgres: boolean, rows: number): string {
  const key = `${postgres}:${rows}`;
  let text = insertStatements.get(key);
  if (!text) {
    const width = IMPORT_COLUMNS.length;
    const tuples = Array.from(
      { length: rows },
      (_, r) => `(${Array.from({ length: width }, (_, c) => (postgres ? `$${r * width + c + 1}` : '?')).join(', ')})`,
    );
    text = `insert into records (${IMPORT_COLUMNS.join(', ')}) values ${tuples.join(', ')}`;
    if (insertStatements.size > 20) insertStatements.clear();
    insertStatements.set(key, text);
  }
  return text;
}

function selectRecords(db: Db) {
  return db
    .selectFrom('records')
    .innerJoin('departments', 'departments.id', 'records.department_id')
    .select(RECORD_COLUMNS);
}

/** The records back office: listing, editing, voiding and exporting records; what the import reads. */
export function createRecordsAdminRepository(db: Db) {
  return {
    async listMunicipalities(): Promise<MunicipalityRow[]> {
      return db
        .selectFrom('departments')
        .select(MUNICIPALITY_COLUMNS)
        .where('kind', '=', 'municipality')
        .orderBy('position')
        .execute();
    },

    async findMunicipality(slug: string): Promise<MunicipalityRow | undefined> {
      return db
        .selectFrom('departments')
        .select(MUNICIPALITY_COLUMNS)
        .where('slug', '=', slug)
        .where('kind', '=', 'municipality')
        .executeTakeFirst();
    },

    /** Every municipality with its progress counts and how many of its records are voided. */
    async municipalityCounts(): Promise<
      (MunicipalityRow & { total: number; voted: number; validated: number; voided: number })[]
    > {
      const rows = await db
        .selectFrom('departments')
        .leftJoin('record_counts', 'record_counts.department_id', 'departments.id')
        .select(['departments.id', 'departments.slug', 'departments.title'])
        .select((eb) => [
          eb.fn.coalesce('record_counts.total', sql<number>`0`).as('total'),
          eb.fn.coalesce('record_counts.voted', sql<number>`0`).as('voted'),
          eb.fn.coalesce('record_counts.validated', sql<number>`0`).as('validated'),
          eb
            .selectFrom('records')
            .select((s) => s.fn.countAll<number>().as('n'))
            .whereRef('records.department_id', '=', 'departments.id')
            .where('records.status', '=', 'anulado')
            .as('voided'),
        ])
        .where('departments.kind', '=', 'municipality')
        .orderBy('departments.position')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        slug: r.slug,
        title: r.title,
        total: Number(r.total),
        voted: Number(r.voted),
        validated: Number(r.validated),
        voided: Number(r.voided ?? 0),
      }));
    },

    /**
     * One page of a department's records (of every department without `departmentId`) by id after
     * `after`; `pattern` is a LIKE over the search text. Across departments no index narrows a LIKE
     * '%…%': the primary key gives the order, so a common word stops after a page of hits and a word
     * found nowhere reads the table once (measured in the records search benchmark).
     */
    async listPage(
      departmentId: number | undefined,
      options: { status: StatusFilter; pattern?: string; after?: number; limit: number },
    ): Promise<{ rows: RecordAdminRow[]; nextCursor: number | null }> {
      let query = selectRecords(db);
      if (departmentId !== undefined) query = query.where('records.department_id', '=', departmentId);
      if (options.status !== 'todos') query = query.where('records.status', '=', options.status);
      if (options.pattern) query = query.where(sql<boolean>`records.search_text like ${options.pattern} escape '\\'`);
      if (options.after !== undefined) query = query.where('records.id', '>', options.after);
      const rows = await query
        .orderBy('records.id')
        .limit(options.limit + 1)
        .execute();
      const hasMore = rows.length > options.limit;
      const page = hasMore ? rows.slice(0, options.limit) : rows;
      return { rows: page, nextCursor: hasMore ? (page.at(-1)?.id ?? null) : null };
    },

    async findById(id: number): Promise<RecordAdminRow | undefined> {
      return selectRecords(db).where('records.id', '=', id).executeTakeFirst();
    },

    /**
     * Records of a department whose search text holds these phone digits: the few candidates for a
     * duplicate of a person (the caller compares names and phones exactly).
     */
    async withPhoneDigits(
      departmentId: number,
      digits: string,
    ): Promise<{ id: number; nombre: string; telefono: string }[]> {
      return db
        .selectFrom('records')
        .select(['id', 'nombre', 'telefono'])
        .where('department_id', '=', departmentId)
        .where(sql<boolean>`search_text like ${`%${digits}%`}`)
        .limit(1_000)
        .execute();
    },

    /** A page (by id) of a department's names and phones, for the import's duplicate check. */
    async identityPage(
      departmentId: number,
      after: number,
      limit: number,
    ): Promise<{ id: number; nombre: string; telefono: string }[]> {
      return db
        .selectFrom('records')
        .select(['id', 'nombre', 'telefono'])
        .where('department_id', '=', departmentId)
        .where('id', '>', after)
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    /**
     * New fields (and department) of a record still pending; false when it is not (or, with
     * `unvotedOnly`, when it was voted meanwhile).
     */
    async updateFields(id: number, fields: RecordFieldsUpdate, now: Date, unvotedOnly: boolean): Promise<boolean> {
      let query = db
        .updateTable('records')
        .set({
          department_id: fields.departmentId,
          comunidad: fields.comunidad,
          nombre: fields.nombre,
          ubch: fields.ubch,
          telefono: fields.telefono,
          search_text: recordSearchText(fields),
          updated_at: now.toISOString(),
        })
        .where('id', '=', id)
        .where('status', '=', 'pendiente');
      if (unvotedOnly) query = query.where('voted_at', 'is', null);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * Voids a pending record (its vote kept in the results or not) and says what it was at that moment
     * (the counts it leaves), or undefined when it was not pending (already voided, or gone).
     */
    async markVoided(
      id: number,
      voteCounts: boolean,
      now: Date,
    ): Promise<{ department_id: number; voted_at: string | null; completed: number } | undefined> {
      return db
        .updateTable('records')
        .set({ status: 'anulado', vote_counted: voteCounts ? 1 : 0, updated_at: now.toISOString() })
        .where('id', '=', id)
        .where('status', '=', 'pendiente')
        .returning(['department_id', 'voted_at', 'completed'])
        .executeTakeFirst();
    },

    /**
     * Brings a voided record back to pending, its vote counting again, only while it is voided with its
     * vote counting as read (`voteCounted`); says what it is, or undefined when it was not.
     */
    async markRestored(
      id: number,
      voteCounted: number,
      now: Date,
    ): Promise<{ department_id: number; voted_at: string | null; completed: number } | undefined> {
      return db
        .updateTable('records')
        .set({ status: 'pendiente', vote_counted: 1, updated_at: now.toISOString() })
        .where('id', '=', id)
        .where('status', '=', 'anulado')
        .where('vote_counted', '=', voteCounted)
        .returning(['department_id', 'voted_at', 'completed'])
        .executeTakeFirst();
    },

    /**
     * Writes a corrected vote of a pending voted record (`codes` null clears it: the record is unvoted
     * again), only if the vote is still the one read (`revision`). False when it is not.
     */
    async rewriteVote(
      id: number,
      revision: number,
      vote: { codes: string[] | null; by: string },
      now: Date,
    ): Promise<boolean> {
      const at = now.toISOString();
      const cleared = vote.codes === null;
      const result = await db
        .updateTable('records')
        .set({
          vote_codes: cleared ? null : (vote.codes as string[]).join(','),
          voted_at: cleared ? null : sql<string>`voted_at`,
          voted_by: cleared ? null : sql<string>`voted_by`,
          // A record without a vote is not validated, whatever photos it has.
          completed: cleared ? 0 : sql<number>`completed`,
          validated_by: cleared ? null : sql<string | null>`validated_by`,
          vote_revision: sql<number>`vote_revision + 1`,
          updated_at: at,
        })
        .where('id', '=', id)
        .where('status', '=', 'pendiente')
        .where('voted_at', 'is not', null)
        .where('vote_revision', '=', revision)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * Inserts an import's records as pending, a few hundred per statement, without building a query
     * object per row: an import of 100,000 rows would otherwise spend most of its time and memory there.
     * The caller moves the departments' counts in the same transaction.
     */
    async insertImported(rows: ImportedRecord[], now: Date): Promise<void> {
      if (rows.length === 0) return;
      const postgres = db.getExecutor().adapter.constructor.name.startsWith('Postgres');
      const at = now.toISOString();
      const values: unknown[] = [];
      for (const r of rows) {
        values.push(
          r.departmentId,
          r.comunidad,
          r.nombre,
          r.ubch,
          r.telefono,
          'pendiente',
          recordSearchText(r),
          0,
          at,
          at,
        );
      }
      await db.executeQuery(CompiledQuery.raw(insertStatement(postgres, rows.length), values));
    },

    /** A page (by id) of a department's records for the CSV export. */
    async exportPage(
      departmentId: number,
      status: StatusFilter,
      after: number,
      limit: number,
    ): Promise<RecordAdminRow[]> {
      let query = selectRecords(db).where('records.department_id', '=', departmentId).where('records.id', '>', after);
      if (status !== 'todos') query = query.where('records.status', '=', status);
      return query.orderBy('records.id').limit(limit).execute();
    },
  };
}
export type RecordsAdminRepository = ReturnType<typeof createRecordsAdminRepository>;
