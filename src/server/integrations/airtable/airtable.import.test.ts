import { afterEach, describe, expect, it } from 'vitest';
import { createRecordsRepository } from '#server/core/records/records.repository';
import { createVoteWriter } from '#server/features/records/records.service';
import { createRecordsAdminService } from '#server/features/records-admin/records-admin.service';
import { checkTotals } from '#server/features/results/results.service';
import { listAudit } from '#server/platform/audit/audit.repository';
import { createImagePipeline } from '#server/platform/images/image-pipeline';
import { createPhotoStorage, uploadTempDir } from '#server/platform/storage/create-photo-storage';
import { fixture } from '#server/testing/photos';
import { createTestApp, setElectionPhase, type TestApp } from '#server/testing/test-app';
import { PHOTO_MAX_BYTES_SETTING } from '#shared/features/photos/photos';
import { dateInTimeZone } from '#shared/platform/format';
import {
  type AirtableContractServer,
  airtableId,
  type FakeAirtableRecord,
  makeAirtableAgenda,
  makeAirtableRecords,
  startAirtableContractServer,
} from '#tests/support/airtable-contract-server';
import { createAirtableClient } from './airtable.client';
import { importFromAirtable } from './airtable.import';
import type { AirtableImportReport } from './airtable.import-report';
import { createRateLimiter, type RateLimiter } from './airtable.rate-limit';

let s: AirtableContractServer | undefined;
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  await s?.close();
  t = undefined;
  s = undefined;
});

const row = (id: string, fields: Record<string, unknown>): FakeAirtableRecord => ({
  id,
  createdTime: '2026-11-01T12:00:00.000Z',
  fields: { Comunidades: 'La Rosa', UBCH: 'UBCH 7', Telefono: '0414-1234567', status: 'pendiente', ...fields },
});

async function setup(
  tables: { Zulia: FakeAirtableRecord[]; agenda: FakeAirtableRecord[] },
  options: { now?: () => number } = {},
) {
  s = await startAirtableContractServer({ tables, ...options });
  t = await createTestApp();
  return { s, t };
}

function runImport(
  server: AirtableContractServer,
  app: TestApp,
  options: { recordsFormula?: string; limiter?: RateLimiter } = {},
) {
  const { limiter, ...rest } = options;
  return importFromAirtable({
    db: app.db.kysely,
    dialect: app.db.dialect,
    client: createAirtableClient({ token: server.token, baseId: server.baseId, apiUrl: server.url, limiter }),
    tables: { records: 'Zulia', agenda: 'agenda' },
    storage: createPhotoStorage(app.config),
    images: createImagePipeline(),
    tempDir: uploadTempDir(app.config.dataDir),
    now: () => new Date(),
    actor: 'cli:pruebas',
    ...rest,
  });
}

async function recordBySource(app: TestApp, recId: string) {
  return app.db.kysely
    .selectFrom('records')
    .innerJoin('departments', 'departments.id', 'records.department_id')
    .selectAll('records')
    .select('departments.slug')
    .where('source_id', '=', `airtable:${recId}`)
    .executeTakeFirst();
}

const reasons = (report: AirtableImportReport) =>
  Object.fromEntries(
    [...report.records.skipped, ...report.agenda.skipped, ...report.warnings].map((n) => [n.airtableId, n.reason]),
  );

async function expectCountersRight(app: TestApp) {
  expect((await checkTotals(app.db.kysely)).differences).toEqual([]);
}

describe('airtable:import', () => {
  it('imports records and agenda, with their votes and photo links, and skips bad rows with the reason', async () => {
    const { s, t } = await setup({ Zulia: [], agenda: [] });
    const jpeg = fixture('ballot.jpg');
    const photoA = s.addFile('gobernador-b.jpg', jpeg);
    const photoB = s.addFile('an-b.jpg', jpeg);
    const notImage = s.addFile('clez-b.jpg', fixture('not-an-image.jpg'), 'image/jpeg');
    s.setTable('Zulia', [
      row('recAAAAAAAAAAAAAA', { Nombre: 'Ana Pérez', rephrase: 'cabimas', voto: 'FA' }),
      row('recBBBBBBBBBBBBBB', {
        Nombre: 'Beto Ruiz',
        rephrase: 'lagunillas',
        voto: 'LC, nr',
        gobernador: photoA,
        an: [{ url: photoB, filename: 'an.jpg' }],
        clez: notImage,
      }),
      row('recCCCCCCCCCCCCCC', { Nombre: 'Carla', rephrase: 'Cabimas' }),
      row('recDDDDDDDDDDDDDD', { Nombre: 'Dora', rephrase: 'atlantida' }),
      row('recEEEEEEEEEEEEEE', { Nombre: 'Elsa', rephrase: 'cabimas', Telefono: '123' }),
      row('recFFFFFFFFFFFFFF', { Nombre: 'Fito', rephrase: 'cabimas', status: 'completado' }),
      row('recGGGGGGGGGGGGGG', { rephrase: 'cabimas' }),
      row('recHHHHHHHHHHHHHH', { Nombre: 'Hugo', rephrase: 'mara', voto: 'XX' }),
      row('recIIIIIIIIIIIIII', { Nombre: 'Inés', rephrase: 'Machiques de Perijá' }),
      row('recJJJJJJJJJJJJJJ', { Nombre: 'Juan', rephrase: 'cabimas', Telefono: 4146123456 }),
    ]);
    s.setTable('agenda', [
      row('recAG1AAAAAAAAAAA', { fecha: '2026-11-23', hora_24h: '18:30', descripcion: 'Caravana', lugar: 'Plaza' }),
      row('recAG2AAAAAAAAAAA', { fecha: '2026-11-23', hora_24h: '7:05', descripcion: 'Desayuno' }),
      row('recAG3AAAAAAAAAAA', { fecha: '2026-02-30', descripcion: 'Imposible' }),
      row('recAG4AAAAAAAAAAA', { fecha: '2026-11-24', hora_24h: '25:00', descripcion: 'Tarde' }),
      row('recAG5AAAAAAAAAAA', { fecha: '2026-11-24' }),
    ]);

    const report = await runImport(s, t);
    expect(report.records).toMatchObject({ read: 10, created: 6, updated: 0, unchanged: 0, votes: 2, photos: 2 });
    expect(report.records.skipped).toHaveLength(4);
    expect(report.agenda).toMatchObject({ read: 5, created: 3, updated: 0, unchanged: 0 });
    expect(reasons(report)).toEqual({
      recDDDDDDDDDDDDDD: 'municipio desconocido: rephrase «atlantida»',
      recEEEEEEEEEEEEEE: 'Telefono: El teléfono debe tener entre 7 y 15 dígitos.',
      recFFFFFFFFFFFFFF: 'status «completado»: solo se importan los trámites pendientes',
      recGGGGGGGGGGGGGG: 'Nombre: Escribe el nombre.',
      recBBBBBBBBBBBBBB: 'foto clez: no es una foto JPG, JPEG o HEIC',
      recHHHHHHHHHHHHHH: expect.stringMatching(/^voto XX: /),
      recAG3AAAAAAAAAAA: 'fecha «2026-02-30»: La fecha debe ser un día válido con el formato AAAA-MM-DD.',
      recAG4AAAAAAAAAAA:
        'hora_24h «25:00»: La hora debe estar en formato de 24 horas HH:MM, por ejemplo 07:30 o 18:45.',
    });

    // Votes arrived as votes: the ballot rows and every counter moved as a vote in Comando moves them.
    const ana = await recordBySource(t, 'recAAAAAAAAAAAAAA');
    expect(ana).toMatchObject({ slug: 'cabimas', nombre: 'Ana Pérez', vote_codes: 'FA', voted_by: 'airtable:import' });
    const beto = await recordBySource(t, 'recBBBBBBBBBBBBBB');
    expect(beto).toMatchObject({ slug: 'lagunillas', vote_codes: 'LC,NR', clez_photo_id: null });
    expect(beto?.gobernador_photo_id).not.toBeNull();
    expect(beto?.an_photo_id).not.toBeNull();
    expect(await recordBySource(t, 'recCCCCCCCCCCCCCC')).toMatchObject({ slug: 'cabimas', voted_at: null });
    expect(await recordBySource(t, 'recIIIIIIIIIIIIII')).toMatchObject({ slug: 'machiques-de-perija' });
    expect(await recordBySource(t, 'recJJJJJJJJJJJJJJ')).toMatchObject({ telefono: '4146123456' });
    expect(await recordBySource(t, 'recHHHHHHHHHHHHHH')).toMatchObject({ slug: 'mara', voted_at: null });
    await expectCountersRight(t);
    const repo = createRecordsRepository(t.db.kysely);
    const cabimas = (await repo.listMunicipalities()).find((d) => d.slug === 'cabimas');
    expect(await repo.summary(cabimas?.id as number)).toEqual({ total: 3, voted: 1, validated: 0 });

    // Photos went through the upload path: checked, converted and stored, with their sha256.
    const photos = await t.db.kysely
      .selectFrom('photos')
      .selectAll()
      .where('record_id', '=', beto?.id as number)
      .execute();
    expect(photos.map((p) => p.kind).sort()).toEqual(['an', 'gobernador']);
    const storage = createPhotoStorage(t.config);
    for (const p of photos) {
      expect(p).toMatchObject({ uploaded_by: 'airtable:import', content_type: 'image/jpeg', size_bytes: jpeg.length });
      expect(await storage.exists(p.display_key)).toBe(true);
      expect(await storage.exists(p.thumb_key)).toBe(true);
    }

    const events = await t.db.kysely
      .selectFrom('agenda_events')
      .select(['source_id', 'fecha', 'hora_24h', 'descripcion', 'lugar'])
      .orderBy('source_id')
      .execute();
    expect(events).toEqual([
      {
        source_id: 'airtable:recAG1AAAAAAAAAAA',
        fecha: '2026-11-23',
        hora_24h: '18:30',
        descripcion: 'Caravana',
        lugar: 'Plaza',
      },
      {
        source_id: 'airtable:recAG2AAAAAAAAAAA',
        fecha: '2026-11-23',
        hora_24h: '07:05',
        descripcion: 'Desayuno',
        lugar: null,
      },
      { source_id: 'airtable:recAG5AAAAAAAAAAA', fecha: '2026-11-24', hora_24h: null, descripcion: null, lugar: null },
    ]);
    const [audit] = await listAudit(t.db.kysely, { action: 'airtable.import' });
    expect(audit).toMatchObject({ actor_email: 'cli:pruebas', target: `airtable:${s.baseId}` });
    expect(JSON.parse(audit?.details ?? '{}').records).toMatchObject({ created: 6, votes: 2, photos: 2, skipped: 4 });

    // A second run finds everything in place: nothing created, nothing updated, nothing downloaded again.
    const downloads = s.fileRequests.length;
    const again = await runImport(s, t);
    expect(again.records).toMatchObject({ read: 10, created: 0, updated: 0, unchanged: 6, votes: 0, photos: 0 });
    expect(again.agenda).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
    expect(s.fileRequests.length - downloads).toBe(1); // only the link that was not a photo, tried again
    expect(
      await t.db.kysely
        .selectFrom('records')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst(),
    ).toEqual({
      n: 6,
    });
    await expectCountersRight(t);
  });

  it('updates what changed in Airtable, but never a vote or photo Comando already has', async () => {
    const { s, t } = await setup({
      Zulia: [
        row('recAAAAAAAAAAAAAA', { Nombre: 'Ana', rephrase: 'cabimas', voto: 'FA' }),
        row('recCCCCCCCCCCCCCC', { Nombre: 'Carla', rephrase: 'cabimas' }),
        row('recHHHHHHHHHHHHHH', { Nombre: 'Hugo', rephrase: 'mara', voto: 'XX' }),
        row('recJJJJJJJJJJJJJJ', { Nombre: 'Juan', rephrase: 'cabimas' }),
      ],
      agenda: [row('recAG1AAAAAAAAAAA', { fecha: '2026-11-23', hora_24h: '18:30', descripcion: 'Caravana' })],
    });
    await runImport(s, t);

    // A validator votes for Carla in Comando.
    const carla = await recordBySource(t, 'recCCCCCCCCCCCCCC');
    await createVoteWriter(t.db.kysely, t.db.dialect).cast({
      department: { id: carla?.department_id as number, slug: 'cabimas' },
      recordId: carla?.id as number,
      codes: ['FA', 'LC'],
      user: { id: 1, email: 'validadora@example.org', role: 'staff' },
      ip: null,
      now: new Date(),
    });

    // Meanwhile, in Airtable.
    const zulia = s.table('Zulia');
    const fieldsOf = (id: string) => zulia.find((r) => r.id === id)?.fields as Record<string, unknown>;
    Object.assign(fieldsOf('recAAAAAAAAAAAAAA'), { Nombre: 'Ana María', rephrase: 'mara' });
    Object.assign(fieldsOf('recCCCCCCCCCCCCCC'), { voto: 'NR' });
    Object.assign(fieldsOf('recHHHHHHHHHHHHHH'), { voto: 'LC' });
    Object.assign(fieldsOf('recJJJJJJJJJJJJJJ'), { rephrase: 'mara' });
    zulia.push(row('recKKKKKKKKKKKKKK', { Nombre: 'Kelly', rephrase: 'mara', voto: 'NR' }));
    Object.assign(s.table('agenda')[0]?.fields ?? {}, { lugar: 'Estadio' });

    const report = await runImport(s, t);
    expect(report.records).toMatchObject({ read: 5, created: 1, updated: 3, unchanged: 1, votes: 2 });
    expect(report.agenda).toMatchObject({ created: 0, updated: 1 });
    expect(reasons(report)).toEqual({
      recAAAAAAAAAAAAAA: 'ya tiene voto en Comando: sigue en cabimas (su voto cuenta allí)',
    });
    // Ana: renamed, but voted, so she stays where her vote counts. Juan (unvoted) moved to Mara.
    expect(await recordBySource(t, 'recAAAAAAAAAAAAAA')).toMatchObject({ nombre: 'Ana María', slug: 'cabimas' });
    expect(await recordBySource(t, 'recJJJJJJJJJJJJJJ')).toMatchObject({ slug: 'mara' });
    // Carla keeps the vote made in Comando; Hugo's vote arrives now that its code is valid.
    expect(await recordBySource(t, 'recCCCCCCCCCCCCCC')).toMatchObject({ vote_codes: 'FA,LC' });
    expect(await recordBySource(t, 'recHHHHHHHHHHHHHH')).toMatchObject({
      vote_codes: 'LC',
      voted_by: 'airtable:import',
    });
    expect(await recordBySource(t, 'recKKKKKKKKKKKKKK')).toMatchObject({ vote_codes: 'NR', slug: 'mara' });
    await expectCountersRight(t);
    const repo = createRecordsRepository(t.db.kysely);
    const ids = new Map((await repo.listMunicipalities()).map((d) => [d.slug, d.id]));
    expect(await repo.summary(ids.get('cabimas') as number)).toEqual({ total: 2, voted: 2, validated: 0 });
    expect(await repo.summary(ids.get('mara') as number)).toEqual({ total: 3, voted: 2, validated: 0 });

    const again = await runImport(s, t);
    expect(again.records).toMatchObject({ created: 0, updated: 0, unchanged: 5, votes: 0 });
    expect(again.agenda).toMatchObject({ created: 0, updated: 0 });
  });

  it('leaves photo links that are too large, missing or not links as warnings, and fills the slot on a later run', async () => {
    const { s, t } = await setup({ Zulia: [], agenda: [] });
    await t.db.kysely
      .insertInto('settings')
      .values({ key: PHOTO_MAX_BYTES_SETTING, value: String(1024 * 1024), updated_at: new Date().toISOString() })
      .execute();
    const jpeg = fixture('ballot.jpg');
    const big = Buffer.concat([jpeg.subarray(0, 4), Buffer.alloc(1024 * 1024 + 10)]);
    s.setTable('Zulia', [
      row('recAAAAAAAAAAAAAA', {
        Nombre: 'Ana',
        rephrase: 'cabimas',
        gobernador: s.addFile('grande.jpg', big),
        an: `${s.url}/files/no-existe.jpg`,
        clez: 'javascript:alert(1)',
      }),
      row('recBBBBBBBBBBBBBB', {
        Nombre: 'Beto',
        rephrase: 'cabimas',
        gobernador: s.addFile('heic.heic', fixture('ballot.heic'), 'image/heic'),
      }),
    ]);
    const first = await runImport(s, t);
    expect(first.records).toMatchObject({ created: 2, photos: 1 });
    expect(reasons(first)).toEqual({ recAAAAAAAAAAAAAA: expect.any(String) });
    expect(first.warnings.map((w) => w.reason).sort()).toEqual([
      'foto an: el enlace respondió 404',
      'foto clez: «javascript:alert(1)» no es un enlace web',
      'foto gobernador: pesa más de 1 MB',
    ]);
    expect(await recordBySource(t, 'recBBBBBBBBBBBBBB')).toMatchObject({ gobernador_photo_id: expect.any(Number) });

    // The missing photo appears at its link: the next run fills the empty slot, and only that one.
    s.addFile('no-existe.jpg', jpeg);
    const second = await runImport(s, t);
    expect(second.records).toMatchObject({ created: 0, updated: 1, photos: 1 });
    const ana = await recordBySource(t, 'recAAAAAAAAAAAAAA');
    expect(ana?.an_photo_id).not.toBeNull();
    expect(ana?.gobernador_photo_id).toBeNull();
    await expectCountersRight(t);
  });

  it('leaves a record voided in Comando alone, and shows imported events on the public agenda at once', async () => {
    const today = dateInTimeZone(new Date());
    const { s, t } = await setup({
      Zulia: [row('recAAAAAAAAAAAAAA', { Nombre: 'Ana', rephrase: 'cabimas' })],
      agenda: [],
    });
    expect((await t.app.inject({ url: '/api/agenda/today' })).json().events).toEqual([]);
    await runImport(s, t);
    const ana = await recordBySource(t, 'recAAAAAAAAAAAAAA');
    await createRecordsAdminService(t.db.kysely, () => new Date()).void(
      ana?.id as number,
      { reason: 'duplicado', voteCounts: false },
      {
        email: 'jefa@example.org',
        ip: null,
      },
    );
    Object.assign(s.table('Zulia')[0]?.fields ?? {}, { Nombre: 'Ana María', voto: 'FA' });
    s.setTable('agenda', [
      row('recAG1AAAAAAAAAAA', { fecha: today, hora_24h: '10:00', descripcion: 'Rueda de prensa' }),
    ]);

    const report = await runImport(s, t);
    expect(report.records).toMatchObject({ created: 0, updated: 0, unchanged: 1, votes: 0 });
    expect(await recordBySource(t, 'recAAAAAAAAAAAAAA')).toMatchObject({
      nombre: 'Ana',
      status: 'anulado',
      voted_at: null,
    });
    await expectCountersRight(t);
    // The public agenda's short cache forgets the day as soon as the import wrote it.
    expect((await t.app.inject({ url: '/api/agenda/today' })).json().events).toMatchObject([
      { fecha: today, hora24h: '10:00', descripcion: 'Rueda de prensa' },
    ]);
  });

  it('obeys the day’s phases as the CSV import does: refused during the drill and after the close', async () => {
    const { s, t } = await setup({ Zulia: makeAirtableRecords(8), agenda: makeAirtableAgenda(1) });
    const records = () => t.db.kysely.selectFrom('records').select('id').execute();
    await setElectionPhase(t.db, 'simulacro', new Date());
    await expect(runImport(s, t)).rejects.toThrow('Durante el simulacro no se corrigen, anulan ni importan registros.');
    await setElectionPhase(t.db, 'cerrada', new Date());
    await expect(runImport(s, t)).rejects.toThrow(
      /^La jornada cerró a (la 1|las \d{1,2}):\d{2}\s[ap]\.\s?m\. Para cambiar registros, reábrela/,
    );
    expect(await records()).toEqual([]);
    expect(s.requests).toEqual([]);
    // Each write checks again in its own transaction: a close that comes while Airtable is read stops it.
    await setElectionPhase(t.db, 'en_curso', new Date());
    const admin = createRecordsAdminService(t.db.kysely, () => new Date());
    await setElectionPhase(t.db, 'cerrada', new Date());
    await expect(
      admin.insertFromSource([
        { departmentId: 1, nombre: 'Ana Pérez', telefono: '04141234567', comunidad: 'La Rosa', ubch: 'UBCH 7' },
      ]),
    ).rejects.toThrow(/^La jornada cerró/);
    expect(await records()).toEqual([]);
  });

  it('reads only the records a formula keeps', async () => {
    const { s, t } = await setup({ Zulia: makeAirtableRecords(40), agenda: makeAirtableAgenda(3) });
    const report = await runImport(s, t, { recordsFormula: "{rephrase} = 'mara'" });
    expect(report.records).toMatchObject({ read: 10, created: 10 });
    const url = new URL(s.requests[0]?.url ?? '', s.url);
    expect(url.searchParams.get('filterByFormula')).toBe("{rephrase} = 'mara'");
  });

  it('changes nothing when Airtable fails while the tables are read', async () => {
    const { s, t } = await setup({ Zulia: makeAirtableRecords(250), agenda: makeAirtableAgenda(3) });
    s.script(['ok', 'ok']);
    s.mode = 'error';
    await expect(
      importFromAirtable({
        db: t.db.kysely,
        dialect: t.db.dialect,
        client: createAirtableClient({
          token: s.token,
          baseId: s.baseId,
          apiUrl: s.url,
          attempts: 2,
          sleep: async () => {},
        }),
        tables: { records: 'Zulia', agenda: 'agenda' },
        storage: createPhotoStorage(t.config),
        images: createImagePipeline(),
        tempDir: uploadTempDir(t.config.dataDir),
        now: () => new Date(),
        actor: 'cli:pruebas',
      }),
    ).rejects.toMatchObject({ name: 'AirtableError', kind: 'unavailable' });
    expect(await t.db.kysely.selectFrom('records').select('id').execute()).toEqual([]);
  });
});

describe('airtable:import of a large base', () => {
  it('imports 2,000 records within 5 requests per second, and a second run changes nothing', async () => {
    const records = makeAirtableRecords(2_000, { votedEvery: 7 });
    // The rate limiter and the stand-in share a clock that moves only when the limiter waits: the 42
    // requests are paced as in real time (5 a second), without taking 9 s of it. The limiter against
    // the stand-in in real time: airtable.client.test.ts.
    const clock = { ms: 0 };
    const now = () => clock.ms;
    const limiter = createRateLimiter({
      now,
      sleep: async (ms) => {
        clock.ms += ms;
      },
    });
    const { s, t } = await setup({ Zulia: records, agenda: makeAirtableAgenda(30) }, { now });
    const voted = records.filter((r) => r.fields.voto).length;

    const first = await runImport(s, t, { limiter });
    expect(first.records).toMatchObject({ read: 2_000, created: 2_000, updated: 0, votes: voted });
    expect(first.records.skipped).toEqual([]);
    expect(first.agenda).toMatchObject({ read: 30, created: 30 });
    expect(s.requests).toHaveLength(21);

    const second = await runImport(s, t, { limiter });
    expect(second.records).toMatchObject({ created: 0, updated: 0, unchanged: 2_000, votes: 0, photos: 0 });
    expect(second.agenda).toMatchObject({ created: 0, updated: 0, unchanged: 30 });

    expect(s.requests).toHaveLength(42);
    expect(s.requests.filter((r) => r.status !== 200)).toEqual([]);
    expect(s.maxRequestsInWindow(1_000)).toBeLessThanOrEqual(5);
    // Paced, not merely few: 42 requests at 5 a second span at least (42 - 5) / 5 s of the shared clock.
    expect(clock.ms).toBeGreaterThanOrEqual(7_400);
    expect(await recordBySource(t, airtableId(2_000))).toMatchObject({ nombre: 'Persona 2000' });
    await expectCountersRight(t);
  });
});
