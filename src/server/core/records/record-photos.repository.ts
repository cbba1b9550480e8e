import { type Kysely, sql } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import type { PhotoKind } from '#shared/platform/constants';
import { completedSql, reviewColumn, reviewedSql, reviewNoteColumn, slotColumn } from './record-rules';
import type { NewPhoto } from './records.repository';

/* A ballot photo, as the records kernel writes it: the photo's row, the record's slot and the photos received. */

export function createRecordPhotosRepository(db: Kysely<Database>) {
  return {
    async insert(photo: NewPhoto): Promise<number> {
      const row = await db.insertInto('photos').values(photo).returning('id').executeTakeFirstOrThrow();
      return row.id;
    },

    /**
     * Points the record's slot at the photo, uploaded by `by`. With `expectCurrent` null the slot must still be empty (a
     * validator's upload); with an id it must still hold that photo (an admin's replacement). Undefined
     * when someone else got there first; otherwise the record's department, whether it is now
     * complete and whether it was reviewed before (a replaced photo undoes the record's review: the new
     * one waits in the review queue, decision 134).
     */
    async fillSlot(
      recordId: number,
      kind: PhotoKind,
      photoId: number,
      expectCurrent: number | null,
      at: string,
      by: string,
    ): Promise<{ department_id: number; completed: number; was_reviewed: number } | undefined> {
      const column = slotColumn(kind);
      const completed = completedSql({ filling: kind });
      // Only a replacement can undo a review: an empty slot's record is not validated, so not reviewed.
      const before =
        expectCurrent === null
          ? undefined
          : await db
              .selectFrom('records')
              .select(reviewedSql.as('reviewed'))
              .where('id', '=', recordId)
              .executeTakeFirst();
      const filled = await db
        .updateTable('records')
        .set({
          [column]: photoId,
          // A new photo is unreviewed: the slot's review (or the reason it was reopened) goes.
          [reviewColumn(kind)]: null,
          [reviewNoteColumn(kind)]: null,
          completed,
          // The photo that completes the record names who validated it; a replacement changes nothing.
          validated_by: sql<
            string | null
          >`case when completed = 0 and ${completed} = 1 then ${by} else validated_by end`,
          updated_at: at,
        })
        .where('id', '=', recordId)
        // A record voided while its photo was being processed takes no photo (and its counts stay right).
        .where('status', '=', 'pendiente')
        .where(column, expectCurrent === null ? 'is' : '=', expectCurrent)
        .returning(['department_id', 'completed'])
        .executeTakeFirst();
      return filled && { ...filled, was_reviewed: Number(before?.reviewed ?? 0) };
    },

    /** One more ballot photo received in the department (photo_totals, decision 087): the map and the live stream move. */
    async countReceived(departmentId: number): Promise<void> {
      await db
        .insertInto('photo_totals')
        .values({ department_id: departmentId, photos: 1 })
        .onConflict((oc) =>
          oc.column('department_id').doUpdateSet((eb) => ({ photos: eb('photo_totals.photos', '+', 1) })),
        )
        .execute();
    },

    async markReplaced(photoId: number, by: string, at: string): Promise<void> {
      await db.updateTable('photos').set({ replaced_at: at, replaced_by: by }).where('id', '=', photoId).execute();
    },

    async replacePlaceholder(
      placeholder: string,
      keys: { original_key: string; display_key: string; thumb_key: string; sha256: string; size_bytes: number },
    ): Promise<void> {
      await db.updateTable('photos').set(keys).where('original_key', '=', placeholder).execute();
    },
  };
}
