import type { Kysely } from 'kysely';

/**
 * The day's eras and keys bound to what was captured (decision 094): the era the day is in (changed when a
 * drill starts and when it ends) and every drill's era; each key a phone reported, bound to its record,
 * slot, content and era (keys kept before, bound to nothing, are dropped: they vouch for nothing); and the
 * era a resumable upload was begun in.
 */
export function erasAndBoundKeysMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('election').addColumn('era', 'varchar(36)').execute();
      await db.schema
        .createTable('election_eras')
        .addColumn('era', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('drill', 'integer', (c) => c.notNull())
        .addColumn('started_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('ended_at', 'varchar(40)')
        .execute();
      await db.deleteFrom('election_heard_keys' as never).execute();
      for (const [column, type] of [
        ['record_id', 'integer'],
        ['kind', 'varchar(20)'],
        ['fingerprint', 'varchar(200)'],
        ['era', 'varchar(36)'],
      ] as const) {
        await db.schema.alterTable('election_heard_keys').addColumn(column, type).execute();
      }
      await db.schema
        .createIndex('election_heard_keys_user')
        .on('election_heard_keys')
        .columns(['user_email'])
        .execute();
      await db.schema.alterTable('resumable_uploads').addColumn('era', 'varchar(36)').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('resumable_uploads').dropColumn('era').execute();
      await db.schema.dropIndex('election_heard_keys_user').execute();
      for (const column of ['record_id', 'kind', 'fingerprint', 'era']) {
        await db.schema.alterTable('election_heard_keys').dropColumn(column).execute();
      }
      await db.schema.dropTable('election_eras').execute();
      await db.schema.alterTable('election').dropColumn('era').execute();
    },
  };
}
