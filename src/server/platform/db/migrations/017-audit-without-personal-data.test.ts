import { type Kysely, Migrator, sql } from 'kysely';
import { expect, it } from 'vitest';
import { createTestDb } from '#server/testing/test-app';
import { migrationProvider } from './index';

it('rewrites the record rows of the audit log written before it: field names stay, names and phones go', async () => {
  const testDb = await createTestDb();
  try {
    const { db } = testDb;
    const migrator = new Migrator({ db: db.kysely, provider: migrationProvider(db.dialect) });
    expect((await migrator.migrateTo('016-validated-by')).error).toBeUndefined();
    const k = db.kysely as unknown as Kysely<unknown>;
    const at = '2026-11-20T10:00:00.000Z';
    const rows = [
      ['record.create', { comunidad: 'Sector 1', nombre: 'Yusmary Chourio', ubch: '', telefono: '0414-6123457' }],
      [
        'record.update',
        {
          before: {
            department: 'cabimas',
            comunidad: 'Sector 1',
            nombre: 'Yusmary Chourio',
            ubch: '',
            telefono: '0414-6123457',
          },
          after: {
            department: 'lagunillas',
            comunidad: 'Sector 1',
            nombre: 'Yusmary Chourio F.',
            ubch: '',
            telefono: '0414-6123457',
          },
        },
      ],
      ['record.vote', { candidates: ['FA'] }],
      [
        'record.void',
        {
          comunidad: 'Sector 1',
          nombre: 'Yusmary Chourio',
          ubch: '',
          telefono: '0414-6123457',
          voted: false,
          reason: 'Repetida',
        },
      ],
    ] as const;
    for (const [action, details] of rows) {
      await sql`insert into audit_log (at, action, details) values (${at}, ${action}, ${JSON.stringify(details)})`.execute(
        k,
      );
    }
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const after = await db.kysely.selectFrom('audit_log').select(['action', 'details']).orderBy('id').execute();
    expect(after.map((r) => [r.action, JSON.parse(r.details ?? 'null')])).toEqual([
      ['record.create', { fields: ['comunidad', 'nombre', 'ubch', 'telefono'] }],
      ['record.update', { department: { from: 'cabimas', to: 'lagunillas' }, changed: ['nombre'] }],
      ['record.vote', { candidates: ['FA'] }],
      ['record.void', { voted: false, reason: 'Repetida' }],
    ]);
  } finally {
    await testDb.destroy();
  }
});
