import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addRecords, SLUG_A, signInPeople } from '#server/testing/records';
import { createTestApp, type TestApp } from '#server/testing/test-app';

// A change of phase and the votes it governs, at the same time (decision 094): on either database, no
// drill vote outlives the drill's end, no vote the close did not count is taken as on time, and nobody
// gets a 5xx (a deadlock). Run on SQLite and on PostgreSQL like every server test.

let t: TestApp;

const ROUNDS = 20;
const RACING_VOTES = 10;
let now = new Date('2026-11-28T12:00:00Z');

let cookies: Awaited<ReturnType<typeof signInPeople>>;
let ids: number[];
/** One app for all the rounds of a race (each round its own test); 5xx answers of every round. */
function raceApp(phase: 'preparacion' | 'en_curso', records: number, serverErrors: string[]) {
  beforeAll(async () => {
    t = await createTestApp({ now: () => now }, { electionPhase: phase });
    cookies = await signInPeople(t);
    ids = await addRecords(t, SLUG_A, records);
  });
  afterAll(async () => {
    await t?.close();
  });
  return (what: string, res: { statusCode: number; body: string }) => {
    if (res.statusCode >= 500) serverErrors.push(`${what}: ${res.statusCode} ${res.body}`);
  };
}

const vote = (cookie: string, id: number) =>
  t.request({
    method: 'POST',
    url: `/api/validation/${SLUG_A}/records/${id}/vote`,
    headers: { cookie, 'idempotency-key': randomUUID() },
    payload: { candidates: ['FA'] },
  });
const phase = (cookie: string, to: string, reason = 'Cambio en la carrera') =>
  t.request({ method: 'PUT', url: '/api/admin/election/phase', headers: { cookie }, payload: { phase: to, reason } });

const votedRecords = async () =>
  Number(
    (
      await t.db.kysely
        .selectFrom('records')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('voted_at', 'is not', null)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe(`'Terminar simulacro' racing drill votes, ${ROUNDS} rounds`, () => {
  const serverErrors: string[] = [];
  const note = raceApp('preparacion', RACING_VOTES + 2, serverErrors);

  for (let round = 0; round < ROUNDS; round++) {
    it(`round ${round + 1}: nothing of the drill is left, and no 5xx`, async () => {
      now = new Date(now.getTime() + 60_000);
      const started = await phase(cookies.admin, 'simulacro', 'Ensayo');
      expect(started.statusCode, started.body).toBe(200);
      // Two drill votes before; the rest race the end.
      for (const id of ids.slice(0, 2)) expect((await vote(cookies.validatorA, id)).statusCode).toBe(201);
      const end = async () => {
        // The admin confirms the counts shown; votes arriving meanwhile make them confirm again.
        for (;;) {
          const admin = (await t.request({ url: '/api/admin/election', headers: { cookie: cookies.admin } })).json();
          if (admin.phase !== 'simulacro') return;
          const res = await t.request({
            method: 'POST',
            url: '/api/admin/election/drill/end',
            headers: { cookie: cookies.admin },
            payload: { votes: admin.drill.votes, photos: admin.drill.photos, reason: 'Fin del ensayo' },
          });
          note('drill end', res);
          if (res.statusCode === 200) return;
          expect(res.statusCode, res.body).toBe(409);
        }
      };
      const votes = ids.slice(2).map(async (id) => {
        const res = await vote(cookies.validatorA, id);
        note('vote', res);
        expect([201, 409], res.body).toContain(res.statusCode);
      });
      await Promise.all([end(), ...votes]);

      const status = (await t.request({ url: '/api/election', headers: { cookie: cookies.admin } })).json();
      expect(status.phase).toBe('preparacion');
      // Nothing of the drill: no voted record, no ballot, no counter, no open drill item.
      expect(await votedRecords()).toBe(0);
      expect(await t.db.kysely.selectFrom('record_votes').select('record_id').execute()).toEqual([]);
      const results = (await t.request({ url: '/api/results', headers: { cookie: cookies.admin } })).json();
      expect(results.ballots).toBe(0);
      const open = await t.db.kysely
        .selectFrom('election_drill_items')
        .select('id')
        .where('erased_at', 'is', null)
        .execute();
      expect(open).toEqual([]);
      expect(serverErrors).toEqual([]);
    });
  }
});

describe(`the close racing votes, ${ROUNDS} rounds`, () => {
  const serverErrors: string[] = [];
  const note = raceApp('en_curso', ROUNDS * RACING_VOTES, serverErrors);
  let taken = 0;

  for (let round = 0; round < ROUNDS; round++) {
    it(`round ${round + 1}: every vote taken is in 'Resultados al cierre', none after it, and no 5xx`, async () => {
      now = new Date(now.getTime() + 60_000);
      const mine = ids.slice(round * RACING_VOTES, (round + 1) * RACING_VOTES);
      const close = (async () => {
        const res = await phase(cookies.admin, 'cerrada', 'Cierre de mesas');
        note('close', res);
        expect(res.statusCode, res.body).toBe(200);
      })();
      const votes = mine.map(async (id) => {
        const res = await vote(cookies.validatorA, id);
        note('vote', res);
        expect([201, 409], res.body).toContain(res.statusCode);
        if (res.statusCode === 201) taken++;
      });
      await Promise.all([close, ...votes]);

      // Every vote taken was taken before the close: in its counts, none late, none after it.
      const atClose = (
        await t.request({ url: '/api/election/close-results', headers: { cookie: cookies.admin } })
      ).json();
      expect(atClose.lateArrivals).toBe(0);
      expect(atClose.ballots).toBe(taken);
      expect(await votedRecords()).toBe(taken);
      const live = (await t.request({ url: '/api/results', headers: { cookie: cookies.admin } })).json();
      expect(live.ballots).toBe(taken);
      expect(serverErrors).toEqual([]);
      now = new Date(now.getTime() + 60_000);
      expect((await phase(cookies.admin, 'en_curso', 'Reabre para la ronda siguiente')).statusCode).toBe(200);
    });
  }
});
