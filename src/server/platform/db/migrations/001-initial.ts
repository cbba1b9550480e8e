import type { Kysely } from 'kysely';
import type { Dialect } from '#server/platform/db/dialect';
import { idColumn } from './helpers';

export function initial(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('settings')
        .addColumn('key', 'varchar(100)', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
        .execute();

      await idColumn(db.schema.createTable('departments'), dialect)
        .addColumn('slug', 'varchar(100)', (c) => c.notNull().unique())
        .addColumn('title', 'varchar(200)', (c) => c.notNull())
        .addColumn('kind', 'varchar(20)', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('department_members')
        .addColumn('department_id', 'integer', (c) => c.notNull().references('departments.id').onDelete('cascade'))
        .addColumn('email', 'varchar(320)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
        .addPrimaryKeyConstraint('department_members_pk', ['department_id', 'email'])
        .execute();
      await db.schema.createIndex('department_members_email_idx').on('department_members').column('email').execute();

      await idColumn(db.schema.createTable('candidates'), dialect)
        .addColumn('code', 'varchar(10)', (c) => c.notNull().unique())
        .addColumn('name', 'varchar(200)', (c) => c.notNull())
        .addColumn('colour', 'varchar(20)', (c) => c.notNull())
        .addColumn('photo_url', 'varchar(500)', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .execute();

      await idColumn(db.schema.createTable('agenda_events'), dialect)
        .addColumn('fecha', 'varchar(10)', (c) => c.notNull())
        .addColumn('hora_24h', 'varchar(10)')
        .addColumn('descripcion', 'text')
        .addColumn('lugar', 'text')
        .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('agenda_events_fecha_idx').on('agenda_events').column('fecha').execute();

      await idColumn(db.schema.createTable('posts'), dialect)
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('content_html', 'text', (c) => c.notNull())
        .addColumn('published_at', 'varchar(40)')
        .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('posts_published_at_idx').on('posts').column('published_at').execute();

      await idColumn(db.schema.createTable('audit_log'), dialect)
        .addColumn('at', 'varchar(40)', (c) => c.notNull())
        .addColumn('actor_email', 'varchar(320)')
        .addColumn('action', 'varchar(100)', (c) => c.notNull())
        .addColumn('department_slug', 'varchar(100)')
        .addColumn('target', 'text')
        .addColumn('ip', 'varchar(100)')
        .addColumn('details', 'text')
        .execute();
      await db.schema.createIndex('audit_log_at_idx').on('audit_log').column('at').execute();
    },
  };
}
