import type { Kysely, Selectable } from 'kysely';
import { compiledQuery } from '#server/platform/db/compiled-query';
import type { Database } from '#server/platform/db/schema';
import type { IdempotencyKeysTable } from '#server/platform/db/schema-idempotency';

const ANSWER_COLUMNS = [
  'actor_email',
  'fingerprint',
  'status_code',
  'response_body',
] as const satisfies readonly (keyof IdempotencyKeysTable)[];
export type StoredAnswer = Pick<Selectable<IdempotencyKeysTable>, (typeof ANSWER_COLUMNS)[number]>;

// Both run on every vote and photo a phone sends: compiled once (decision 036, measured in 088).
const findQuery = compiledQuery((db: Kysely<Database>, itemKey: string, now: string) =>
  db
    .selectFrom('idempotency_keys')
    .select(ANSWER_COLUMNS)
    .where('item_key', '=', itemKey)
    .where('expires_at', '>', now),
);

const saveQuery = compiledQuery(
  (
    db: Kysely<Database>,
    itemKey: string,
    actorEmail: string,
    fingerprint: string,
    statusCode: number,
    responseBody: string,
    createdAt: string,
    expiresAt: string,
  ) =>
    db
      .insertInto('idempotency_keys')
      .values({
        item_key: itemKey,
        actor_email: actorEmail,
        fingerprint,
        status_code: statusCode,
        response_body: responseBody,
        created_at: createdAt,
        expires_at: expiresAt,
      })
      .onConflict((oc) =>
        oc
          .column('item_key')
          .doUpdateSet((eb) => ({
            actor_email: eb.ref('excluded.actor_email'),
            fingerprint: eb.ref('excluded.fingerprint'),
            status_code: eb.ref('excluded.status_code'),
            response_body: eb.ref('excluded.response_body'),
            created_at: eb.ref('excluded.created_at'),
            expires_at: eb.ref('excluded.expires_at'),
          }))
          .where('idempotency_keys.expires_at', '<=', createdAt),
      )
      .returning('item_key'),
);

export function createIdempotencyRepository(db: Kysely<Database>) {
  return {
    /** The answer stored under a key that has not expired yet. */
    async find(key: string, now: Date): Promise<StoredAnswer | undefined> {
      return (await findQuery(db, key, now.toISOString()))[0];
    },

    /**
     * Stores a key with its answer (inside the transaction of the change it answers). False when the key
     * is already taken by a live entry: then the caller's transaction must not commit. An expired entry
     * is overwritten.
     */
    async save(entry: IdempotencyKeysTable): Promise<boolean> {
      const rows = await saveQuery(
        db,
        entry.item_key,
        entry.actor_email,
        entry.fingerprint,
        entry.status_code,
        entry.response_body,
        entry.created_at,
        entry.expires_at,
      );
      return rows.length > 0;
    },

    /**
     * Which of these keys one person's votes and photos stored, and when (decision 135); expired ones too,
     * since the item they name is still here.
     */
    async storedBy(keys: readonly string[], actorEmail: string): Promise<{ itemKey: string; createdAt: string }[]> {
      if (keys.length === 0) return [];
      return db
        .selectFrom('idempotency_keys')
        .select(['item_key as itemKey', 'created_at as createdAt'])
        .where('item_key', 'in', [...keys])
        .where('actor_email', '=', actorEmail)
        .execute();
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
