import { Migrator } from 'kysely';
import { expect, it } from 'vitest';
import { createRecordsRepository } from '#server/core/records/records.repository';
import { seedReferenceData } from '#server/platform/db/seed/reference';
import { createTestDb } from '#server/testing/test-app';
import { normaliseRecordCode, recordCodeFor } from '#shared/platform/record-code';
import { migrationProvider } from './index';

it('gives every record already there its short code, unique, and every later record one too', async () => {
  const testDb = await createTestDb();
  try {
    const { db } = testDb;
    const migrator = new Migrator({ db: db.kysely, provider: migrationProvider(db.dialect) });
    expect((await migrator.migrateTo('028-quarter-totals')).error).toBeUndefined();
    const now = new Date('2026-12-06T14:00:00.000Z');
    await seedReferenceData(db, now);
    const [department] = await createRecordsRepository(db.kysely).listMunicipalities();
    await db.kysely
      .insertInto('records')
      .values(
        Array.from({ length: 1_200 }, (_, i) => ({
          department_id: department?.id as number,
          source_id: null,
          comunidad: 'La Rosa',
          nombre: `Persona ${i}`,
          ubch: 'UBCH 1',
          telefono: '04140000000',
          status: 'pendiente' as const,
          search_text: `persona ${i}`,
          voted_at: null,
          voted_by: null,
          vote_codes: null,
          completed: 0,
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
        })),
      )
      .execute();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const rows = await db.kysely.selectFrom('records').select(['id', 'short_code']).execute();
    expect(rows).toHaveLength(1_200);
    for (const row of rows) {
      expect(row.short_code).toBe(recordCodeFor(row.id));
      expect(normaliseRecordCode(row.short_code as string)).toBe(row.short_code);
    }
    expect(new Set(rows.map((r) => r.short_code)).size).toBe(1_200);
    // The database refuses a second record with the same code.
    await expect(
      db.kysely
        .updateTable('records')
        .set({ short_code: rows[0]?.short_code as string })
        .where('id', '=', rows[1]?.id as number)
        .execute(),
    ).rejects.toThrow();
  } finally {
    await testDb.destroy();
  }
});
