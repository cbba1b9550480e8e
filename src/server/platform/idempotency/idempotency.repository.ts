import type { Kysely, Selectable } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import type { IdempotencyKeysTable } from '#server/platform/db/schema-idempotency';

const ANSWER_COLUMNS = [
  'actor_email',
  'fingerprint',
  'status_code',
  'response_body',
] as const satisfies readonly (keyof IdempotencyKeysTable)[];
export type StoredAnswer = Pick<Selectable<IdempotencyKeysTable>, (typeof ANSWER_COLUMNS)[number]>;

export function createIdempotencyRepository(db: Kysely<Database>) {
  return {
    /** The answer stored under a key that has not expired yet. */
    async find(key: string, now: Date): Promise<StoredAnswer | undefined> {
      return db
        .selectFrom('idempotency_keys')
        .select(ANSWER_COLUMNS)
        .where('key', '=', key)
        .where('expires_at', '>', now.toISOString())
        .executeTakeFirst();
    },

    /**
     * Stores a key with its answer (inside the transaction of the change it answers). False when the key
     * is already taken by a live entry: then the caller's transaction must not commit. An expired entry
     * is overwritten.
     */
    async save(entry: IdempotencyKeysTable): Promise<boolean> {
      const row = await db
        .insertInto('idempotency_keys')
        .values(entry)
        .onConflict((oc) =>
          oc
            .column('key')
            .doUpdateSet({
              actor_email: entry.actor_email,
              fingerprint: entry.fingerprint,
              status_code: entry.status_code,
              response_body: entry.response_body,
              created_at: entry.created_at,
              expires_at: entry.expires_at,
            })
            .where('idempotency_keys.expires_at', '<=', entry.created_at),
        )
        .returning('key')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Every kept answer goes (the purge of personal data: an answer may name a person). */
    async deleteAll(): Promise<number> {
      const result = await db.deleteFrom('idempotency_keys').executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async purgeExpired(now: Date): Promise<number> {
      const result = await db
        .deleteFrom('idempotency_keys')
        .where('expires_at', '<=', now.toISOString())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
