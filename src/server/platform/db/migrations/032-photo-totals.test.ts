import { Migrator } from 'kysely';
import { expect, it } from 'vitest';
import { createRecordsRepository, type NewPhoto } from '#server/core/records/records.repository';
import { seedReferenceData } from '#server/platform/db/seed/reference';
import { createTestDb } from '#server/testing/test-app';
import type { PhotoKind } from '#shared/platform/constants';
import { migrationProvider } from './index';

it('fills the photos received per department from the photos already stored before the upgrade, replacements included', async () => {
  const testDb = await createTestDb();
  try {
    const { db } = testDb;
    const migrator = new Migrator({ db: db.kysely, provider: migrationProvider(db.dialect) });
    expect((await migrator.migrateTo('029-sms')).error).toBeUndefined();
    const now = new Date('2026-12-06T14:00:00.000Z');
    await seedReferenceData(db, now);
    const records = createRecordsRepository(db.kysely);
    const [first, second] = await records.listMunicipalities();
    const record = (departmentId: number, i: number) => ({
      departmentId,
      comunidad: 'La Rosa',
      nombre: `Persona ${i}`,
      ubch: 'UBCH 1',
      telefono: '04140000000',
    });
    const [a, b, c] = await records.insertMany(
      [record(first?.id as number, 1), record(first?.id as number, 2), record(second?.id as number, 3)],
      now,
    );
    const photo = (recordId: number, kind: PhotoKind): NewPhoto => ({
      record_id: recordId,
      kind,
      original_key: `o/${recordId}/${kind}`,
      display_key: `d/${recordId}/${kind}`,
      thumb_key: `t/${recordId}/${kind}`,
      sha256: '0'.repeat(64),
      size_bytes: 1,
      content_type: 'image/jpeg',
      width: 1,
      height: 1,
      uploaded_by: 'v@example.org',
      uploaded_at: now.toISOString(),
    });
    // Three photos in the first department (one of them replaced once: four received), one in the second.
    await records.insertPhotos([
      photo(a as number, 'gobernador'),
      photo(a as number, 'gobernador'),
      photo(a as number, 'an'),
      photo(b as number, 'clez'),
      photo(c as number, 'an'),
    ]);

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const kept = await db.kysely.selectFrom('photo_totals').select(['department_id', 'photos']).execute();
    expect(Object.fromEntries(kept.map((r) => [r.department_id, Number(r.photos)]))).toEqual({
      [first?.id as number]: 4,
      [second?.id as number]: 1,
    });
  } finally {
    await testDb.destroy();
  }
});
