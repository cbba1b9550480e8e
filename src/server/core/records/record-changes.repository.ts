import { CompiledQuery, type Kysely, sql } from 'kysely';
import { inSlices } from '#server/platform/db/in-slices';
import type { Database } from '#server/platform/db/schema';
import { writeRecordCodes } from './record-codes';
import { NOT_VALIDATED, reviewedSql } from './record-rules';
import { recordSearchText } from './records.search';

/*
 * The records kernel's changes by hand and in bulk: a record's fields, voiding and restoring, a vote
 * corrected or cleared, the purge of personal data, an import's inserts, a candidate's counters, the
 * drill's erasure.
 */

type Db = Kysely<Database>;

export interface RecordFieldsUpdate {
  departmentId: number;
  comunidad: string;
  nombre: string;
  ubch: string;
  telefono: string;
}

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
    text = `insert into records (${IMPORT_COLUMNS.join(', ')}) values ${tuples.join(', ')} returning id`;
    if (insertStatements.size > 20) insertStatements.clear();
    insertStatements.set(key, text);
  }
  return text;
}

export function createRecordChangesRepository(db: Db) {
  return {
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
    ): Promise<{ department_id: number; voted_at: string | null; completed: number; reviewed: number } | undefined> {
      return db
        .updateTable('records')
        .set({ status: 'anulado', vote_counted: voteCounts ? 1 : 0, updated_at: now.toISOString() })
        .where('id', '=', id)
        .where('status', '=', 'pendiente')
        .returning(['department_id', 'voted_at', 'completed', reviewedSql.as('reviewed')])
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
    ): Promise<{ department_id: number; voted_at: string | null; completed: number; reviewed: number } | undefined> {
      return db
        .updateTable('records')
        .set({ status: 'pendiente', vote_counted: 1, updated_at: now.toISOString() })
        .where('id', '=', id)
        .where('status', '=', 'anulado')
        .where('vote_counted', '=', voteCounted)
        .returning(['department_id', 'voted_at', 'completed', reviewedSql.as('reviewed')])
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
          completed: cleared ? NOT_VALIDATED.completed : sql<number>`completed`,
          validated_by: cleared ? NOT_VALIDATED.validated_by : sql<string | null>`validated_by`,
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

    /** Forgets the published links of these photos (their copies were withdrawn). */
    async clearSharedUrls(photoIds: readonly number[]): Promise<void> {
      for (const ids of inSlices(photoIds)) {
        await db.updateTable('photos').set({ shared_url: null }).where('id', 'in', ids).execute();
      }
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
      const inserted = await db.executeQuery<{ id: number }>(
        CompiledQuery.raw(insertStatement(postgres, rows.length), values),
      );
      // The short codes come from the ids (decision 084), so they are written once the ids are known.
      await writeRecordCodes(
        db as Kysely<unknown>,
        inserted.rows.map((r) => Number(r.id)),
      );
    },

    /** A candidate's counters, in total and per quarter of an hour (the candidate is being deleted). */
    async forgetCandidateCounters(candidateId: number): Promise<void> {
      await db.deleteFrom('candidate_totals').where('candidate_id', '=', candidateId).execute();
      await db.deleteFrom('quarter_totals').where('candidate_id', '=', candidateId).execute();
    },

    // --- the drill's erasure (decision 079) ---
    /** A record back to what it was before the drill: no vote, no photo, its revision and last change. */
    async restoreRecord(recordId: number, before: { revision: number; updatedAt: string }): Promise<void> {
      await db
        .updateTable('records')
        .set({
          voted_at: null,
          voted_by: null,
          vote_codes: null,
          gobernador_photo_id: null,
          an_photo_id: null,
          clez_photo_id: null,
          // Nothing to review before the drill: its photos' reviews go with them (decision 134).
          gobernador_review: null,
          an_review: null,
          clez_review: null,
          gobernador_review_note: null,
          an_review_note: null,
          clez_review_note: null,
          ...NOT_VALIDATED,
          vote_revision: before.revision,
          updated_at: before.updatedAt,
        })
        .where('id', '=', recordId)
        .execute();
    },

    /** The drill's ballots and photo rows (the counters are rebuilt after, in the same transaction). */
    async deleteDrillBallotsAndPhotos(recordIds: readonly number[], photoIds: readonly number[]): Promise<void> {
      for (const ids of inSlices(recordIds))
        await db.deleteFrom('record_votes').where('record_id', 'in', ids).execute();
      for (const ids of inSlices(photoIds)) {
        await db.deleteFrom('photo_reviews').where('photo_id', 'in', ids).execute();
        await db.deleteFrom('photos').where('id', 'in', ids).execute();
      }
    },
  };
}
