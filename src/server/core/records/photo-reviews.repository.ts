import { type Kysely, sql } from 'kysely';
import { inSlices } from '#server/platform/db/in-slices';
import type { Database } from '#server/platform/db/schema';
import type { ReviewVerdictColumn } from '#server/platform/db/schema-records';
import { PHOTO_KINDS, type PhotoKind } from '#shared/platform/constants';
import { inReviewQueueSql, NOT_VALIDATED, reviewColumn, reviewNoteColumn, slotColumn } from './record-rules';
import { createRecordsRepository } from './records.repository';

/*
 * A photo's review, as the records kernel writes it (decision 134): the slot's state on the record, the
 * review's row (the history, with the photos the slot held) and the counters it moves. A review that
 * reopens a slot ('ilegible', 'no_corresponde') empties it: the record is not validated until the
 * validator's new photo fills it again, and the old photo stays, with its review, as evidence.
 */

export interface PhotoVerdict {
  kind: PhotoKind;
  /** The photo the reviewer saw in the slot: the review holds only while the slot still holds it. */
  photoId: number;
  verdict: ReviewVerdictColumn;
  note: string | null;
}

export interface ReviewQueueRow {
  id: number;
  department_id: number;
  voted_at: string;
}

/** 1 when a record as read is reviewed (validated, its three photos 'conforme'), as `reviewedSql` says. */
export function reviewedOf(
  row: { completed: number } & Record<`${PhotoKind}_review`, ReviewVerdictColumn | null>,
): number {
  return row.completed === 1 && PHOTO_KINDS.every((k) => row[reviewColumn(k)] === 'conforme') ? 1 : 0;
}

/** The queue's size is counted up to this many records per department. */
export const QUEUE_COUNT_CAP = 10_000;

/** Whether a verdict sends the slot back to the validator's phone. */
export const reopens = (verdict: ReviewVerdictColumn) => verdict !== 'conforme';

export function createPhotoReviewsRepository(db: Kysely<Database>) {
  /** One department's queue after the cursor, without the records whose current photos one person sent. */
  async function queuePage(
    departmentId: number,
    after: { votedAt: string; id: number } | null,
    limit: number,
    notUploadedBy: string,
  ): Promise<ReviewQueueRow[]> {
    let query = db
      .selectFrom('records')
      .select(['id', 'department_id', 'voted_at'])
      .where(inReviewQueueSql)
      .where('department_id', '=', departmentId)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('photos')
              .select('photos.id')
              .where(
                'photos.id',
                'in',
                sql<number>`(records.gobernador_photo_id, records.an_photo_id, records.clez_photo_id)`,
              )
              .where('photos.uploaded_by', '=', notUploadedBy),
          ),
        ),
      );
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb('voted_at', '>', after.votedAt),
          eb.and([eb('voted_at', '=', after.votedAt), eb('id', '>', after.id)]),
        ]),
      );
    }
    const rows = await query.orderBy('voted_at').orderBy('id').limit(limit).execute();
    return rows.map((r) => ({ id: r.id, department_id: r.department_id, voted_at: r.voted_at ?? '' }));
  }

  return {
    /**
     * Writes a record's verdicts in one statement, only while the record is validated and pending and
     * each reviewed slot still holds the photo the reviewer saw, unreviewed: undefined when another
     * review (or a change) got there first. Otherwise the record's department, whether it stopped being
     * validated (a slot reopened) and whether it is now reviewed; the counters move with it.
     */
    async review(
      recordId: number,
      verdicts: readonly PhotoVerdict[],
      by: string,
      at: string,
    ): Promise<{ department_id: number; reopened: boolean; reviewed: boolean } | undefined> {
      const reopened = verdicts.some((v) => reopens(v.verdict));
      const set: Record<string, unknown> = { updated_at: at };
      for (const v of verdicts) {
        set[reviewColumn(v.kind)] = v.verdict;
        set[reviewNoteColumn(v.kind)] = v.note;
        // A reopened slot is empty again; the photo stays in `photos`, its review says why it left.
        if (reopens(v.verdict)) set[slotColumn(v.kind)] = null;
      }
      if (reopened) Object.assign(set, NOT_VALIDATED);
      let query = db
        .updateTable('records')
        .set(set)
        .where('id', '=', recordId)
        .where('status', '=', 'pendiente')
        .where('completed', '=', 1);
      for (const v of verdicts) {
        query = query.where(slotColumn(v.kind), '=', v.photoId).where(reviewColumn(v.kind), 'is', null);
      }
      const row = await query
        .returning(['department_id', 'gobernador_review', 'an_review', 'clez_review', 'completed'])
        .executeTakeFirst();
      if (!row) return undefined;
      await db
        .insertInto('photo_reviews')
        .values(
          verdicts.map((v) => ({
            record_id: recordId,
            photo_id: v.photoId,
            kind: v.kind,
            verdict: v.verdict,
            note: v.note,
            reviewed_by: by,
            reviewed_at: at,
          })),
        )
        .execute();
      const reviewed = reviewedOf(row) === 1;
      await createRecordsRepository(db).bumpCounts(row.department_id, {
        validated: reopened ? -1 : 0,
        reviewed: reviewed ? 1 : 0,
      });
      return { department_id: row.department_id, reopened, reviewed };
    },

    /**
     * The review queue (decision 134): validated pending records of these departments with a photo not
     * yet reviewed, the oldest vote first, after the keyset cursor; without the records whose current
     * photos `notUploadedBy` sent (nobody reviews their own). Uses migration 041's partial index.
     */
    async queue(
      departmentIds: readonly number[],
      after: { votedAt: string; id: number } | null,
      limit: number,
      notUploadedBy: string,
    ): Promise<ReviewQueueRow[]> {
      // One query per department, each read from the partial index, merged here: with several
      // departments in one query the planner prefers the validators' index and sorts every validated record.
      const pages = await Promise.all(departmentIds.map((id) => queuePage(id, after, limit, notUploadedBy)));
      return pages
        .flat()
        .sort((a, b) => (a.voted_at < b.voted_at ? -1 : a.voted_at > b.voted_at ? 1 : a.id - b.id))
        .slice(0, limit);
    },

    /**
     * How many records wait in the queue of these departments, counted up to `QUEUE_COUNT_CAP` per
     * department through the partial index (a plain count would be planned on the validators' index and
     * read every validated record).
     */
    async queueSize(departmentIds: readonly number[]): Promise<number> {
      let total = 0;
      for (const id of departmentIds) {
        const row = await db
          .selectFrom((eb) =>
            eb
              .selectFrom('records')
              .select('id')
              .where(inReviewQueueSql)
              .where('department_id', '=', id)
              .orderBy('voted_at')
              .orderBy('id')
              .limit(QUEUE_COUNT_CAP)
              .as('waiting'),
          )
          .select((s) => s.fn.countAll<number>().as('n'))
          .executeTakeFirst();
        total += Number(row?.n ?? 0);
      }
      return total;
    },

    /** Every review of a record's photos, current and past, oldest first. */
    async ofRecord(recordId: number) {
      return db.selectFrom('photo_reviews').selectAll().where('record_id', '=', recordId).orderBy('id').execute();
    },

    /** Reviews of these photos, by photo id (for exports and the evidence package). */
    async ofPhotos(photoIds: readonly number[]) {
      const out = [];
      for (const slice of inSlices(photoIds)) {
        out.push(
          ...(await db
            .selectFrom('photo_reviews')
            .select(['photo_id', 'verdict', 'note', 'reviewed_by', 'reviewed_at'])
            .where('photo_id', 'in', slice)
            .execute()),
        );
      }
      return out;
    },
  };
}
