import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '#server/cli';
import { seedReferenceData } from '#server/platform/db/seed/reference';
import { seedSyntheticResults } from '#server/testing/results-synthetic';
import { createTestDb, type TestDb } from '#server/testing/test-app';

let testDb: TestDb | undefined;
afterEach(async () => {
  await testDb?.destroy();
  testDb = undefined;
});

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, testDb!.db.kysely, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    readPassword: async () => '',
  });
  return { code, out, err };
}

describe('npm run cli -- results:check', () => {
  it('says the totals are right, with the recount, and exits 0', async () => {
    testDb = await createTestDb({ migrated: true });
    await seedReferenceData(testDb.db, new Date());
    await seedSyntheticResults(testDb.db.kysely, {
      ballots: [
        { codes: ['FA', 'LC'], count: 1500 },
        { codes: ['NR'], count: 20 },
      ],
      unvoted: 40,
    });
    const { code, out, err } = await run(['results:check']);
    expect(err).toEqual([]);
    expect(out).toEqual(['Totales correctos: 1.520 trámites votados; votos FA 1.500, LC 1.500, NR 20.']);
    expect(code).toBe(0);
  });

  it('lists every counter that differs and exits 1', async () => {
    testDb = await createTestDb({ migrated: true });
    await seedReferenceData(testDb.db, new Date());
    await seedSyntheticResults(testDb.db.kysely, { departments: ['baralt'], ballots: [{ codes: ['LC'], count: 3 }] });
    await sql`update candidate_totals set votes = 2`.execute(testDb.db.kysely);
    await sql`update vote_totals set ballots = 9`.execute(testDb.db.kysely);
    const { code, out, err } = await run(['results:check']);
    expect(out).toEqual([]);
    expect(err).toEqual([
      '2 contadores no coinciden con el recuento de los trámites:',
      '  baralt\tvotos LC\tguardado 2\trecontado 3',
      '  baralt\ttrámites votados\tguardado 9\trecontado 3',
      'Recuento: 3 trámites votados; votos FA 0, LC 3, NR 0.',
    ]);
    expect(code).toBe(1);
  });

  it('is listed in the help', async () => {
    testDb = await createTestDb();
    const { out } = await run(['help']);
    expect(out.join('\n')).toContain('results:check');
  });
});
