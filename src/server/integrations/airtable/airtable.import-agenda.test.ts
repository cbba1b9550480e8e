import { afterEach, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import { createImagePipeline } from '#server/platform/images/image-pipeline';
import { createPhotoStorage, uploadTempDir } from '#server/platform/storage/create-photo-storage';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import {
  type AirtableContractServer,
  makeAirtableAgenda,
  startAirtableContractServer,
} from '#tests/support/airtable-contract-server';
import { createAirtableClient } from './airtable.client';
import { importFromAirtable } from './airtable.import';

let s: AirtableContractServer | undefined;
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  await s?.close();
  t = undefined;
  s = undefined;
});

const NOW = new Date('2026-11-22T19:00:00Z');

function runImport(server: AirtableContractServer, app: TestApp) {
  return importFromAirtable({
    db: app.db.kysely,
    dialect: app.db.dialect,
    client: createAirtableClient({ token: server.token, baseId: server.baseId, apiUrl: server.url }),
    tables: { records: 'Zulia', agenda: 'agenda' },
    storage: createPhotoStorage(app.config),
    images: createImagePipeline(),
    tempDir: uploadTempDir(app.config.dataDir),
    now: () => NOW,
    actor: 'cli:pruebas',
  });
}

/** The agenda's audit rows, oldest first, as the log shows them. */
async function agendaAudit(app: TestApp) {
  const rows = (await listAudit(app.db.kysely)).filter((r) => r.action.startsWith('agenda.')).reverse();
  return rows.map((r) => ({
    actor: r.actor_email,
    action: r.action,
    department: r.department_slug,
    target: r.target,
    details: JSON.parse(r.details ?? 'null'),
  }));
}

describe('airtable:import of the agenda', () => {
  it('writes one audit row per event it adds or changes, as the agenda editor writes them, and none when nothing changed', async () => {
    s = await startAirtableContractServer({ tables: { Zulia: [], agenda: makeAirtableAgenda(3) } });
    t = await createTestApp({ now: () => NOW });

    const first = await runImport(s, t);
    expect(first.agenda).toMatchObject({ created: 3, updated: 0 });
    const events = await t.db.kysely.selectFrom('agenda_events').select(['id', 'descripcion']).orderBy('id').execute();
    expect(events.map((e) => e.descripcion)).toEqual(['Evento 1', 'Evento 2', 'Evento 3']);
    const created = await agendaAudit(t);
    expect(created).toEqual(
      events.map((e, i) => ({
        actor: 'cli:pruebas',
        action: 'agenda.create',
        department: 'agenda',
        target: `agenda:${e.id}`,
        details: {
          fecha: `2026-11-${20 + i}`,
          hora24h: `${String(8 + i).padStart(2, '0')}:${i % 2 ? '30' : '00'}`,
          descripcion: `Evento ${i + 1}`,
          lugar: `Lugar ${i + 1}`,
        },
      })),
    );

    // The editor writes the same row for the same event.
    await createUser(t.db, { email: 'jefa@example.org', role: 'admin' });
    const cookie = await sessionCookie(t, 'jefa@example.org');
    const byHand = await t.request({
      method: 'POST',
      url: '/api/admin/agenda',
      headers: { cookie },
      payload: created[0]?.details,
    });
    expect(byHand.statusCode).toBe(201);
    const editorRow = (await agendaAudit(t)).at(-1);
    expect(editorRow).toEqual({ ...created[0], actor: 'jefa@example.org', target: `agenda:${byHand.json().event.id}` });
    await t.request({ method: 'DELETE', url: `/api/admin/agenda/${byHand.json().event.id}`, headers: { cookie } });
    const before = (await agendaAudit(t)).length;

    Object.assign(s.table('agenda')[1]?.fields ?? {}, { lugar: 'Estadio' });
    const second = await runImport(s, t);
    expect(second.agenda).toMatchObject({ created: 0, updated: 1, unchanged: 2 });
    const updated = (await agendaAudit(t)).slice(before);
    expect(updated).toEqual([
      {
        actor: 'cli:pruebas',
        action: 'agenda.update',
        department: 'agenda',
        target: `agenda:${events[1]?.id}`,
        details: { before: created[1]?.details, after: { ...created[1]?.details, lugar: 'Estadio' } },
      },
    ]);

    const third = await runImport(s, t);
    expect(third.agenda).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
    expect(await agendaAudit(t)).toHaveLength(before + 1);
  });
});
