import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '#server/platform/db/database';
import { seedReferenceData } from '#server/platform/db/seed/reference';
import { seedSyntheticResults } from '#server/testing/results-synthetic';
import { createTestDb, type TestDb } from '#server/testing/test-app';
import { checkTotals, createResultsReader, readResults } from './results.service';

let testDb: TestDb | undefined;
afterEach(async () => {
  await testDb?.destroy();
  testDb = undefined;
});

async function freshDb() {
  testDb = await createTestDb({ migrated: true });
  await seedReferenceData(testDb.db, new Date());
  return testDb;
}

const votesOf = (r: { candidates: { code: string; votes: number }[] }) =>
  Object.fromEntries(r.candidates.map((c) => [c.code, c.votes]));

describe('results reader', () => {
  it('never answers stale totals: it sees writes by this process at once and by another connection within a millisecond', async () => {
    const { db, options } = await freshDb();
    const read = createResultsReader(db.kysely, () => new Date());
    expect(votesOf(await read())).toEqual({ FA: 0, LC: 0, NR: 0 });

    await seedSyntheticResults(db.kysely, { departments: ['sucre'], ballots: [{ codes: ['FA', 'LC'], count: 3 }] });
    expect(votesOf(await read())).toEqual({ FA: 3, LC: 3, NR: 0 });

    // Another process (a second instance, the command line) writes through its own connection.
    const other = await openDatabase(options);
    try {
      await seedSyntheticResults(other.kysely, { departments: ['mara'], ballots: [{ codes: ['NR'], count: 2 }] });
    } finally {
      await other.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 3));
    const after = await read();
    expect(votesOf(after)).toEqual({ FA: 3, LC: 3, NR: 2 });
    expect(after).toEqual({ ...(await readResults(db.kysely, new Date())), computedAt: expect.any(String) });
  });
});

describe('checkTotals', () => {
  it('finds nothing to report when the counters match the records', async () => {
    const { db } = await freshDb();
    await seedSyntheticResults(db.kysely, {
      ballots: [
        { codes: ['FA'], count: 50 },
        { codes: ['LC', 'NR'], count: 40 },
        { codes: [], count: 5 },
      ],
      unvoted: 100,
      withPhotos: true,
    });
    const check = await checkTotals(db.kysely);
    expect(check.differences).toEqual([]);
    expect(check.ballots).toBe(95);
    expect(check.votes).toEqual({ FA: 50, LC: 40, NR: 40 });
  });

  it('reports each counter that disagrees with a recount, with both numbers', async () => {
    const { db } = await freshDb();
    await seedSyntheticResults(db.kysely, {
      departments: ['sucre'],
      ballots: [{ codes: ['FA'], count: 4 }],
      unvoted: 2,
      withPhotos: true,
    });
    // A counter moved without its vote, as a bug or a hand edit would leave it.
    await sql`update candidate_totals set votes = votes + 1`.execute(db.kysely);
    await sql`update record_counts set validated = 7`.execute(db.kysely);
    await sql`delete from vote_totals`.execute(db.kysely);
    await sql`update photo_totals set photos = 2`.execute(db.kysely);
    const check = await checkTotals(db.kysely);
    expect(check.differences).toEqual([
      { department: 'sucre', counter: 'FA', stored: 5, recounted: 4 },
      // Three photos for each of the six records.
      { department: 'sucre', counter: 'fotos', stored: 2, recounted: 18 },
      { department: 'sucre', counter: 'pendientes:validados', stored: 7, recounted: 4 },
      { department: 'sucre', counter: 'votados', stored: 0, recounted: 4 },
    ]);
  });
});

describe('bulk synthetic data', () => {
  // Its speed is measured by `npm run bench -- results` (a million records); here, only correctness.
  it('loads tens of thousands of records with consistent counters', async () => {
    const { db } = await freshDb();
    await seedSyntheticResults(db.kysely, {
      ballots: [
        { codes: ['FA'], count: 6_000 },
        { codes: ['FA', 'LC'], count: 4_000 },
      ],
      unvoted: 10_000,
    });
    expect((await checkTotals(db.kysely)).differences).toEqual([]);
    expect(votesOf(await readResults(db.kysely, new Date()))).toEqual({ FA: 10_000, LC: 4_000, NR: 0 });
  });
});
