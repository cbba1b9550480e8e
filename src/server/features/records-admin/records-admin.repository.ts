import { type Kysely, PostgresAdapter, type Selection, sql } from 'kysely';
import type { MunicipalityRow } from '#server/core/records/records.repository';
import type { Database } from '#server/platform/db/schema';

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
  'records.gobernador_review',
  'records.an_review',
  'records.clez_review',
  'records.completed',
  'records.validated_by',
  'records.vote_counted',
  'records.vote_revision',
  'records.short_code',
  'records.created_at',
  'records.updated_at',
] as const;
export type RecordAdminRow = Selection<Database, 'records' | 'departments', (typeof RECORD_COLUMNS)[number]>;

type StatusFilter = 'pendiente' | 'anulado' | 'todos';
type Db = Kysely<Database>;

function selectRecords(db: Db) {
  return db
    .selectFrom('records')
    .innerJoin('departments', 'departments.id', 'records.department_id')
    .select(RECORD_COLUMNS);
}

/** The records back office: listing, editing, voiding and restoring records, correcting votes. */
export function createRecordsAdminRepository(db: Db) {
  const locksRows = db.isTransaction && db.getExecutor().adapter instanceof PostgresAdapter;
  return {
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
     * found nowhere reads the table once (measured in the records search benchmark). `code`, when the
     * search is a record's SMS code, finds that record too (its unique index).
     */
    async listPage(
      departmentId: number | undefined,
      options: { status: StatusFilter; pattern?: string; code?: string; after?: number; limit: number },
    ): Promise<{ rows: RecordAdminRow[]; nextCursor: number | null }> {
      let query = selectRecords(db);
      if (departmentId !== undefined) query = query.where('records.department_id', '=', departmentId);
      if (options.status !== 'todos') query = query.where('records.status', '=', options.status);
      const { pattern, code } = options;
      if (pattern && code) {
        query = query.where((eb) =>
          eb.or([eb('records.short_code', '=', code), sql<boolean>`records.search_text like ${pattern} escape '\\'`]),
        );
      } else if (pattern) {
        query = query.where(sql<boolean>`records.search_text like ${pattern} escape '\\'`);
      }
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
     * The record in a transaction, its row locked until the commit on PostgreSQL (SQLite has one writer
     * at a time): what a change decides from it (its counters' moves) cannot change under it meanwhile,
     * e.g. a review that completes it. The lock is taken on the record's row alone, then the record read.
     */
    async findByIdLocked(id: number): Promise<RecordAdminRow | undefined> {
      if (locksRows) await db.selectFrom('records').select('id').where('id', '=', id).forUpdate().execute();
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

    // --- the purge of personal data (decision 081) ------------------------------------------------------
    /** A page of records, by id, with what the purge reads. */
    async personalDataPage(afterId: number, limit: number) {
      return db
        .selectFrom('records')
        .select(['id', 'nombre', 'telefono', 'comunidad', 'ubch'])
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    /**
     * The SMS log (decision 084): its answers name people ('Registrado: María P.'), so the purge takes it
     * whole; the votes it made stay. How many messages went.
     */
    async deleteSmsMessages(): Promise<number> {
      const result = await db.deleteFrom('sms_messages').executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** The photos with a copy the storage published (a Dropbox shared link): the link names the person. */
    async publishedPhotos(): Promise<{ id: number; shared_url: string }[]> {
      const rows = await db
        .selectFrom('photos')
        .select(['id', 'shared_url'])
        .where('shared_url', 'is not', null)
        .orderBy('id')
        .execute();
      return rows.flatMap((r) => (r.shared_url === null ? [] : [{ id: r.id, shared_url: r.shared_url }]));
    },

    /** Every stored file of every ballot photo (original, browser copy, thumbnail). */
    async photoKeys(): Promise<string[]> {
      const rows = await db.selectFrom('photos').select(['original_key', 'display_key', 'thumb_key']).execute();
      return rows.flatMap((r) => [r.original_key, r.display_key, r.thumb_key]);
    },
  };
}
export type RecordsAdminRepository = ReturnType<typeof createRecordsAdminRepository>;
