import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { readCloseSnapshot } from '#server/core/election/election';
import { listAudit } from '#server/platform/audit/audit.repository';
import { fixture, uploadPhoto } from '#server/testing/photos';
import { addRecords, PEOPLE, SLUG_A, signInPeople } from '#server/testing/records';
import { importCsv, multipartFile } from '#server/testing/records-import-fixtures';
import { createTestApp, setElectionPhase, type TestApp } from '#server/testing/test-app';
import { createTusUpload } from '#server/testing/tus';
import type { ElectionPhase } from '#shared/features/election/election';
import { voteFingerprint } from '#shared/platform/era';

let t: TestApp;
afterEach(async () => t?.close());

// Noon in Caracas (UTC-4); the close at 6:00 p. m. there is 22:00 UTC.
const NOON = new Date('2026-11-28T16:00:00Z');
const CLOSE = new Date('2026-11-28T22:00:00Z');
let now = NOON;

async function setup(phase: ElectionPhase | null = 'en_curso') {
  now = NOON;
  t = await createTestApp({ now: () => now }, { electionPhase: phase });
  const cookies = await signInPeople(t);
  const ids = await addRecords(t, SLUG_A, 6);
  return { cookies, ids };
}

const vote = (cookie: string, id: number, key: string = randomUUID()) =>
  t.request({
    method: 'POST',
    url: `/api/validation/${SLUG_A}/records/${id}/vote`,
    headers: { cookie, 'idempotency-key': key },
    payload: { candidates: ['FA'] },
  });
const photo = (cookie: string, id: number) =>
  uploadPhoto(
    t,
    { slug: SLUG_A, recordId: id, kind: 'gobernador' },
    { data: fixture('ballot.jpg'), filename: 'b.jpg', contentType: 'image/jpeg' },
    cookie,
  );
const tus = (cookie: string, id: number) =>
  createTusUpload(t, cookie, { slug: SLUG_A, recordId: id, kind: 'an', size: 1000 });
const correct = (cookie: string, id: number) =>
  t.request({
    method: 'PUT',
    url: `/api/admin/records/${id}/vote`,
    headers: { cookie },
    payload: { candidates: ['LC'], reason: 'Corrección de prueba', voteRevision: 1 },
  });
const voidRecord = (cookie: string, id: number) =>
  t.request({
    method: 'POST',
    url: `/api/admin/records/${id}/void`,
    headers: { cookie },
    payload: { reason: 'Persona repetida' },
  });
function importRows(cookie: string) {
  const file = multipartFile(importCsv(2, { departments: ['cabimas'], start: 500 }));
  return t.request({
    method: 'POST',
    url: '/api/admin/records/import?mode=importar',
    headers: { cookie, ...file.headers },
    payload: file.payload,
  });
}
const phaseChange = (cookie: string, phase: ElectionPhase, reason = 'Empieza la jornada') =>
  t.request({ method: 'PUT', url: '/api/admin/election/phase', headers: { cookie }, payload: { phase, reason } });
const report = (cookie: string, keys: { key: string; recordId: number }[], deviceNow = now) =>
  t.request({
    method: 'POST',
    url: '/api/field/reports',
    headers: { cookie },
    payload: {
      deviceId: '5b0c3f4e-8a51-4f5e-9d7a-2f0e9c1b7a11',
      deviceNow: deviceNow.toISOString(),
      lastSuccessAt: null,
      lastError: null,
      items: keys.map(({ key, recordId }) => ({
        key,
        slug: SLUG_A,
        recordId,
        kind: 'vote',
        savedAt: deviceNow.toISOString(),
        // What the phone captured: the ballot `vote` sends.
        fingerprint: voteFingerprint(['FA']),
      })),
    },
  });

describe('the day’s phase decides every write', () => {
  it('starts a new database in Preparación, which refuses votes and photos (multipart and tus) and takes admin changes', async () => {
    const { cookies, ids } = await setup(null);
    const status = await t.request({ url: '/api/election', headers: { cookie: cookies.validatorA } });
    expect(status.json()).toMatchObject({ phase: 'preparacion', closedAt: null, lateArrivals: 0 });
    const preparing = 'La jornada está en preparación: todavía no se reciben votos ni fotos.';
    const v = await vote(cookies.validatorA, ids[0] as number);
    expect(v.statusCode).toBe(409);
    expect(v.json().message).toBe(preparing);
    const p = await photo(cookies.validatorA, ids[1] as number);
    expect(p.statusCode).toBe(409);
    expect(p.json().message).toBe(preparing);
    const u = await tus(cookies.validatorA, ids[1] as number);
    expect(u.status).toBe(409);
    expect(u.body).toContain(preparing);
    expect((await importRows(cookies.admin)).statusCode).toBe(201);
    expect((await voidRecord(cookies.admin, ids[2] as number)).statusCode).toBe(200);
  });

  it('takes every write En curso', async () => {
    const { cookies, ids } = await setup('en_curso');
    expect((await vote(cookies.validatorA, ids[0] as number)).statusCode).toBe(201);
    expect((await photo(cookies.validatorA, ids[1] as number)).statusCode).toBe(201);
    expect((await tus(cookies.validatorA, ids[2] as number)).status).toBe(201);
    expect((await correct(cookies.admin, ids[0] as number)).statusCode).toBe(200);
    expect((await voidRecord(cookies.admin, ids[3] as number)).statusCode).toBe(200);
    expect((await importRows(cookies.admin)).statusCode).toBe(201);
  });

  it('refuses corrections, voids and imports during the drill', async () => {
    const { cookies, ids } = await setup('en_curso');
    expect((await vote(cookies.validatorA, ids[0] as number)).statusCode).toBe(201);
    await setElectionPhase(t.db, 'simulacro', now);
    const drill = 'Durante el simulacro no se corrigen, anulan ni importan registros.';
    for (const res of [
      await correct(cookies.admin, ids[0] as number),
      await voidRecord(cookies.admin, ids[1] as number),
      await importRows(cookies.admin),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(drill);
    }
  });

  it('refuses every write once closed, saying when it closed', async () => {
    const { cookies, ids } = await setup('en_curso');
    expect((await vote(cookies.validatorA, ids[0] as number)).statusCode).toBe(201);
    await setElectionPhase(t.db, 'cerrada', now, { closedAt: CLOSE.toISOString() });
    now = new Date(CLOSE.getTime() + 60_000);
    const closed = 'La jornada cerró a las 6:00 p. m.';
    const v = await vote(cookies.validatorA, ids[1] as number);
    expect([v.statusCode, v.json().message]).toEqual([409, closed]);
    const p = await photo(cookies.validatorA, ids[1] as number);
    expect([p.statusCode, p.json().message]).toEqual([409, closed]);
    const u = await tus(cookies.validatorA, ids[2] as number);
    expect(u.status).toBe(409);
    expect(u.body).toContain(closed);
    for (const res of [
      await correct(cookies.admin, ids[0] as number),
      await voidRecord(cookies.admin, ids[3] as number),
      await importRows(cookies.admin),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(`${closed} Para cambiar registros, reábrela con un motivo.`);
    }
  });
});

describe('changing the phase in Jornada', () => {
  it('lets only admins change it, with a reason, audited with who, when and why', async () => {
    const { cookies, ids } = await setup(null);
    expect((await phaseChange(cookies.validatorA, 'en_curso')).statusCode).toBe(404);
    expect((await phaseChange(cookies.admin, 'en_curso', '')).statusCode).toBe(400);
    const res = await phaseChange(cookies.admin, 'en_curso', 'Abren los centros');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().phase).toBe('en_curso');
    expect((await vote(cookies.validatorA, ids[0] as number)).statusCode).toBe(201);
    const [row] = await listAudit(t.db.kysely, { action: 'election.phase' });
    expect(row).toMatchObject({ actor_email: PEOPLE.admin, at: NOON.toISOString(), target: 'election' });
    expect(JSON.parse(row?.details ?? '{}')).toEqual({
      from: 'preparacion',
      to: 'en_curso',
      reason: 'Abren los centros',
    });
    const admin = (await t.request({ url: '/api/admin/election', headers: { cookie: cookies.admin } })).json();
    expect(admin).toMatchObject({ phase: 'en_curso', changedBy: PEOPLE.admin, reason: 'Abren los centros' });
  });
});

describe('the close', () => {
  it('closes at the time set in advance (Caracas), on the server’s clock whatever the phone’s says', async () => {
    const { cookies, ids } = await setup('en_curso');
    const set = await t.request({
      method: 'PUT',
      url: '/api/admin/election/close',
      headers: { cookie: cookies.admin },
      payload: { closesAt: '2026-11-28T18:00', graceHours: 12, reason: 'Hora legal de cierre' },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ phase: 'en_curso', closesAt: CLOSE.toISOString() });
    now = new Date(CLOSE.getTime() - 1000);
    expect((await vote(cookies.validatorA, ids[0] as number)).statusCode).toBe(201);
    now = CLOSE;
    // A phone a day ahead reports its vote "before" nothing: the server heard of it after the close.
    const key = randomUUID();
    const tomorrow = new Date(now.getTime() + 24 * 3_600_000);
    expect((await report(cookies.validatorA, [{ key, recordId: ids[1] as number }], tomorrow)).statusCode).toBe(200);
    const late = await vote(cookies.validatorA, ids[1] as number, key);
    expect([late.statusCode, late.json().message]).toEqual([409, 'La jornada cerró a las 6:00 p. m.']);
    const status = (await t.request({ url: '/api/election', headers: { cookie: cookies.validatorA } })).json();
    expect(status).toMatchObject({ phase: 'cerrada', closedAt: CLOSE.toISOString() });
  });

  it('tells every page the server’s time with the close set in advance, and Jornada the ballots and photos a close would keep', async () => {
    const { cookies, ids } = await setup('en_curso');
    await t.request({
      method: 'PUT',
      url: '/api/admin/election/close',
      headers: { cookie: cookies.admin },
      payload: { closesAt: '2026-11-28T18:00', graceHours: 12, reason: 'Hora legal de cierre' },
    });
    expect((await vote(cookies.validatorA, ids[0] as number)).statusCode).toBe(201);
    expect((await vote(cookies.validatorA, ids[1] as number)).statusCode).toBe(201);
    expect((await photo(cookies.validatorA, ids[0] as number)).statusCode).toBe(201);
    now = new Date(CLOSE.getTime() - 25 * 60_000);
    const status = await t.request({ url: '/api/election', headers: { cookie: cookies.validatorA } });
    expect(status.json()).toEqual({
      phase: 'en_curso',
      closesAt: CLOSE.toISOString(),
      closedAt: null,
      lateArrivals: 0,
      now: now.toISOString(),
      // The database made for this test: its first epoch, restored from nothing.
      epoch: { number: 1, startedAt: expect.any(String), restoredUntil: null },
    });
    const admin = await t.request({ url: '/api/admin/election', headers: { cookie: cookies.admin } });
    expect(admin.json()).toMatchObject({ received: { votes: 2, photos: 1 }, now: now.toISOString() });
  });

  it('takes items a phone reported before the close within the grace, marked late, and refuses the rest', async () => {
    const { cookies, ids } = await setup('en_curso');
    const reported = randomUUID();
    const reportedToo = randomUUID();
    const unreported = randomUUID();
    const items = [
      { key: reported, recordId: ids[0] as number },
      { key: reportedToo, recordId: ids[2] as number },
    ];
    expect((await report(cookies.validatorA, items)).statusCode).toBe(200);
    const grace = await t.request({
      method: 'PUT',
      url: '/api/admin/election/close',
      headers: { cookie: cookies.admin },
      payload: { closesAt: null, graceHours: 3, reason: 'Tres horas para lo que esté en camino' },
    });
    expect(grace.statusCode, grace.body).toBe(200);
    now = new Date(NOON.getTime() + 60_000);
    const closing = await phaseChange(cookies.admin, 'cerrada', 'Cierre de mesas');
    expect(closing.json()).toMatchObject({ phase: 'cerrada', closedAt: now.toISOString() });
    const closedAt = now;
    now = new Date(closedAt.getTime() + 2 * 3_600_000);
    // Campo shows who still holds items the server heard of before the close.
    const held = async () =>
      (await t.request({ url: `/api/field/${SLUG_A}`, headers: { cookie: cookies.admin } }))
        .json()
        .validators.find((v: { email: string }) => v.email === PEOPLE.validatorA).heardBeforeClose;
    expect(await held()).toBe(2);

    const accepted = await vote(cookies.validatorA, ids[0] as number, reported);
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(await held()).toBe(1);
    const refused = await vote(cookies.validatorA, ids[1] as number, unreported);
    expect([refused.statusCode, refused.json().message]).toEqual([409, 'La jornada cerró a las 12:01 p. m.']);

    const status = (await t.request({ url: '/api/election', headers: { cookie: cookies.validatorA } })).json();
    expect(status.lateArrivals).toBe(1);
    const admin = (await t.request({ url: '/api/admin/election', headers: { cookie: cookies.admin } })).json();
    expect(admin.late).toEqual([
      {
        kind: 'vote',
        slug: SLUG_A,
        title: 'Cabimas',
        recordId: ids[0],
        record: 'Persona 1',
        by: PEOPLE.validatorA,
        at: now.toISOString(),
      },
    ]);
    const [row] = await listAudit(t.db.kysely, { action: 'record.vote' });
    expect(JSON.parse(row?.details ?? '{}')).toMatchObject({ late: true });

    // Past the grace, even a reported item is refused.
    now = new Date(closedAt.getTime() + 3 * 3_600_000);
    const tooLate = await vote(cookies.validatorA, ids[2] as number, reportedToo);
    expect([tooLate.statusCode, tooLate.json().message]).toEqual([409, 'La jornada cerró a las 12:01 p. m.']);
  });

  it('keeps the counts of a close set in advance, and counts what arrived late apart', async () => {
    const { cookies, ids } = await setup('en_curso');
    await t.request({
      method: 'PUT',
      url: '/api/admin/election/close',
      headers: { cookie: cookies.admin },
      payload: { closesAt: '2026-11-28T18:00', graceHours: 12, reason: 'Hora legal de cierre' },
    });
    expect((await vote(cookies.validatorA, ids[0] as number)).statusCode).toBe(201);
    expect((await vote(cookies.validatorA, ids[1] as number)).statusCode).toBe(201);
    const key = randomUUID();
    expect((await report(cookies.validatorA, [{ key, recordId: ids[2] as number }])).statusCode).toBe(200);
    // Nobody looks at the close until the late vote arrives: its counts are still the close's.
    now = new Date(CLOSE.getTime() + 30 * 60_000);
    expect((await vote(cookies.validatorA, ids[2] as number, key)).statusCode).toBe(201);

    const res = await t.request({ url: '/api/election/close-results', headers: { cookie: cookies.admin } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      closedAt: CLOSE.toISOString(),
      ballots: 2,
      departments: [{ slug: SLUG_A, ballots: 2, votes: { FA: 2 } }],
      lateArrivals: 1,
    });
    expect(res.json().candidates.find((c: { code: string }) => c.code === 'FA').votes).toBe(2);
    // The counts keep the audit chain's head at the close: after the two votes' rows, before the late one's.
    const snapshot = await readCloseSnapshot(t.db.kysely, CLOSE.toISOString());
    const votes = await listAudit(t.db.kysely, { action: 'record.vote' });
    const [late, ...onTime] = votes.map((row) => Number(row.seq));
    expect(snapshot?.counts.chainHead?.seq).toBeLessThan(late as number);
    for (const seq of onTime) expect(snapshot?.counts.chainHead?.seq).toBeGreaterThanOrEqual(seq);
    const headRow = await t.db.kysely
      .selectFrom('audit_log')
      .select('hash')
      .where('seq', '=', snapshot?.counts.chainHead?.seq ?? -1)
      .executeTakeFirstOrThrow();
    expect(snapshot?.counts.chainHead?.hash).toBe(headRow.hash);
    // The live results count the late vote too.
    const live = (await t.request({ url: '/api/results', headers: { cookie: cookies.admin } })).json();
    expect(live.ballots).toBe(3);
    // Whoever may not open Resultados does not see the close's counts either.
    const validator = await t.request({ url: '/api/election/close-results', headers: { cookie: cookies.validatorA } });
    expect(validator.statusCode).toBe(404);
  });

  it('reopens with a reason, audited, and takes votes again', async () => {
    const { cookies, ids } = await setup('en_curso');
    await phaseChange(cookies.admin, 'cerrada', 'Cierre');
    expect((await vote(cookies.validatorA, ids[0] as number)).statusCode).toBe(409);
    const reopen = await phaseChange(cookies.admin, 'en_curso', 'Centro con cola al cierre');
    expect(reopen.json()).toMatchObject({ phase: 'en_curso', closedAt: null });
    expect((await vote(cookies.validatorA, ids[0] as number)).statusCode).toBe(201);
    const [row] = await listAudit(t.db.kysely, { action: 'election.reopen' });
    expect(JSON.parse(row?.details ?? '{}')).toMatchObject({
      from: 'cerrada',
      to: 'en_curso',
      reason: 'Centro con cola al cierre',
    });
  });
});
