import { type Kysely, sql } from 'kysely';
import type { Dialect } from '#server/platform/db/dialect';
import { idColumn } from './helpers';

/**
 * Photo review (decision 134): a second person checks every ballot photo.
 * - `records.<kind>_review`: the state of each ballot slot's review: null while its current photo is
 *   unreviewed (or the slot is empty and was never reopened), 'conforme', or 'ilegible' / 'no_corresponde'
 *   (the slot was reopened: it is empty again and the validator's card asks for another photo, with the
 *   reviewer's `<kind>_review_note`).
 * - `photo_reviews`: one row per reviewed photo (each photo is reviewed once; a reopened slot takes a new
 *   photo), with who and when: with the photos a slot held (replaced or reopened photos stay), the history.
 * - `review_grants`: who may review the records of which municipality, as `department_members` says who
 *   validates them.
 * - `record_counts.reviewed`: validated pending records whose three photos are 'conforme'.
 * - The queue's index: validated pending records with an unreviewed photo, by department, oldest vote first.
 */
export function photoReviewMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const kind of ['gobernador', 'an', 'clez']) {
        await db.schema.alterTable('records').addColumn(`${kind}_review`, 'varchar(20)').execute();
        await db.schema.alterTable('records').addColumn(`${kind}_review_note`, 'varchar(500)').execute();
      }
      await db.schema
        .alterTable('record_counts')
        .addColumn('reviewed', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      await idColumn(db.schema.createTable('photo_reviews'), dialect)
        .addColumn('record_id', 'integer', (c) => c.notNull().references('records.id').onDelete('cascade'))
        .addColumn('photo_id', 'integer', (c) => c.notNull().unique().references('photos.id').onDelete('cascade'))
        .addColumn('kind', 'varchar(20)', (c) => c.notNull())
        .addColumn('verdict', 'varchar(20)', (c) => c.notNull())
        .addColumn('note', 'varchar(500)')
        .addColumn('reviewed_by', 'varchar(320)', (c) => c.notNull())
        .addColumn('reviewed_at', 'varchar(40)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('photo_reviews_record_idx').on('photo_reviews').column('record_id').execute();

      await db.schema
        .createTable('review_grants')
        .addColumn('department_id', 'integer', (c) => c.notNull().references('departments.id').onDelete('cascade'))
        .addColumn('email', 'varchar(320)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
        .addPrimaryKeyConstraint('review_grants_pk', ['department_id', 'email'])
        .execute();
      await db.schema.createIndex('review_grants_email_idx').on('review_grants').column('email').execute();

      // The queue: the same predicate as the queue's query (core/records/record-rules.ts, inReviewQueueSql),
      // so both databases use the partial index.
      await db.schema
        .createIndex('records_review_queue_idx')
        .on('records')
        .columns(['department_id', 'voted_at', 'id'])
        .where(
          sql<boolean>`completed = 1 and status = 'pendiente' and (gobernador_review is null or an_review is null or clez_review is null)`,
        )
        .execute();
    },
  };
}
