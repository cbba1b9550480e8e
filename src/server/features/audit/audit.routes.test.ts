import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit, writeAudit } from '#server/platform/audit/audit.repository';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { addRecords } from '#server/testing/records';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { startOfDay } from './audit.service';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  await createUser(t.db, { email: 'jefa@example.org', role: 'admin' });
  admin = await sessionCookie(t, 'jefa@example.org');
  const db = t.db.kysely;
  // Around midnight in Caracas (UTC-4) on 14/15 June 2025, far from the sign-in rows of today.
  await writeAudit(db, {
    actorEmail: 'ana@example.org',
    action: 'record.vote',
    departmentSlug: 'cabimas',
    target: 'record:1',
    at: new Date('2025-06-15T03:59:59Z'),
  });
  await writeAudit(db, {
    actorEmail: 'ana@example.org',
    action: 'photo.upload',
    departmentSlug: 'cabimas',
    target: 'record:1',
    at: new Date('2025-06-15T04:00:00Z'),
  });
  await writeAudit(db, {
    actorEmail: 'luis@example.org',
    action: 'record.vote',
    departmentSlug: 'sucre',
    target: 'record:2',
    at: new Date('2025-06-16T03:59:59Z'),
  });
  await writeAudit(db, {
    actorEmail: 'jefa@example.org',
    action: 'user.disable',
    target: 'ana@example.org',
    at: new Date('2025-06-16T04:00:00Z'),
  });
  // A row meant to break a spreadsheet: formula, quotes, separator and line break.
  await writeAudit(db, {
    actorEmail: '=cmd|calc!A1',
    action: 'user.create',
    target: 'con "comillas"; y\nsalto',
    details: { role: 'staff' },
    at: new Date('2025-06-13T12:00:00Z'),
  });
});
afterAll(async () => t?.close());

const audit = async (query: string) => {
  const res = await t.request({ url: `/api/admin/audit?${query}`, headers: { cookie: admin } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: { action: string; actorEmail: string; target: string }[]; total: number };
};
const actions = (page: { items: { action: string }[] }) => page.items.map((i) => i.action);
const fixed = 'department=&person=';

describe('startOfDay', () => {
  it('finds when a calendar day begins in a time zone', () => {
    expect(startOfDay('2026-11-22', 'America/Caracas').toISOString()).toBe('2026-11-22T04:00:00.000Z');
    expect(startOfDay('2026-03-29', 'Europe/Madrid').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfDay('2026-10-25', 'Europe/Madrid').toISOString()).toBe('2026-10-24T22:00:00.000Z');
  });
});

describe('GET /api/admin/audit', () => {
  it('lists the newest first with every column', async () => {
    const page = await audit('');
    expect(page.total).toBeGreaterThanOrEqual(7);
    expect(page.items[0]).toEqual({
      id: expect.any(Number),
      at: '2025-06-13T12:00:00.000Z',
      actorEmail: '=cmd|calc!A1',
      action: 'user.create',
      departmentSlug: null,
      target: 'con "comillas"; y\nsalto',
      ip: null,
      details: '{"role":"staff"}',
    });
  });

  it('filters by person (who acted or whom it concerned), action or family, department and Caracas dates', async () => {
    const june = 'from=2025-06-01&to=2025-06-30';
    expect(actions(await audit('person=ANA@'))).toEqual(['user.disable', 'photo.upload', 'record.vote']);
    expect(actions(await audit('action=record.vote'))).toEqual(['record.vote', 'record.vote']);
    expect(actions(await audit(`action=user*&${june}`))).toEqual(['user.create', 'user.disable']);
    expect(actions(await audit('department=cabimas'))).toEqual(['photo.upload', 'record.vote']);
    expect(actions(await audit(`from=2025-06-15&to=2025-06-15&${fixed}`))).toEqual(['record.vote', 'photo.upload']);
    expect(actions(await audit('from=2025-06-14&to=2025-06-14'))).toEqual(['record.vote']);
    expect(actions(await audit('to=2025-06-14'))).toEqual(['user.create', 'record.vote']);
    expect(actions(await audit('from=2025-06-16&to=2025-06-16'))).toEqual(['user.disable']);
    // '_' is not a wildcard.
    expect((await audit('person=ana_example')).total).toBe(0);
  });

  it("filters 'Datos personales': a phone shown, the exports with names or phones, never the others", async () => {
    const [id] = await addRecords(t, 'cabimas', 2);
    const get = (url: string) => t.request({ url, headers: { cookie: admin } });
    const shown = await t.request({
      method: 'POST',
      url: `/api/admin/records/${id}/phone`,
      headers: { cookie: admin },
    });
    expect(shown.statusCode).toBe(200);
    expect((await get('/api/admin/records/export.csv?department=cabimas&status=todos')).statusCode).toBe(200);
    expect((await get('/api/results/validated.csv')).statusCode).toBe(200);
    expect((await get('/api/results/breakdown.csv')).statusCode).toBe(200);

    const page = await audit('action=personal_data');
    expect(page.items.map((i) => `${i.action} ${i.target}`)).toEqual([
      'results.download validated.csv',
      'records.export cabimas.csv',
      `record.phone_shown record:${id}`,
    ]);
    const exported = (await listAudit(t.db.kysely, { action: 'records.export' }))[0];
    expect(JSON.parse(exported?.details ?? '{}')).toEqual({
      status: 'todos',
      rows: 2,
      personalData: ['nombre', 'telefono'],
    });
    expect(exported?.actor_email).toBe('jefa@example.org');
  });

  it('pages fifty at a time', async () => {
    for (let i = 0; i < 60; i++) {
      await writeAudit(t.db.kysely, { actorEmail: 'lote@example.org', action: 'agenda.create', target: `evento:${i}` });
    }
    const first = await audit('action=agenda*');
    expect([first.total, first.items.length, first.items[0]?.target]).toEqual([60, 50, 'evento:59']);
    const second = await audit('action=agenda*&page=2');
    expect(second.items.map((i) => i.target)).toEqual(Array.from({ length: 10 }, (_, i) => `evento:${9 - i}`));
  });

  it('refuses bad filters in Spanish', async () => {
    for (const [query, message] of [
      ['from=22-11-2026', 'La fecha debe tener el formato AAAA-MM-DD.'],
      ['to=2026-02-30', 'La fecha debe tener el formato AAAA-MM-DD.'],
      ['from=2026-11-23&to=2026-11-22', 'La fecha inicial no puede ser posterior a la final.'],
      ['action=DROP TABLE', 'La acción no es válida.'],
    ]) {
      const res = await t.request({ url: `/api/admin/audit?${query}`, headers: { cookie: admin } });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toBe(message);
    }
  });
});

describe('GET /api/admin/audit.csv', () => {
  it('exports the filtered rows for Excel: BOM, escaped cells, no formulas; the export is audited', async () => {
    const res = await t.request({
      url: '/api/admin/audit.csv?to=2025-06-14&person=&action=',
      headers: { cookie: admin },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="auditoria-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const text = res.body.replace(/^\uFEFF/, '');
    expect(text.split('\r\n')[0]).toBe(
      'Fecha y hora (hora de Caracas, UTC-04:00);Persona;Acción;Descripción;Departamento;Objetivo;IP;Detalles',
    );
    expect(text).toContain('2025-06-14 23:59:59;ana@example.org;record.vote;Voto registrado;cabimas;Trámite 1;;\r\n');
    expect(text).toContain(
      `2025-06-13 08:00:00;'=cmd|calc!A1;user.create;Cuenta creada;;"Persona con ""comillas""; y\nsalto";;"{""role"":""staff""}"\r\n`,
    );
    expect(text.split('\r\n').filter(Boolean)).toHaveLength(3);
    const [exported] = await listAudit(t.db.kysely, { action: 'audit.export', limit: 1 });
    expect(exported).toMatchObject({ actor_email: 'jefa@example.org', ip: '127.0.0.1' });
    expect(JSON.parse(exported?.details ?? '{}')).toEqual({ to: '2025-06-14' });
  });

  it('streams a long log completely', async () => {
    const rows = Array.from({ length: 4500 }, (_, i) => ({
      at: new Date(Date.UTC(2025, 0, 1, 12, 0, i)).toISOString(),
      actor_email: 'masivo@example.org',
      action: 'record.vote',
      department_slug: 'baralt',
      target: `record:${i}`,
      ip: null,
      details: null,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await t.db.kysely
        .insertInto('audit_log')
        .values(rows.slice(i, i + 500))
        .execute();
    const res = await t.request({ url: '/api/admin/audit.csv?department=baralt', headers: { cookie: admin } });
    const lines = res.body.split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(4501);
    expect(lines[1]).toContain('Trámite 4499');
    expect(lines.at(-1)).toContain('Trámite 0;');
  });
});
