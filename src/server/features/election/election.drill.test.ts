import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import { fixture, photoFilesUnder, uploadPhoto } from '#server/testing/photos';
import { addRecords, PEOPLE, SLUG_A, signInPeople } from '#server/testing/records';
import { checkTotals } from '#server/testing/results';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { PHOTO_KINDS } from '#shared/platform/constants';

let t: TestApp;
afterEach(async () => t?.close());

const NOON = new Date('2026-11-27T16:00:00Z');

async function setup() {
  t = await createTestApp({ now: () => NOON }, { electionPhase: null });
  const cookies = await signInPeople(t);
  const ids = await addRecords(t, SLUG_A, 60);
  return { cookies, ids };
}

const vote = (cookie: string, id: number, key: string = randomUUID()) =>
  t.request({
    method: 'POST',
    url: `/api/validation/${SLUG_A}/records/${id}/vote`,
    headers: { cookie, 'idempotency-key': key },
    payload: { candidates: ['FA'] },
  });
const phaseChange = (cookie: string, phase: string, reason = 'Práctica del día antes') =>
  t.request({ method: 'PUT', url: '/api/admin/election/phase', headers: { cookie }, payload: { phase, reason } });
const endDrill = (cookie: string, votes: number, photos: number) =>
  t.request({
    method: 'POST',
    url: '/api/admin/election/drill/end',
    headers: { cookie },
    payload: { votes, photos, reason: 'Termina la práctica' },
  });

/** Everything the drill may touch, as the database and the disk hold it. */
async function everything(cookie: string) {
  const db = t.db.kysely;
  const { computedAt: _at, ...results } = (await t.request({ url: '/api/results', headers: { cookie } })).json();
  // The map's figures too: the drill's photos received go with it.
  const { computedAt: _mapAt, ...breakdown } = (
    await t.request({ url: '/api/results/breakdown', headers: { cookie } })
  ).json();
  return {
    records: await db.selectFrom('records').selectAll().orderBy('id').execute(),
    ballots: await db.selectFrom('record_votes').selectAll().execute(),
    photos: await db.selectFrom('photos').selectAll().execute(),
    keys: await db.selectFrom('idempotency_keys').select('item_key').execute(),
    summary: (await t.request({ url: `/api/validation/${SLUG_A}/summary`, headers: { cookie } })).json(),
    results,
    breakdown,
    files: photoFilesUnder(t.config.dataDir),
  };
}

describe('the drill', () => {
  it('starts only from Preparación with nothing voted, and is left only by ending it', async () => {
    const { cookies, ids } = await setup();
    expect((await phaseChange(cookies.admin, 'en_curso', 'Empieza')).statusCode).toBe(200);
    expect((await vote(cookies.validatorA, ids[0] as number)).statusCode).toBe(201);
    expect((await phaseChange(cookies.admin, 'preparacion', 'Vuelta atrás')).statusCode).toBe(200);
    const dirty = await phaseChange(cookies.admin, 'simulacro');
    expect([dirty.statusCode, dirty.json().message]).toEqual([
      409,
      'El simulacro empieza desde Preparación y sin votos ni fotos guardados.',
    ]);
  });

  it('erases 50 votes and 8 photos: records, counters, results and files exactly as before; the audit keeps both', async () => {
    const { cookies, ids } = await setup();
    const before = await everything(cookies.admin);
    expect((await phaseChange(cookies.admin, 'simulacro')).statusCode).toBe(200);
    expect((await phaseChange(cookies.admin, 'en_curso', 'Sin terminar')).statusCode).toBe(409);

    const keys: string[] = [];
    for (const id of ids.slice(0, 50)) {
      const key = randomUUID();
      keys.push(key);
      const res = await vote(cookies.validatorA, id, key);
      expect(res.statusCode, res.body).toBe(201);
    }
    // Eight photos: every slot of two voted records (so validated) and two of a third.
    const slots = ids
      .slice(45, 48)
      .flatMap((id) => PHOTO_KINDS.map((kind) => ({ id, kind })))
      .slice(0, 8);
    for (const { id, kind } of slots) {
      const res = await uploadPhoto(
        t,
        { slug: SLUG_A, recordId: id, kind },
        { data: fixture('ballot.jpg'), filename: 'b.jpg', contentType: 'image/jpeg' },
        cookies.validatorA,
      );
      expect(res.statusCode, res.body).toBe(201);
    }
    const during = await everything(cookies.admin);
    expect(during.summary.voted).toBe(50);
    expect(during.summary.validated).toBe(2);
    expect(during.files.length).toBe(24);
    // Corrections and voids have no place in the drill: its erasure puts back votes and photos only.
    const correction = await t.request({
      method: 'PUT',
      url: `/api/admin/records/${ids[0]}/vote`,
      headers: { cookie: cookies.admin },
      payload: { candidates: ['LC'], reason: 'Práctica', voteRevision: 1 },
    });
    expect(correction.statusCode).toBe(409);

    const admin = (await t.request({ url: '/api/admin/election', headers: { cookie: cookies.admin } })).json();
    expect(admin).toMatchObject({ phase: 'simulacro', drill: { votes: 50, photos: 8 } });
    // Confirmed with other counts than the drill's: nothing erased, the right ones said.
    const stale = await endDrill(cookies.admin, 49, 8);
    expect([stale.statusCode, stale.json().message]).toEqual([
      409,
      'El simulacro tiene ahora 50 votos y 8 fotos: revisa los números y confirma otra vez.',
    ]);
    expect((await endDrill(cookies.validatorA, 50, 8)).statusCode).toBe(404);

    const ended = await endDrill(cookies.admin, 50, 8);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toEqual({
      message: 'Simulacro terminado y borrado: 50 votos y 8 fotos. La jornada está en Preparación.',
      votes: 50,
      photos: 8,
      filesDeleted: 24,
      files: 24,
      accountsRemoved: 0,
    });
    expect(await everything(cookies.admin)).toEqual(before);
    expect((await checkTotals(t.db.kysely)).differences).toEqual([]);
    const status = (await t.request({ url: '/api/election', headers: { cookie: cookies.admin } })).json();
    expect(status.phase).toBe('preparacion');

    // The audit keeps the drill's votes and photos, marked, and one row for its erasure with the counts.
    const votes = await listAudit(t.db.kysely, { action: 'record.vote' });
    expect(votes).toHaveLength(50);
    expect(votes.every((row) => JSON.parse(row.details ?? '{}').drill === true)).toBe(true);
    expect(await listAudit(t.db.kysely, { action: 'photo.upload' })).toHaveLength(8);
    const [erasure, ...others] = await listAudit(t.db.kysely, { action: 'election.drill_end' });
    expect(others).toEqual([]);
    expect(erasure?.actor_email).toBe(PEOPLE.admin);
    expect(JSON.parse(erasure?.details ?? '{}')).toEqual({
      votes: 50,
      photos: 8,
      files: 24,
      reason: 'Termina la práctica',
    });

    // A phone still holding a drill vote is told so, whatever the phase, and the vote never counts.
    const late = await vote(cookies.validatorA, ids[0] as number, keys[0]);
    expect([late.statusCode, late.json().message]).toEqual([410, 'Era del simulacro']);
    expect((await phaseChange(cookies.admin, 'en_curso', 'Empieza el día')).statusCode).toBe(200);
    const again = await vote(cookies.validatorA, ids[1] as number, keys[1]);
    expect([again.statusCode, again.json().message]).toEqual([410, 'Era del simulacro']);
    // The same record voted for real, with a new key, is a vote like any other.
    expect((await vote(cookies.validatorA, ids[1] as number)).statusCode).toBe(201);
  });
});
