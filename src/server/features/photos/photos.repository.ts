import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import type { PhotosTable } from '#server/platform/db/schema-records';
import type { NewPhoto } from '#server/platform/records/records.repository';
import { PHOTO_KINDS, type PhotoKind } from '#shared/platform/constants';

export type PhotoRow = Selectable<PhotosTable>;

const slotColumn = (kind: PhotoKind) => `${kind}_photo_id` as const;

/** `completed` after filling `kind`: the vote and the two other slots decide. */
function completedAfterFilling(kind: PhotoKind) {
  const others = PHOTO_KINDS.filter((k) => k !== kind).map((k) => sql.ref(slotColumn(k)));
  return sql<number>`case when voted_at is not null and ${others[0]} is not null and ${others[1]} is not null then 1 else 0 end`;
}

export function createPhotosRepository(db: Kysely<Database>) {
  return {
    async insert(photo: NewPhoto): Promise<number> {
      const row = await db.insertInto('photos').values(photo).returning('id').executeTakeFirstOrThrow();
      return row.id;
    },

    /**
     * Points the record's slot at the photo, uploaded by `by`. With `expectCurrent` null the slot must still be empty (a
     * validator's upload); with an id it must still hold that photo (an admin's replacement). Undefined
     * when someone else got there first; otherwise the record's department and whether it is now
     * complete.
     */
    async fillSlot(
      recordId: number,
      kind: PhotoKind,
      photoId: number,
      expectCurrent: number | null,
      at: string,
      by: string,
    ): Promise<{ department_id: number; completed: number } | undefined> {
      const column = slotColumn(kind);
      const completed = completedAfterFilling(kind);
      return (
        db
          .updateTable('records')
          .set({
            [column]: photoId,
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
          .executeTakeFirst()
      );
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

    async find(photoId: number): Promise<PhotoRow | undefined> {
      return db.selectFrom('photos').selectAll().where('id', '=', photoId).executeTakeFirst();
    },

    /** A photo with what its download name and its access check need. */
    async findForServing(photoId: number): Promise<
      | (PhotoRow & {
          record_nombre: string;
          department_slug: string;
          department_title: string;
        })
      | undefined
    > {
      return db
        .selectFrom('photos')
        .innerJoin('records', 'records.id', 'photos.record_id')
        .innerJoin('departments', 'departments.id', 'records.department_id')
        .selectAll('photos')
        .select([
          'records.nombre as record_nombre',
          'departments.slug as department_slug',
          'departments.title as department_title',
        ])
        .where('photos.id', '=', photoId)
        .executeTakeFirst();
    },

    /** Another record that already used this exact image, if any. */
    async findSameImageElsewhere(sha256: string, recordId: number): Promise<{ record_id: number } | undefined> {
      return db
        .selectFrom('photos')
        .select('record_id')
        .where('sha256', '=', sha256)
        .where('record_id', '!=', recordId)
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
    },

    async getSetting(key: string): Promise<string | undefined> {
      const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
      return row?.value;
    },

    async countAll(): Promise<number> {
      const row = await db
        .selectFrom('photos')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Placeholder keys written by the demo data, waiting for their generated image files. */
    async listPlaceholderKeys(prefix: string): Promise<string[]> {
      const rows = await db
        .selectFrom('photos')
        .select('original_key')
        .distinct()
        .where('original_key', 'like', `${prefix}%`)
        .execute();
      return rows.map((r) => r.original_key);
    },

    async replacePlaceholder(
      placeholder: string,
      keys: { original_key: string; display_key: string; thumb_key: string; sha256: string; size_bytes: number },
    ): Promise<void> {
      await db.updateTable('photos').set(keys).where('original_key', '=', placeholder).execute();
    },

    /** The three keys of every ballot photo, current or replaced (replaced ones stay as evidence). */
    async listPhotoKeys(): Promise<string[]> {
      const rows = await db.selectFrom('photos').select(['original_key', 'display_key', 'thumb_key']).execute();
      return rows.flatMap((r) => [r.original_key, r.display_key, r.thumb_key]);
    },
  };
}
export type PhotosRepository = ReturnType<typeof createPhotosRepository>;
