import { Migrator } from 'kysely';
import { expect, it } from 'vitest';
import { createRecordsRepository } from '#server/core/records/records.repository';
import { seedReferenceData } from '#server/platform/db/seed/reference';
import { createTestDb } from '#server/testing/test-app';
import { migrationProvider } from './index';

it('fills the quarter counters from the ballots already cast before the upgrade', async () => {
  const testDb = await createTestDb();
  try {
    const { db } = testDb;
    const migrator = new Migrator({ db: db.kysely, provider: migrationProvider(db.dialect) });
    expect((await migrator.migrateTo('026-second-factor')).error).toBeUndefined();
    const now = new Date('2026-12-06T14:00:00.000Z');
    await seedReferenceData(db, now);
    const records = createRecordsRepository(db.kysely);
    const [department] = await records.listMunicipalities();
    const byCode = new Map((await records.listCandidates()).map((c) => [c.code, c.id]));
    const votes = [
      { codes: ['FA'], at: '2026-12-06T13:02:00.000Z' },
      { codes: ['FA', 'LC'], at: '2026-12-06T13:14:59.999Z' },
      { codes: ['NR'], at: '2026-12-06T13:15:00.000Z' },
    ];
    // Rows as the schema of 026 holds them (today's insertMany also writes columns added later).
    const inserted = await db.kysely
      .insertInto('records')
      .values(
        votes.map((v, i) => ({
          department_id: department?.id as number,
          source_id: null,
          comunidad: 'La Rosa',
          nombre: `Persona ${i}`,
          ubch: 'UBCH 1',
          telefono: '04140000000',
          status: 'pendiente' as const,
          search_text: `persona ${i}`,
          voted_at: v.at,
          voted_by: 'v@example.org',
          vote_codes: v.codes.join(','),
          completed: 0,
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
        })),
      )
      .returning('id')
      .execute();
    const ids = inserted.map((r) => r.id);
    await records.insertVoteRows(
      votes.flatMap((v, i) =>
        v.codes.map((code) => ({
          record_id: ids[i] as number,
          candidate_id: byCode.get(code) as number,
          created_at: v.at,
        })),
      ),
    );

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const codeOf = new Map([...byCode].map(([code, id]) => [id, code]));
    const kept = (
      await db.kysely.selectFrom('quarter_totals').select(['hour', 'quarter', 'candidate_id', 'votes']).execute()
    )
      .map((r) => `${codeOf.get(r.candidate_id)} ${r.hour} ${Number(r.quarter)}: ${Number(r.votes)}`)
      .sort();
    expect(kept).toEqual(['FA 2026-12-06T13 0: 2', 'LC 2026-12-06T13 0: 1', 'NR 2026-12-06T13 1: 1']);
  } finally {
    await testDb.destroy();
  }
});
