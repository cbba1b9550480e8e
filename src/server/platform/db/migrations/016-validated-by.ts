import { type Kysely, sql } from 'kysely';

/**
 * `validated_by`: who made the record validated (vote and three photos), for its card. It is the
 * person whose step completed it: the validator whose vote came after the photos, or whose photo was
 * the last of the three. Set in the same UPDATE that sets `completed`; null while it is not validated.
 *
 * Records validated before this migration get it from what is stored: the uploader of the newest
 * current photo, or the voter when the vote came later.
 */
export function validatedByMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('records').addColumn('validated_by', 'varchar(320)').execute();
      await sql`
        update records set validated_by = (
          select case when records.voted_at > p.uploaded_at then records.voted_by else p.uploaded_by end
          from photos p
          where p.id in (records.gobernador_photo_id, records.an_photo_id, records.clez_photo_id)
          order by p.uploaded_at desc, p.id desc
          limit 1
        )
        where completed = 1`.execute(db);
    },
  };
}
