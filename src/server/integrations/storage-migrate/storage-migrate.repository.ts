import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';

/**
 * The SQL of `storage:migrate`: the candidates' photo files and which copies were verified (the ballot
 * photos' files come from features/photos).
 */
export function createStorageMigrateRepository(db: Kysely<Database>) {
  return {
    async listCandidatePhotoUrls(): Promise<string[]> {
      const rows = await db.selectFrom('candidates').select('photo_url').execute();
      return rows.map((r) => r.photo_url);
    },

    /** Keys already copied to `target` and verified. */
    async listCopied(target: string): Promise<Set<string>> {
      const rows = await db.selectFrom('storage_copies').select('key').where('target', '=', target).execute();
      return new Set(rows.map((r) => r.key));
    },

    async recordCopy(row: { target: string; key: string; sha256: string; size_bytes: number; copied_at: string }) {
      await db
        .insertInto('storage_copies')
        .values(row)
        .onConflict((oc) =>
          oc
            .columns(['target', 'key'])
            .doUpdateSet({ sha256: row.sha256, size_bytes: row.size_bytes, copied_at: row.copied_at }),
        )
        .execute();
    },
  };
}
