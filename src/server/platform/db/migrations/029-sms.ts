import { type Kysely, sql } from 'kysely';
import type { Dialect } from '#server/platform/db/dialect';
import { inSlices } from '#server/platform/db/in-slices';
import { recordCodeFor } from '#shared/platform/record-code';
import { idColumn } from './helpers';

/** The records' short codes, from their ids (a migration keeps its own copy of what it writes). */
async function writeRecordCodes(db: Kysely<unknown>, ids: readonly number[]): Promise<void> {
  for (const slice of inSlices(ids)) {
    const cases = sql.join(
      slice.map((id) => sql`when ${id} then ${recordCodeFor(id)}`),
      sql` `,
    );
    await sql`update records set short_code = case id ${cases} end where id in (${sql.join(slice)})`.execute(db);
  }
}

/**
 * Votes by SMS (docs/decisions/084):
 * - every record's short code (`records.short_code`, unique), made here for the records already there;
 * - the mobile numbers each account sends SMS from (`user_phones`, one account per number);
 * - every SMS received and sent (`sms_messages`) with its outcome. A received one carries
 *   `dedupe_key` (the sender, the text and the time the phone received it, hashed), unique: a webhook
 *   delivered twice, to one instance or to two on the same PostgreSQL, is kept, and so applied, once.
 */
export function smsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('records').addColumn('short_code', 'varchar(8)').execute();
      const rows = await sql<{ id: number }>`select id from records order by id`.execute(db);
      await writeRecordCodes(
        db,
        rows.rows.map((r) => Number(r.id)),
      );
      await db.schema.createIndex('records_short_code_key').unique().on('records').column('short_code').execute();

      await db.schema
        .createTable('user_phones')
        .addColumn('phone', 'varchar(16)', (c) => c.notNull().primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('user_phones_user_idx').on('user_phones').column('user_id').execute();

      await idColumn(db.schema.createTable('sms_messages'), dialect)
        .addColumn('direction', 'varchar(3)', (c) => c.notNull())
        .addColumn('phone', 'varchar(16)', (c) => c.notNull())
        .addColumn('user_email', 'varchar(320)')
        .addColumn('department_id', 'integer', (c) => c.references('departments.id').onDelete('set null'))
        .addColumn('record_id', 'integer', (c) => c.references('records.id').onDelete('set null'))
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('outcome', 'varchar(20)', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('reply_to', 'integer', (c) => c.references('sms_messages.id').onDelete('cascade'))
        .addColumn('dedupe_key', 'varchar(64)', (c) => c.unique())
        .addColumn('gateway_id', 'varchar(100)')
        .addColumn('phone_time', 'varchar(40)')
        .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sms_messages_created_idx').on('sms_messages').column('created_at').execute();
      await db.schema
        .createIndex('sms_messages_phone_idx')
        .on('sms_messages')
        .columns(['phone', 'created_at'])
        .execute();
      await db.schema
        .createIndex('sms_messages_department_idx')
        .on('sms_messages')
        .columns(['department_id', 'created_at'])
        .execute();
    },
  };
}
