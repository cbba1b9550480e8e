import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '#server/cli';
import { listAudit } from '#server/platform/audit/audit.repository';
import { addStoredPhoto, photoFilesUnder } from '#server/testing/photos';
import { addRecords, castVote, PEOPLE, SLUG_A, SLUG_B, signInPeople } from '#server/testing/records';
import { createTestApp, setElectionPhase, type TestApp } from '#server/testing/test-app';
import { initialsOf, PURGE_BEFORE_CLOSE } from './records-purge.service';

let t: TestApp;
afterEach(async () => t?.close());

/** People whose names and phones must be gone from every table after the purge. */
const PEOPLE_IN_LISTS = [
  { nombre: 'Yusmary Chourio Fuenmayor', telefono: '0414-6123457' },
  { nombre: 'Wilmer Atencio Ocando', telefono: '+58 424 618 90 12' },
  { nombre: 'Dixon Bracho Ferrebus', telefono: '(0261) 743.55.81' },
];
const NEW_BY_HAND = { nombre: 'Nairobis Paz Chirinos', telefono: '0416-6630044', comunidad: 'Sector 18 de Octubre' };

/** What must not be found: each name, each word of it, each phone as typed and as digits. */
const secrets = [...PEOPLE_IN_LISTS, NEW_BY_HAND].flatMap((p) => [
  p.nombre,
  ...p.nombre.split(' '),
  p.telefono,
  p.telefono.replace(/\D/g, ''),
  p.telefono.replace(/\D/g, '').slice(-7),
]);

const found = (dump: string) => secrets.filter((s) => dump.includes(s));

/** Every row of every table, as text: what a backup of the database would hold. */
async function dumpDatabase(): Promise<string> {
  const tables = await t.db.kysely.introspection.getTables();
  expect(tables.length).toBeGreaterThan(20);
  const parts: string[] = [];
  for (const table of tables) {
    const rows = await t.db.kysely
      .selectFrom(table.name as 'records')
      .selectAll()
      .execute();
    parts.push(`${table.name}: ${JSON.stringify(rows)}`);
  }
  return parts.join('\n');
}

async function setup() {
  t = await createTestApp();
  const cookies = await signInPeople(t);
  const ids = await addRecords(t, SLUG_A, [...PEOPLE_IN_LISTS.slice(0, 2), {}, {}]);
  await addRecords(t, SLUG_B, [PEOPLE_IN_LISTS[2] as (typeof PEOPLE_IN_LISTS)[number], {}]);
  const created = await t.request({
    method: 'POST',
    url: '/api/admin/records',
    headers: { cookie: cookies.admin },
    payload: { department: SLUG_A, ubch: '', ...NEW_BY_HAND },
  });
  expect(created.statusCode, created.body).toBe(201);
  // A vote with an Idempotency-Key: its answer (which names the person) is kept for the phone's retries.
  const voted = await t.request({
    method: 'POST',
    url: `/api/validation/${SLUG_A}/records/${ids[0]}/vote`,
    headers: { cookie: cookies.validatorA, 'idempotency-key': '6f1d8a3e-2b4c-4d5e-9f60-718293a4b5c6' },
    payload: { candidates: ['FA'] },
  });
  expect(voted.statusCode, voted.body).toBe(201);
  await castVote(t, ids[1] as number, [], PEOPLE.validatorA);
  // An SMS vote's answer names the person ('Registrado: Yusmary F., Cabimas: FA'), kept for Mensajes.
  await t.db.kysely
    .insertInto('sms_messages')
    .values({
      direction: 'out',
      phone: '+584141234567',
      user_email: PEOPLE.validatorA,
      department_id: null,
      record_id: ids[0] as number,
      body: 'Registrado: Yusmary F., Cabimas: FA',
      outcome: 'enviado',
      reason: null,
      reply_to: null,
      dedupe_key: null,
      gateway_id: null,
      phone_time: null,
      created_at: new Date().toISOString(),
    })
    .execute();
  await addStoredPhoto(t, ids[0] as number, 'gobernador');
  const shown = await t.request({
    method: 'POST',
    url: `/api/admin/records/${ids[1]}/phone`,
    headers: { cookie: cookies.admin },
  });
  expect(shown.json().telefono).toBe(PEOPLE_IN_LISTS[1]?.telefono);
  return cookies;
}

/** The day's close: only then may the personal data go. */
async function closeTheDay() {
  await setElectionPhase(t.db, 'cerrada', new Date());
}

const results = async (cookie: string) => {
  const res = await t.request({ url: '/api/results', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  const { computedAt: _, ...rest } = res.json() as Record<string, unknown>;
  return rest;
};
const summaries = async (cookies: Record<string, string>) => [
  (await t.request({ url: `/api/validation/${SLUG_A}/summary`, headers: { cookie: cookies.validatorA } })).json(),
  (await t.request({ url: `/api/validation/${SLUG_B}/summary`, headers: { cookie: cookies.validatorB } })).json(),
];

describe("'Borrar datos personales'", () => {
  it('makes initials of names', () => {
    expect(initialsOf('María José  Pérez')).toBe('M. J. P.');
    expect(initialsOf('M. J. P.')).toBe('M. J. P.');
    expect(initialsOf('ñandú 2do')).toBe('Ñ. 2.');
    expect(initialsOf('')).toBe('');
  });

  it('leaves no name or phone in any table, the counts and results as they were, the photos removed', async () => {
    const cookies = await setup();
    // The test would find them: before the purge, every one of them is there.
    expect(found(await dumpDatabase())).toEqual(secrets);
    const resultsBefore = await results(cookies.admin);
    const summariesBefore = await summaries(cookies);
    expect(photoFilesUnder(t.config.dataDir).length).toBe(3);

    // While the day is under way, votes may still come: nothing is purged.
    const early = await t.request({
      method: 'POST',
      url: '/api/admin/records/purge',
      headers: { cookie: cookies.admin },
      payload: { photos: 'remove', confirm: 'BORRAR DATOS PERSONALES' },
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(PURGE_BEFORE_CLOSE);
    expect(found(await dumpDatabase())).toEqual(secrets);

    await closeTheDay();
    const once = await t.request({
      method: 'POST',
      url: '/api/admin/records/purge',
      headers: { cookie: cookies.admin },
      payload: { photos: 'remove', confirm: 'borrar' },
    });
    expect(once.statusCode).toBe(400);
    expect(once.json().message).toBe('Escribe BORRAR DATOS PERSONALES para confirmar.');
    const purged = await t.request({
      method: 'POST',
      url: '/api/admin/records/purge',
      headers: { cookie: cookies.admin },
      payload: { photos: 'remove', confirm: 'BORRAR DATOS PERSONALES' },
    });
    expect(purged.statusCode, purged.body).toBe(200);
    expect(purged.json()).toEqual({
      records: 7,
      photoFiles: 3,
      photoFilesRemoved: 3,
      sharedLinks: 0,
      sharedLinksLeft: 0,
      databaseRewritten: true,
    });

    expect(found(await dumpDatabase())).toEqual([]);
    expect(await results(cookies.admin)).toEqual(resultsBefore);
    expect(await summaries(cookies)).toEqual(summariesBefore);
    expect(photoFilesUnder(t.config.dataDir)).toEqual([]);
    const list = await t.request({ url: `/api/validation/${SLUG_A}/records`, headers: { cookie: cookies.validatorA } });
    expect(JSON.stringify(list.json())).toContain('N. P. C.');
    const [row] = await listAudit(t.db.kysely, { action: 'records.purge' });
    expect(row?.actor_email).toBe(PEOPLE.admin);
    expect(JSON.parse(row?.details ?? '{}')).toMatchObject({
      records: 7,
      photos: 'remove',
      photoFiles: 3,
      smsMessages: 1,
    });
  });

  it('is for admins only', async () => {
    const cookies = await setup();
    const res = await t.request({
      method: 'POST',
      url: '/api/admin/records/purge',
      headers: { cookie: cookies.validatorA },
      payload: { photos: 'keep', confirm: 'BORRAR DATOS PERSONALES' },
    });
    expect(res.statusCode).toBe(404);
  });

  it('the command line does the same, keeping the photos, and asks for --confirmar', async () => {
    const cookies = await setup();
    const resultsBefore = await results(cookies.admin);
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l), readPassword: async () => '' };
    expect(await runCli(['records:purge', '--conservar-fotos'], t.db.kysely, io)).toBe(2);
    expect(found(await dumpDatabase()).length).toBeGreaterThan(0);
    await closeTheDay();
    expect(await runCli(['records:purge', '--conservar-fotos', '--confirmar'], t.db.kysely, io)).toBe(0);
    expect(lines.at(-1)).toBe('Datos personales borrados de 7 trámites; las fotos se conservan.');
    expect(found(await dumpDatabase())).toEqual([]);
    expect(photoFilesUnder(t.config.dataDir).length).toBe(3);
    expect(await results(cookies.admin)).toEqual(resultsBefore);
  });
});
