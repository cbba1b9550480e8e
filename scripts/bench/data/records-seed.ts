import type { Db } from '#server/platform/db/database';
import { fakeRecords, seededRandom } from '#server/integrations/demo/records.fake';
import { createRecordsRepository } from '#server/core/records/records.repository';

export interface BenchRecords {
  /** Per department slug, the ids of its new (pending, unvoted) records, ascending. */
  ids: Record<string, number[]>;
  total: number;
}

/**
 * Loads `count` pending, unvoted records quickly (batched inserts in one transaction), spread evenly
 * over the given municipalities (default: all of them). For `npm run bench`: 50,000 records take a
 * couple of seconds on SQLite.
 */
export async function seedBenchRecords(
  db: Db,
  count: number,
  options: { departments?: string[]; now?: Date } = {},
): Promise<BenchRecords> {
  const now = options.now ?? new Date();
  return db.kysely.transaction().execute(async (trx) => {
    const repo = createRecordsRepository(trx);
    const all = await repo.listMunicipalities();
    const chosen = options.departments ? all.filter((d) => options.departments?.includes(d.slug)) : all;
    if (chosen.length === 0) throw new Error('seedBenchRecords: ningún municipio coincide');
    const random = seededRandom(50_000);
    const ids: Record<string, number[]> = {};
    for (const [index, department] of chosen.entries()) {
      const share = Math.floor(count / chosen.length) + (index < count % chosen.length ? 1 : 0);
      const records = fakeRecords(department.id, index, share, random, `bench-${department.slug}-${Date.now()}`);
      ids[department.slug] = await repo.insertMany(records, now);
    }
    return { ids, total: count };
  });
}
