import { afterEach, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { addRecords } from '#server/testing/records';
import { multipartFile } from '#server/testing/records-import-fixtures';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { recordCodeFor } from '#shared/platform/record-code';
import { readCsv } from './records-import.csv';

let t: TestApp;
afterEach(async () => t?.close());

const PEOPLE = { admin: 'jefa@example.org' } as const;

async function setup(): Promise<{ admin: string }> {
  t = await createTestApp();
  await createUser(t.db, { email: PEOPLE.admin, role: 'admin' });
  return { admin: await sessionCookie(t, PEOPLE.admin) };
}

const MARIA = {
  comunidad: 'Sector Los Olivos',
  nombre: 'María Pérez',
  ubch: 'UBCH 110100001',
  telefono: '0414-6123456',
};

describe('records export', () => {
  it('writes when a record was voted in Caracas time, as every export does, and says so with the offset', async () => {
    const cookies = await setup();
    const [id] = await addRecords(t, 'cabimas', [MARIA]);
    await t.db.kysely
      .updateTable('records')
      .set({ voted_at: '2026-11-23T03:30:05.000Z' })
      .where('id', '=', id as number)
      .execute();
    const res = await t.request({
      url: '/api/admin/records/export.csv?department=cabimas',
      headers: { cookie: cookies.admin },
    });
    const rows: string[][] = [];
    for await (const { fields } of readCsv([res.body.replace(/^\uFEFF/, '')], { maxRowChars: 10_000 }))
      rows.push(fields);
    expect(rows[0]?.[7]).toBe('Votado el (hora de Caracas, UTC-04:00)');
    expect(rows[1]?.[7]).toBe('2026-11-22 23:30:05');
  });

  it('exports a municipality as UTF-8 CSV with BOM, escaped and formula-safe, that imports back as duplicates', async () => {
    const cookies = await setup();
    await addRecords(t, 'cabimas', [
      MARIA,
      {
        comunidad: 'Barrio "El Gallo"; sur',
        nombre: '=HIPERVINCULO("http://x")',
        ubch: '@U',
        telefono: '+58 414 7654321',
      },
      { comunidad: 'Dos\nlíneas', nombre: 'Ana', ubch: '-1', telefono: '0261-7000000' },
    ]);
    await addRecords(t, 'lagunillas', [{ nombre: 'Otra persona', telefono: '0414-0000001' }]);
    const res = await t.request({
      url: '/api/admin/records/export.csv?department=cabimas',
      headers: { cookie: cookies.admin },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="registros-cabimas-\d{4}-\d\d-\d\d\.csv"$/,
    );
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows: string[][] = [];
    for await (const { fields } of readCsv([res.body.replace(/^\uFEFF/, '')], { maxRowChars: 10_000 }))
      rows.push(fields);
    expect(rows[0]).toEqual([
      'Comunidades',
      'Nombre',
      'UBCH',
      'Telefono',
      'Departamento',
      'Estado',
      'Votos',
      'Votado el (hora de Caracas, UTC-04:00)',
      'ID',
      'Código SMS',
    ]);
    expect(rows).toHaveLength(4);
    // Each record with the short code a validator types in an SMS vote.
    for (const row of rows.slice(1)) expect(row[9]).toBe(recordCodeFor(Number(row[8])));
    expect(rows[2]?.slice(0, 4)).toEqual([
      'Barrio "El Gallo"; sur',
      '\'=HIPERVINCULO("http://x")',
      "'@U",
      "'+58 414 7654321",
    ]);
    expect(rows[3]?.slice(0, 3)).toEqual(['Dos\nlíneas', 'Ana', "'-1"]);
    expect(res.body).toContain('"Barrio ""El Gallo""; sur"');

    const audit = await listAudit(t.db.kysely, { action: 'records.export' });
    expect(audit[0]).toMatchObject({ actor_email: PEOPLE.admin, department_slug: 'cabimas' });

    // What was exported imports back unchanged: every row is already there.
    const file = multipartFile(res.rawPayload);
    const back = await t.request({
      method: 'POST',
      url: '/api/admin/records/import?mode=simulacion',
      headers: { cookie: cookies.admin, ...file.headers },
      payload: file.payload,
    });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().report).toMatchObject({ rows: 3, valid: 0, duplicatesInDatabase: 3, invalid: 0 });
  });
});
