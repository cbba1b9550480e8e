import type { Kysely } from 'kysely';

/**
 * The key a phone makes for each vote or photo it captures (the `Idempotency-Key` header on the wire) has
 * one name in the schema, as in the code and the web: the item key (decision 104). The answers kept for
 * keys and the resumable uploads named it `key` and `idempotency_key`; election_heard_keys,
 * election_late_arrivals and election_drill_items already say `item_key`. Indexes follow their column.
 */
export function itemKeysMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('idempotency_keys').renameColumn('key', 'item_key').execute();
      await db.schema.alterTable('resumable_uploads').renameColumn('idempotency_key', 'item_key').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('resumable_uploads').renameColumn('item_key', 'idempotency_key').execute();
      await db.schema.alterTable('idempotency_keys').renameColumn('item_key', 'key').execute();
    },
  };
}
