import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app';
import { listAudit } from '#server/platform/audit/audit.repository';
import { runChange } from '#server/platform/change/change';
import { openDatabase } from '#server/platform/db/database';
import { createSettingsRepository, settingsAnswers } from '#server/platform/settings/settings.repository';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { fixture, uploadPhoto } from '#server/testing/photos';
import { seedSyntheticResults, unvotedRecordIds } from '#server/testing/results-synthetic';
import { LIVE_UPDATE_MS, openSse, resultsOf, type SseEvent, votesIn } from '#server/testing/sse';
import { createTestApp, type TestApp, testConfig, testDialect } from '#server/testing/test-app';
import {
  type Breakdown,
  type BreakdownChange,
  type Results,
  resultsSchema,
  type Timeline,
  type TimelineChange,
} from '#shared/features/results/results';
import { checkTotals } from './results.service';

const ADMIN = 'jefa.resultados@example.org';
const LISTED = 'analista.resultados@example.org';
const VALIDATOR = 'validador.cabimas@example.org';
const OUTSIDER = 'sin.lista@example.org';
const SLUG = 'cabimas';

let t: TestApp;
let admin: string;
let validator: string;

/** A tiny deterministic generator, so a failing mix can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), a | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

async function vote(app: TestApp, cookie: string, id: number, candidates: string[]) {
  return app.request({
    method: 'POST',
    url: `/api/validation/${SLUG}/records/${id}/vote`,
    headers: { cookie },
    payload: { candidates },
  });
}

async function getResults(cookie = admin): Promise<Results> {
  const res = await t.request({ url: '/api/results', headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return res.json() as Results;
}

async function getBreakdown(): Promise<Breakdown> {
  const res = await t.request({ url: '/api/results/breakdown', headers: { cookie: admin } });
  expect(res.statusCode).toBe(200);
  return res.json() as Breakdown;
}

async function getTimeline(): Promise<Timeline> {
  const res = await t.request({ url: '/api/results/timeline', headers: { cookie: admin } });
  expect(res.statusCode).toBe(200);
  return res.json() as Timeline;
}

const votesOf = (r: Results) => Object.fromEntries(r.candidates.map((c) => [c.code, c.votes]));

beforeAll(async () => {
  t = await createTestApp();
  await createUser(t.db, { email: ADMIN, role: 'admin' });
  await createUser(t.db, { email: LISTED, role: 'staff', departments: ['resultados'] });
  await createUser(t.db, { email: VALIDATOR, role: 'staff', departments: [SLUG] });
  await createUser(t.db, { email: OUTSIDER, role: 'staff', departments: ['lagunillas'] });
  admin = await sessionCookie(t, ADMIN);
  validator = await sessionCookie(t, VALIDATOR);
});
afterAll(async () => t?.close());

describe('GET /api/results', () => {
  it('is for the Resultados allow-list and admins only', async () => {
    expect((await t.request({ url: '/api/results' })).statusCode).toBe(401);
    const outsider = await sessionCookie(t, OUTSIDER);
    expect((await t.request({ url: '/api/results', headers: { cookie: outsider } })).statusCode).toBe(404);
    expect((await t.request({ url: '/api/results', headers: { cookie: validator } })).statusCode).toBe(404);
    const listed = await sessionCookie(t, LISTED);
    expect((await t.request({ url: '/api/results', headers: { cookie: listed } })).statusCode).toBe(200);
  });

  it('counts a ballot once for each of its candidates, over the denominator, with no scan of records', async () => {
    const before = await getResults();
    const ids = await seedAndList(4);
    expect((await vote(t, validator, ids[0]!, ['FA'])).statusCode).toBe(201);
    expect((await vote(t, validator, ids[1]!, ['LC', 'FA'])).statusCode).toBe(201);
    expect((await vote(t, validator, ids[2]!, [])).statusCode).toBe(201);
    expect((await vote(t, validator, ids[3]!, ['NR'])).statusCode).toBe(201);
    const after = await getResults();

    expect(after.candidates.map((c) => c.code)).toEqual(['FA', 'LC', 'NR']);
    expect(after.candidates[0]).toMatchObject({
      name: 'Fernando Álvarez',
      colour: '#1D4ED8',
      photoUrl: '/candidatos/fa.svg',
    });
    const delta = (code: string) => votesOf(after)[code]! - votesOf(before)[code]!;
    expect([delta('FA'), delta('LC'), delta('NR')]).toEqual([2, 1, 1]);
    expect(after.ballots - before.ballots).toBe(4);
    expect(after.denominator).toBe(5373);
    for (const c of after.candidates) expect(c.percent).toBeCloseTo((c.votes / 5373) * 100, 10);
  });

  it("shows an admin's correction in that admin's very next read, with a new computedAt at every read", async () => {
    const [id] = await seedAndList(1);
    expect((await vote(t, validator, id!, ['FA'])).statusCode).toBe(201);
    const before = await getResults();
    // The same kept totals, stamped at each read.
    const again = await getResults();
    expect({ ...again, computedAt: before.computedAt }).toEqual(before);
    // The text written once per change and stamped at each read is the answer its schema describes.
    expect(resultsSchema.parse(again)).toEqual(again);
    expect(Date.parse(again.computedAt)).toBeGreaterThanOrEqual(Date.parse(before.computedAt));
    const corrected = await t.request({
      method: 'PUT',
      url: `/api/admin/records/${id}/vote`,
      headers: { cookie: admin },
      payload: { candidates: ['LC'], reason: 'Voto marcado en la casilla equivocada', voteRevision: 1 },
    });
    expect(corrected.statusCode).toBe(200);
    const after = await getResults();
    expect(votesOf(after).FA! - votesOf(before).FA!).toBe(-1);
    expect(votesOf(after).LC! - votesOf(before).LC!).toBe(1);
    expect(after.ballots).toBe(before.ballots);
  });

  it('takes the denominator from the settings', async () => {
    // As the settings' use cases store a value: in a change that forgets the kept settings.
    const setDenominator = (value: string) =>
      runChange(t.db.kysely, ({ trx }) => createSettingsRepository(trx).set('results_denominator', value, new Date()), {
        forget: [settingsAnswers],
      });
    await setDenominator('1000');
    try {
      const r = await getResults();
      expect(r.denominator).toBe(1000);
      for (const c of r.candidates) expect(c.percent).toBeCloseTo(c.votes / 10, 10);
    } finally {
      await setDenominator('5373');
    }
  });

  it('equals a recount of the records after a random mix of votes, repeats and refusals', async () => {
    const ids = await seedAndList(60);
    const before = votesOf(await getResults());
    const expected: Record<string, number> = { FA: 0, LC: 0, NR: 0 };
    const next = random(20261122);
    const codes = ['FA', 'LC', 'NR'];
    for (const id of ids) {
      const chosen = codes.filter(() => next() < 0.45);
      const res = await vote(t, validator, id, chosen);
      expect(res.statusCode).toBe(201);
      for (const c of chosen) expected[c]! += 1;
      if (next() < 0.2) {
        // The same ballot again is counted once (its stored answer); another one is refused.
        expect((await vote(t, validator, id, chosen)).statusCode).toBe(201);
        const other = chosen.length === 1 && chosen[0] === 'FA' ? ['LC'] : ['FA'];
        expect((await vote(t, validator, id, other)).statusCode).toBe(409);
      }
    }
    // Refused votes count nothing: unknown candidate, someone else's municipality.
    expect((await vote(t, validator, ids[0]!, ['XX'])).statusCode).toBe(400);

    const after = votesOf(await getResults());
    for (const c of codes) expect(after[c]! - before[c]!).toBe(expected[c]);
    const check = await checkTotals(t.db.kysely);
    expect(check.differences).toEqual([]);
    expect(check.votes).toEqual(after);
  });

  it('never loses an increment when votes arrive at the same time', async () => {
    const ids = await seedAndList(40);
    const before = await getResults();
    // Every record voted for all three at once, and each of the first ten raced by a second vote.
    const attempts = [
      ...ids.map((id) => [id, ['FA', 'LC', 'NR']] as const),
      ...ids.slice(0, 10).map((id) => [id, ['NR']] as const),
    ];
    const answers = await Promise.all(attempts.map(([id, c]) => vote(t, validator, id, [...c])));
    const won = answers.filter((a) => a.statusCode === 201).length;
    expect(won).toBe(40);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(10);
    const after = await getResults();
    expect(after.ballots - before.ballots).toBe(40);
    const d = (code: string) => votesOf(after)[code]! - votesOf(before)[code]!;
    // Whichever of a raced pair won, FA and LC moved once per record; NR once per record too.
    expect(d('NR')).toBe(40);
    expect(d('FA') + d('LC')).toBeGreaterThanOrEqual(60);
    expect((await checkTotals(t.db.kysely)).differences).toEqual([]);
  });
});

describe('GET /api/results/stream', () => {
  let origin: string;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  it('answers visitors and people off the list with the usual JSON errors', async () => {
    const visitor = await openSse(`${origin}/api/results/stream`);
    expect(visitor.status).toBe(401);
    expect(visitor.headers['content-type']).toContain('application/json');
    const outsider = await openSse(`${origin}/api/results/stream`, await sessionCookie(t, OUTSIDER));
    expect(outsider.status).toBe(404);
    // Someone allowed who does not ask for an event stream gets a plain answer, not a stream held open.
    const plain = await t.request({ url: '/api/results/stream', headers: { cookie: admin } });
    expect(plain.statusCode).toBe(406);
    expect(plain.json()).toMatchObject({ message: expect.stringContaining('text/event-stream') });
  });

  it('sends the totals at once, then new totals soon after a vote (LIVE_UPDATE_MS)', async () => {
    const ids = await seedAndList(2);
    const stream = await openSse(`${origin}/api/results/stream`, admin);
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(stream.headers['content-security-policy']).toBeDefined();
      const first = await stream.next((e) => e.event === 'resultados');
      const fa = votesIn(first, 'FA');
      expect(resultsOf(first)).toEqual(await getResults().then((r) => ({ ...r, computedAt: expect.any(String) })));

      const sent = Date.now();
      expect((await vote(t, validator, ids[0]!, ['FA', 'NR'])).statusCode).toBe(201);
      const update = await stream.next((e) => votesIn(e, 'FA') === fa + 1, LIVE_UPDATE_MS);
      expect(update.at - sent).toBeLessThan(LIVE_UPDATE_MS);

      expect((await vote(t, validator, ids[1]!, ['FA'])).statusCode).toBe(201);
      await stream.next((e) => votesIn(e, 'FA') === fa + 2, LIVE_UPDATE_MS);
    } finally {
      stream.close();
    }
  });

  it('carries the map and the timeline: whole at once, then the changed row and quarter after a vote; a photo (stored or replaced) moves the map too', async () => {
    const [id] = await seedAndList(1);
    const stream = await openSse(`${origin}/api/results/stream`, admin);
    try {
      const map = (e: SseEvent) => JSON.parse(e.data) as BreakdownChange;
      const line = (e: SseEvent) => JSON.parse(e.data) as TimelineChange;
      const row = (e: SseEvent) => map(e).rows.find((r) => r.slug === SLUG);
      const wholeMap = await stream.next((e) => e.event === 'avance');
      expect(map(wholeMap)).toEqual({ ...(await getBreakdown()), computedAt: expect.any(String), whole: true });
      const wholeLine = await stream.next((e) => e.event === 'linea');
      expect(line(wholeLine)).toEqual({ ...(await getTimeline()), computedAt: expect.any(String), whole: true });
      const base = row(wholeMap)!;

      expect((await vote(t, validator, id!, ['LC'])).statusCode).toBe(201);
      const voted = await stream.next((e) => e.event === 'avance' && row(e)?.voted === base.voted + 1, LIVE_UPDATE_MS);
      // Only what changed: the one department, and the quarter the vote fell in.
      expect(map(voted)).toMatchObject({ whole: false, rows: [{ slug: SLUG, votes: { LC: base.votes.LC! + 1 } }] });
      const quarter = await stream.next((e) => e.event === 'linea' && !line(e).whole, LIVE_UPDATE_MS);
      expect(line(quarter).buckets).toEqual([(await getTimeline()).buckets.at(-1)]);

      // A photo moves the stream as a vote does: the map counts it in its department.
      const photo = { data: fixture('ballot.jpg'), filename: 'boleta.jpg', contentType: 'image/jpeg' };
      const target = { slug: SLUG, recordId: id!, kind: 'gobernador' };
      const stored = await uploadPhoto(t, target, photo, validator);
      expect(stored.statusCode, stored.body).toBe(201);
      await stream.next((e) => e.event === 'avance' && row(e)?.photos === base.photos + 1, LIVE_UPDATE_MS);
      // So does an admin's replacement of it, though nothing else on the page changes.
      await createUser(t.db, { email: 'jefe.cabimas@example.org', role: 'admin', departments: [SLUG] });
      const replaced = await uploadPhoto(t, target, photo, await sessionCookie(t, 'jefe.cabimas@example.org'));
      expect(replaced.statusCode, replaced.body).toBe(201);
      await stream.next((e) => e.event === 'avance' && row(e)?.photos === base.photos + 2, LIVE_UPDATE_MS);
      expect((await getBreakdown()).rows.find((r) => r.slug === SLUG)?.photos).toBe(base.photos + 2);
      expect((await checkTotals(t.db.kysely)).differences).toEqual([]);
    } finally {
      stream.close();
    }
  });

  it('ends a stream once its person is taken off the list, disabled, no longer an admin or signed out everywhere; no totals after that', async () => {
    const ids = await seedAndList(5);
    const people = {
      offList: 'retirada.resultados@example.org',
      disabled: 'desactivada.resultados@example.org',
      demoted: 'ex.jefa@example.org',
      endedByAdmin: 'telefono.perdido@example.org',
      selfOut: 'cierra.todo@example.org',
    };
    await createUser(t.db, { email: people.offList, role: 'staff', departments: ['resultados'] });
    const disabled = await createUser(t.db, { email: people.disabled, role: 'staff', departments: ['resultados'] });
    const demoted = await createUser(t.db, { email: people.demoted, role: 'admin' });
    const endedByAdmin = await createUser(t.db, {
      email: people.endedByAdmin,
      role: 'staff',
      departments: ['resultados'],
    });
    await createUser(t.db, { email: people.selfOut, role: 'staff', departments: ['resultados'] });
    // Signed in on two phones: "Cerrar sesión en todos los dispositivos" on one closes the other's stream.
    const selfOutHere = await sessionCookie(t, people.selfOut);
    const streams = {
      offList: await openSse(`${origin}/api/results/stream`, await sessionCookie(t, people.offList)),
      disabled: await openSse(`${origin}/api/results/stream`, await sessionCookie(t, people.disabled)),
      demoted: await openSse(`${origin}/api/results/stream`, await sessionCookie(t, people.demoted)),
      endedByAdmin: await openSse(`${origin}/api/results/stream`, await sessionCookie(t, people.endedByAdmin)),
      selfOut: await openSse(`${origin}/api/results/stream`, await sessionCookie(t, people.selfOut)),
      kept: await openSse(`${origin}/api/results/stream`, admin),
    };
    const closing = [streams.offList, streams.disabled, streams.demoted, streams.endedByAdmin, streams.selfOut];
    try {
      for (const stream of Object.values(streams)) await stream.next((e) => e.event === 'resultados');
      const base = votesIn(await streams.kept.next((e) => e.event === 'resultados'), 'FA');
      const changes = [
        () =>
          t.request({
            method: 'DELETE',
            url: `/api/access/departments/resultados/members/${people.offList}`,
            headers: { cookie: admin },
          }),
        () =>
          t.request({
            method: 'PATCH',
            url: `/api/admin/users/${disabled.id}`,
            headers: { cookie: admin },
            payload: { disabled: true },
          }),
        () =>
          t.request({
            method: 'PATCH',
            url: `/api/admin/users/${demoted.id}`,
            headers: { cookie: admin },
            payload: { role: 'staff' },
          }),
        () =>
          t.request({
            method: 'POST',
            url: `/api/admin/users/${endedByAdmin.id}/sessions/end`,
            headers: { cookie: admin },
          }),
        () => t.request({ method: 'POST', url: '/api/auth/logout-all', headers: { cookie: selfOutHere } }),
      ];
      for (const [i, change] of changes.entries()) {
        expect((await change()).statusCode).toBe(200);
        // A vote right after the change: its totals reach the others, never the person who lost access.
        expect((await vote(t, validator, ids[i]!, ['FA'])).statusCode).toBe(201);
        await streams.kept.next((e) => votesIn(e, 'FA') === base + i + 1, 2_000);
      }
      // Each is checked again at least every half second: generous margin for a busy machine.
      await Promise.all(closing.map((stream) => within(stream.ended, 5_000)));
      if (testDialect === 'sqlite') {
        // SQLite's access version moved with the change: streams are checked before new totals go out.
        // Vote i came right after change i: the stream changed by it never sees it or later ones.
        for (const [i, stream] of closing.entries()) {
          expect(stream.events.filter((e) => votesIn(e, 'FA') > base + i)).toEqual([]);
        }
      }
      expect(await Promise.race([streams.kept.ended.then(() => 'ended'), Promise.resolve('open')])).toBe('open');
    } finally {
      for (const stream of Object.values(streams)) stream.close();
    }
  });

  it('shares one change source among many streams', async () => {
    const ids = await seedAndList(1);
    const streams = await Promise.all(Array.from({ length: 25 }, () => openSse(`${origin}/api/results/stream`, admin)));
    try {
      const base = votesIn(await streams[0]!.next((e) => e.event === 'resultados'), 'LC');
      expect((await vote(t, validator, ids[0]!, ['LC'])).statusCode).toBe(201);
      await Promise.all(streams.map((s) => s.next((e) => votesIn(e, 'LC') === base + 1, LIVE_UPDATE_MS)));
    } finally {
      for (const s of streams) s.close();
    }
  });
});

describe('several app instances on the same database', () => {
  it('a vote through one instance soon reaches the streams of the other (LIVE_UPDATE_MS); none is lost', async () => {
    // Instance B opens its own connection pool (and, on PostgreSQL, its own LISTEN connection).
    const config = testConfig({ dataDir: t.config.dataDir, databaseUrl: t.config.databaseUrl });
    const dbB = await openDatabase(config);
    const appB = await buildApp(config, { db: dbB, logger: false });
    const appA = await buildApp(config, { db: t.db, logger: false });
    try {
      await appA.listen({ port: 0, host: '127.0.0.1' });
      await appB.listen({ port: 0, host: '127.0.0.1' });
      const portA = (appA.server.address() as AddressInfo).port;
      const portB = (appB.server.address() as AddressInfo).port;
      expect(portA).not.toBe(portB);
      const ids = await seedAndList(2);

      const stream = await openSse(`http://127.0.0.1:${portB}/api/results/stream`, admin);
      try {
        const nr = votesIn(await stream.next((e) => e.event === 'resultados'), 'NR');
        const sent = Date.now();
        const res = await fetch(`http://127.0.0.1:${portA}/api/validation/${SLUG}/records/${ids[0]}/vote`, {
          method: 'POST',
          headers: { cookie: validator, origin: t.config.publicOrigin!, 'content-type': 'application/json' },
          body: JSON.stringify({ candidates: ['NR'] }),
        });
        expect(res.status).toBe(201);
        const seen = await stream.next((e) => votesIn(e, 'NR') === nr + 1, LIVE_UPDATE_MS);
        expect(seen.at - sent).toBeLessThan(LIVE_UPDATE_MS);

        // Votes through both instances at once: no increment lost, and B's stream ends on the sum.
        const more = await seedAndList(40);
        const answers = await Promise.all(
          more.map((id, i) =>
            fetch(`http://127.0.0.1:${i % 2 ? portA : portB}/api/validation/${SLUG}/records/${id}/vote`, {
              method: 'POST',
              headers: { cookie: validator, origin: t.config.publicOrigin!, 'content-type': 'application/json' },
              body: JSON.stringify({ candidates: ['NR', 'FA'] }),
            }).then((r) => r.status),
          ),
        );
        expect(answers.every((status) => status === 201)).toBe(true);
        await stream.next((e) => votesIn(e, 'NR') === nr + 41, LIVE_UPDATE_MS);
        expect((await checkTotals(t.db.kysely)).differences).toEqual([]);
      } finally {
        stream.close();
      }
    } finally {
      await appA.close();
      await appB.close();
      await dbB.close();
    }
  });
});

describe('breakdown and downloads', () => {
  it('shows each municipality’s progress and votes, from the counters and one grouped pass', async () => {
    await seedSyntheticResults(t.db.kysely, {
      departments: ['sucre'],
      unvoted: 3,
      ballots: [
        { codes: ['FA', 'LC'], count: 2 },
        { codes: ['NR'], count: 1 },
      ],
      withPhotos: true,
    });
    const res = await t.request({ url: '/api/results/breakdown', headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    const body = res.json() as Breakdown;
    expect(body.candidates.map((c) => c.code)).toEqual(['FA', 'LC', 'NR']);
    expect(body.rows).toHaveLength(37);
    const sucre = body.rows.find((r) => r.slug === 'sucre');
    expect(sucre).toEqual({
      slug: 'sucre',
      title: 'Sucre',
      total: 6,
      voted: 3,
      validated: 3,
      percentComplete: 50,
      reviewed: 0,
      votes: { FA: 2, LC: 2, NR: 1 },
      // Three photos for each of the six records.
      photos: 18,
    });
    expect(body.rows.find((r) => r.slug === 'baralt')).toMatchObject({ total: 0, percentComplete: 0, photos: 0 });
  });

  it('downloads the breakdown as CSV for Excel and writes it in the audit log', async () => {
    const res = await t.request({ url: '/api/results/breakdown.csv', headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="avance-por-municipio-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const lines = res.body.slice(1).split('\r\n');
    expect(lines[0]).toBe(
      'Municipio;Trámites;Votados;Validados (voto y 3 fotos);% completado;Votos FA (Fernando Álvarez);Votos LC (Luisa Contreras);Votos NR (Nelson Rincón)',
    );
    expect(lines).toContain('Sucre;6;3;3;50,00;2;2;1');
    expect(lines).toHaveLength(1 + 37 + 1);
    const [audit] = await listAudit(t.db.kysely, { action: 'results.download', limit: 1 });
    expect(audit).toMatchObject({ actor_email: ADMIN, target: 'breakdown.csv', department_slug: 'resultados' });
  });

  it('downloads every voted record with its candidates, photos and who validated it', async () => {
    const res = await t.request({ url: '/api/results/validated.csv', headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/tramites-validados-.*\.csv/);
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const lines = res.body.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'ID;Municipio;Comunidad;UBCH;Persona;Candidatos;Fotos presentes;Completo (voto y 3 fotos);Validado por;Validado el (hora de Caracas, UTC-04:00);' +
        'Revisión Gobernador;Gobernador revisada por;Gobernador revisada el (hora de Caracas, UTC-04:00);' +
        'Revisión AN;AN revisada por;AN revisada el (hora de Caracas, UTC-04:00);' +
        'Revisión CLEZ;CLEZ revisada por;CLEZ revisada el (hora de Caracas, UTC-04:00)',
    );
    const check = await checkTotals(t.db.kysely);
    expect(lines).toHaveLength(1 + check.ballots);
    const sucre = lines.filter((l) => l.includes(';Sucre;'));
    expect(sucre).toHaveLength(3);
    expect(sucre[0]).toMatch(
      /;FA, LC;Gobernador, AN, CLEZ;Sí;sintetico;\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(;Sin revisar;;){3}$/,
    );
    const cabimas = lines.find((l) => l.includes(';Cabimas;') && l.includes(`;${VALIDATOR};`));
    expect(cabimas).toMatch(/;Ninguna;No;/);
    const [audit] = await listAudit(t.db.kysely, { action: 'results.download', limit: 1 });
    expect(audit).toMatchObject({ actor_email: ADMIN, target: 'validated.csv' });
  });

  it('keeps the breakdown and downloads to the same allow-list', async () => {
    const outsider = await sessionCookie(t, OUTSIDER);
    for (const url of ['/api/results/breakdown', '/api/results/breakdown.csv', '/api/results/validated.csv']) {
      expect((await t.request({ url })).statusCode).toBe(401);
      expect((await t.request({ url, headers: { cookie: outsider } })).statusCode).toBe(404);
    }
  });
});

describe('shutting down', () => {
  it('ends open streams so the app closes at once', async () => {
    const own = await createTestApp();
    await createUser(own.db, { email: ADMIN, role: 'admin' });
    const cookie = await sessionCookie(own, ADMIN);
    await own.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (own.app.server.address() as AddressInfo).port;
    const streams = await Promise.all(
      [1, 2, 3].map(() => openSse(`http://127.0.0.1:${port}/api/results/stream`, cookie)),
    );
    await streams[0]!.next((e) => e.event === 'resultados');
    const started = Date.now();
    await own.close();
    await Promise.all(streams.map((s) => s.ended));
    // It takes a few milliseconds; a stream left open would hold the close until the test's time ran
    // out. 10 s tells the two apart on any machine.
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

/** Waits for `promise`, or fails after `ms` (a generous bound, not a speed goal). */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms).unref()),
  ]);
}

/** Unvoted records in the validator's municipality, ready to vote on. */
async function seedAndList(count: number): Promise<number[]> {
  const { firstId } = await seedSyntheticResults(t.db.kysely, {
    departments: [SLUG],
    unvoted: count,
    label: testDialect,
  });
  const ids = (await unvotedRecordIds(t.db.kysely, SLUG, 100_000)).filter((id) => id >= firstId);
  expect(ids).toHaveLength(count);
  return ids;
}
