import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import { createSyntheticRepository } from './results-synthetic.repository';

export interface SyntheticBallots {
  /** Candidate codes of each of these ballots; [] is a vote for nobody. */
  codes: string[];
  count: number;
}

export interface SyntheticResultsSpec {
  /** Municipality slugs the records are spread over (default: every municipality). */
  departments?: string[];
  /** Records still to vote on. */
  unvoted?: number;
  /** Voted records, each group spread over the departments. */
  ballots?: SyntheticBallots[];
  /** Give every new record its three photos (voted ones become validated). */
  withPhotos?: boolean;
  /** Part of each person's name, to tell batches apart. */
  label?: string;
  now?: Date;
}

/** Splits `count` as evenly as possible over `parts` (the first ones get one more). */
const share = (count: number, parts: number, index: number) =>
  Math.floor(count / parts) + (index < count % parts ? 1 : 0);

/**
 * Loads many records with known votes in one transaction, counters included, exactly as the same
 * votes cast one by one would have left them. For benchmarks, tests and end-to-end fixtures.
 */
export async function seedSyntheticResults(
  db: Kysely<Database>,
  spec: SyntheticResultsSpec,
): Promise<{ firstId: number; lastId: number }> {
  const at = (spec.now ?? new Date()).toISOString();
  const label = spec.label ?? 'Sintética';
  return db.transaction().execute(async (trx) => {
    const repo = createSyntheticRepository(trx);
    const slugs = spec.departments ?? (await repo.municipalitySlugs());
    const ids = await repo.departmentIds(slugs);
    const departments = slugs.map((slug) => {
      const id = ids.get(slug);
      if (id === undefined) throw new Error(`No existe el municipio ${slug}`);
      return id;
    });
    const before = await repo.maxRecordId();
    const groups = [
      ...(spec.ballots ?? []).map((b) => ({ count: b.count, vote: { codes: b.codes.join(','), by: 'sintetico', at } })),
      { count: spec.unvoted ?? 0, vote: null },
    ];
    for (const [g, group] of groups.entries()) {
      for (const [index, departmentId] of departments.entries()) {
        const count = share(group.count, departments.length, index);
        if (count > 0) {
          await repo.insertRecords({ departmentId, count, label: `${label} ${g + 1}`, vote: group.vote, at });
        }
      }
    }
    await repo.insertBallots(before);
    if (spec.withPhotos) await repo.attachPhotos(before, at);
    await repo.addToCounters(before);
    return { firstId: before + 1, lastId: await repo.maxRecordId() };
  });
}

/** Ids of records of a municipality nobody has voted on yet. */
export async function unvotedRecordIds(db: Kysely<Database>, slug: string, limit: number): Promise<number[]> {
  const repo = createSyntheticRepository(db);
  const id = (await repo.departmentIds([slug])).get(slug);
  if (id === undefined) throw new Error(`No existe el municipio ${slug}`);
  return repo.unvotedIds(id, limit);
}
