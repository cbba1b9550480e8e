import type { Kysely, Selectable } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import type { PhotosTable } from '#server/platform/db/schema-records';

export type PhotoRow = Selectable<PhotosTable>;

export function createPhotosRepository(db: Kysely<Database>) {
  return {
    async find(photoId: number): Promise<PhotoRow | undefined> {
      return db.selectFrom('photos').selectAll().where('id', '=', photoId).executeTakeFirst();
    },

    /** A photo with what its download name and its access check need. */
    async findForServing(photoId: number): Promise<
      | (PhotoRow & {
          record_nombre: string;
          department_id: number;
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
          'departments.id as department_id',
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

    /** The three keys of every ballot photo, current or replaced (replaced ones stay as evidence). */
    async listPhotoKeys(): Promise<string[]> {
      const rows = await db.selectFrom('photos').select(['original_key', 'display_key', 'thumb_key']).execute();
      return rows.flatMap((r) => [r.original_key, r.display_key, r.thumb_key]);
    },
  };
}
export type PhotosRepository = ReturnType<typeof createPhotosRepository>;
