import { type Kysely, type Selection, sql } from 'kysely';
import { inSlices } from '#server/platform/db/in-slices';
import type { Database } from '#server/platform/db/schema';
import type { MunicipalityRow } from '#server/platform/records/records.repository';
import { recordSearchText } from '#server/platform/records/records.search';

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
  'records.short_code',
  'records.created_at',
  'records.updated_at',
] as const;
export type RecordAdminRow = Selection<Database, 'records' | 'departments', (typeof RECORD_COLUMNS)[number]>;

export interface RecordFieldsUpdate {
  departmentId: number;
  comunidad: string;
  nombre: string;
  ubch: string;
  telefono: string;
}

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

    /** Names become the given initials, phones go, and the search text follows: one statement a slice. */
    async purgeSlice(rows: { id: number; nombre: string; comunidad: string; ubch: string }[]): Promise<void> {
      if (rows.length === 0) return;
      await db
        .updateTable('records')
        .set({
          nombre: sql<string>`case id ${sql.join(
            rows.map((r) => sql`when ${r.id} then ${r.nombre}`),
            sql` `,
          )} end`,
          telefono: '',
          search_text: sql<string>`case id ${sql.join(
            rows.map((r) => sql`when ${r.id} then ${recordSearchText({ ...r, telefono: '' })}`),
            sql` `,
          )} end`,
        })
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
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

    /** Forgets the published links of these photos (their copies were withdrawn). */
    async clearSharedUrls(photoIds: readonly number[]): Promise<void> {
      for (const ids of inSlices(photoIds)) {
        await db.updateTable('photos').set({ shared_url: null }).where('id', 'in', ids).execute();
      }
    },

    /** Every stored file of every ballot photo (original, browser copy, thumbnail). */
    async photoKeys(): Promise<string[]> {
      const rows = await db.selectFrom('photos').select(['original_key', 'display_key', 'thumb_key']).execute();
      return rows.flatMap((r) => [r.original_key, r.display_key, r.thumb_key]);
    },
  };
}
export type RecordsAdminRepository = ReturnType<typeof createRecordsAdminRepository>;
