import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { setElectionPhase } from '#server/testing/election';
import { fixture, uploadPhoto } from '#server/testing/photos';
import { addRecords, SLUG_A, signInPeople } from '#server/testing/records';
import { checkTotals } from '#server/testing/results';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { PHOTO_KINDS, type PhotoKind } from '#shared/platform/constants';
import { createRecordsRepository } from './records.repository';

/*
 * The records kernel's counters against its recount (the one results:check and the rebuild use), after
 * each of its operations, driven as people drive them: through the use cases' HTTP routes.
 */

let t: TestApp;
afterEach(async () => t?.close());

const NOON = new Date('2026-11-27T16:00:00Z');

const COUNTERS = ['vote_totals', 'candidate_totals', 'quarter_totals', 'record_counts', 'photo_totals'] as const;

/** Every counter row but those at zero (a counter moved down to 0 keeps its row; a recount has none). */
async function counters() {
  const db = t.db.kysely;
  const tables: Record<string, unknown[]> = {};
  for (const table of COUNTERS) {
    const rows = (await db.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
    tables[table] = rows
      .map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' ? v : Number(v)])))
      .filter((row) =>
        Object.entries(row).some(([k, v]) => ['ballots', 'votes', 'photos', 'total'].includes(k) && v !== 0),
      )
      .map((row) => JSON.stringify(row))
      .sort();
  }
  return tables;
}

/** The counters agree with the recount (what results:check compares). */
async function expectCountersAgree(after: string) {
  expect((await checkTotals(t.db.kysely)).differences, after).toEqual([]);
}

/** A rebuild from the recount (what a bulk load and the drill's erasure run) changes no counter. */
async function expectRebuildChangesNothing() {
  const stored = await counters();
  await createRecordsRepository(t.db.kysely).rebuildTotals();
  expect(await counters()).toEqual(stored);
}

async function setup(phase: 'en_curso' | null = 'en_curso') {
  t = await createTestApp({ now: () => NOON }, { electionPhase: phase });
  const cookies = await signInPeople(t);
  const ids = await addRecords(t, SLUG_A, 6);
  return { cookies, ids: ids as [number, number, number, number, number, number] };
}

const vote = (cookie: string, id: number, candidates: string[]) =>
  t.request({
    method: 'POST',
    url: `/api/validation/${SLUG_A}/records/${id}/vote`,
    headers: { cookie, 'idempotency-key': randomUUID() },
    payload: { candidates },
  });
const photo = (cookie: string, recordId: number, kind: PhotoKind) =>
  uploadPhoto(
    t,
    { slug: SLUG_A, recordId, kind },
    { data: fixture('ballot.jpg'), filename: 'b.jpg', contentType: 'image/jpeg' },
    cookie,
  );
const post = (cookie: string, url: string, payload: object) =>
  t.request({ method: 'POST', url, headers: { cookie }, payload });

describe('the records kernel', () => {
  it('keeps its counters equal to its recount through votes, photos, a clear, a void, a restore and the purge', async () => {
    const { cookies, ids } = await setup();
    await expectCountersAgree('records loaded');

    for (const id of ids.slice(0, 4)) {
      expect((await vote(cookies.validatorA, id, ['FA', 'NR'])).statusCode).toBe(201);
    }
    await expectCountersAgree('mark voted');

    for (const kind of PHOTO_KINDS) expect((await photo(cookies.validatorA, ids[0], kind)).statusCode).toBe(201);
    for (const kind of PHOTO_KINDS) expect((await photo(cookies.validatorA, ids[1], kind)).statusCode).toBe(201);
    expect((await photo(cookies.validatorA, ids[5], 'an')).statusCode).toBe(201);
    expect((await checkTotals(t.db.kysely)).ballots).toBe(4);
    await expectCountersAgree('fill slot');

    const cleared = await t.request({
      method: 'PUT',
      url: `/api/admin/records/${ids[0]}/vote`,
      headers: { cookie: cookies.admin },
      payload: { candidates: null, reason: 'Votó la persona equivocada', voteRevision: 1 },
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    await expectCountersAgree('clear a vote');

    const voided = await post(cookies.admin, `/api/admin/records/${ids[1]}/void`, { reason: 'Persona repetida' });
    expect(voided.statusCode, voided.body).toBe(200);
    const voidedCounting = await post(cookies.admin, `/api/admin/records/${ids[2]}/void`, {
      reason: 'Se mudó',
      voteCounts: true,
    });
    expect(voidedCounting.statusCode, voidedCounting.body).toBe(200);
    await expectCountersAgree('void');

    const restored = await post(cookies.admin, `/api/admin/records/${ids[1]}/restore`, { reason: 'No era repetida' });
    expect(restored.statusCode, restored.body).toBe(200);
    await expectCountersAgree('restore');

    await setElectionPhase(t.db, 'cerrada', NOON);
    const purged = await post(cookies.admin, '/api/admin/records/purge', {
      photos: 'keep',
      confirm: 'BORRAR DATOS PERSONALES',
    });
    expect(purged.statusCode, purged.body).toBe(200);
    await expectCountersAgree('purge');
    await expectRebuildChangesNothing();
  });

  it('keeps its counters equal to its recount when the drill’s items are erased', async () => {
    const { cookies, ids } = await setup(null);
    const phase = (to: string, reason = 'Práctica del día antes') =>
      t.request({
        method: 'PUT',
        url: '/api/admin/election/phase',
        headers: { cookie: cookies.admin },
        payload: { phase: to, reason },
      });
    expect((await phase('simulacro')).statusCode).toBe(200);
    for (const id of ids.slice(0, 3)) expect((await vote(cookies.validatorA, id, ['FA'])).statusCode).toBe(201);
    for (const kind of PHOTO_KINDS) expect((await photo(cookies.validatorA, ids[0], kind)).statusCode).toBe(201);
    await expectCountersAgree('drill items');

    const ended = await post(cookies.admin, '/api/admin/election/drill/end', {
      votes: 3,
      photos: 3,
      reason: 'Termina la práctica',
    });
    expect(ended.statusCode, ended.body).toBe(200);
    await expectCountersAgree('erase drill items');
    await expectRebuildChangesNothing();
    expect((await checkTotals(t.db.kysely)).ballots).toBe(0);
  });
});
