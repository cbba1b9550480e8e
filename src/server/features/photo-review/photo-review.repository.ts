import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';

/* Photo review's own reads and the reviewers' grants (decision 134); the reviews themselves are the kernel's. */

export function createPhotoReviewRepository(db: Kysely<Database>) {
  return {
    /** The records of the queue's page with their department, vote and current photos. */
    async records(ids: readonly number[]) {
      if (ids.length === 0) return [];
      return db
        .selectFrom('records')
        .innerJoin('departments', 'departments.id', 'records.department_id')
        .select([
          'records.id',
          'records.department_id',
          'departments.slug',
          'departments.title',
          'records.ubch',
          'records.voted_at',
          'records.vote_codes',
          'records.status',
          'records.completed',
          'records.gobernador_photo_id',
          'records.an_photo_id',
          'records.clez_photo_id',
          'records.gobernador_review',
          'records.an_review',
          'records.clez_review',
        ])
        .where('records.id', 'in', ids)
        .execute();
    },

    /** Who sent these photos and when. */
    async photos(ids: readonly number[]) {
      if (ids.length === 0) return [];
      return db
        .selectFrom('photos')
        .select(['id', 'record_id', 'kind', 'uploaded_by', 'uploaded_at'])
        .where('id', 'in', ids)
        .execute();
    },

    async grants() {
      return db
        .selectFrom('review_grants')
        .innerJoin('departments', 'departments.id', 'review_grants.department_id')
        .select(['review_grants.email', 'departments.slug', 'departments.title'])
        .orderBy('review_grants.email')
        .orderBy('departments.position')
        .execute();
    },

    /** True when the grant is new. */
    async addGrant(departmentId: number, email: string, at: string): Promise<boolean> {
      const result = await db
        .insertInto('review_grants')
        .values({ department_id: departmentId, email, created_at: at })
        .onConflict((oc) => oc.columns(['department_id', 'email']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /** True when there was such a grant. */
    async removeGrant(departmentId: number, email: string): Promise<boolean> {
      const result = await db
        .deleteFrom('review_grants')
        .where('department_id', '=', departmentId)
        .where('email', '=', email)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
