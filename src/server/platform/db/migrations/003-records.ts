import type { Kysely } from 'kysely';
import type { Dialect } from '#server/platform/db/dialect';
import { idColumn } from './helpers';

export function recordsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable('records'), dialect)
        .addColumn('department_id', 'integer', (c) => c.notNull().references('departments.id').onDelete('restrict'))
        .addColumn('source_id', 'varchar(100)', (c) => c.unique())
        .addColumn('comunidad', 'varchar(300)', (c) => c.notNull())
        .addColumn('nombre', 'varchar(300)', (c) => c.notNull())
        .addColumn('ubch', 'varchar(100)', (c) => c.notNull())
        .addColumn('telefono', 'varchar(60)', (c) => c.notNull())
        .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('pendiente'))
        .addColumn('search_text', 'text', (c) => c.notNull())
        .addColumn('voted_at', 'varchar(40)')
        .addColumn('voted_by', 'varchar(320)')
        .addColumn('vote_codes', 'varchar(100)')
        // No foreign keys to photos: records come first and SQLite cannot add a constraint later.
        .addColumn('gobernador_photo_id', 'integer')
        .addColumn('an_photo_id', 'integer')
        .addColumn('clez_photo_id', 'integer')
        .addColumn('completed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
        .execute();
      // The validator's list: a department's pending records still to finish, 100 at a time by id.
      await db.schema
        .createIndex('records_worklist_idx')
        .on('records')
        .columns(['department_id', 'status', 'completed', 'id'])
        .execute();
      // The same list including finished records.
      await db.schema
        .createIndex('records_department_idx')
        .on('records')
        .columns(['department_id', 'status', 'id'])
        .execute();

      await db.schema
        .createTable('record_votes')
        .addColumn('record_id', 'integer', (c) => c.notNull().references('records.id').onDelete('cascade'))
        .addColumn('candidate_id', 'integer', (c) => c.notNull().references('candidates.id').onDelete('restrict'))
        .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
        .addPrimaryKeyConstraint('record_votes_pk', ['record_id', 'candidate_id'])
        .execute();

      await idColumn(db.schema.createTable('photos'), dialect)
        .addColumn('record_id', 'integer', (c) => c.notNull().references('records.id').onDelete('cascade'))
        .addColumn('kind', 'varchar(20)', (c) => c.notNull())
        .addColumn('original_key', 'varchar(200)', (c) => c.notNull())
        .addColumn('display_key', 'varchar(200)', (c) => c.notNull())
        .addColumn('thumb_key', 'varchar(200)', (c) => c.notNull())
        .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
        .addColumn('size_bytes', 'integer', (c) => c.notNull())
        .addColumn('content_type', 'varchar(40)', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('uploaded_by', 'varchar(320)', (c) => c.notNull())
        .addColumn('uploaded_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('replaced_at', 'varchar(40)')
        .addColumn('replaced_by', 'varchar(320)')
        .execute();
      await db.schema.createIndex('photos_record_idx').on('photos').columns(['record_id', 'kind']).execute();
      await db.schema.createIndex('photos_sha256_idx').on('photos').column('sha256').execute();

      await db.schema
        .createTable('vote_totals')
        .addColumn('department_id', 'integer', (c) => c.primaryKey().references('departments.id').onDelete('cascade'))
        .addColumn('ballots', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createTable('candidate_totals')
        .addColumn('department_id', 'integer', (c) => c.notNull().references('departments.id').onDelete('cascade'))
        .addColumn('candidate_id', 'integer', (c) => c.notNull().references('candidates.id').onDelete('cascade'))
        .addColumn('votes', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('candidate_totals_pk', ['department_id', 'candidate_id'])
        .execute();

      await db.schema
        .createTable('record_counts')
        .addColumn('department_id', 'integer', (c) => c.primaryKey().references('departments.id').onDelete('cascade'))
        .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('voted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('validated', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
