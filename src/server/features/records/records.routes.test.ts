import { afterEach, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import { addRecords, PEOPLE, SLUG_A, SLUG_B, signInPeople } from '#server/testing/records';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { createRecordsRepository } from './records.repository';

let t: TestApp;
afterEach(async () => t?.close());

type Cookies = Awaited<ReturnType<typeof signInPeople>>;

async function setup(): Promise<Cookies> {
  t = await createTestApp();
  return signInPeople(t);
}

const vote = (slug: string, id: number, candidates: unknown, cookie?: string) =>
  t.request({
    method: 'POST',
    url: `/api/validation/${slug}/records/${id}/vote`,
    headers: cookie ? { cookie } : {},
    payload: candidates === undefined ? {} : { candidates },
  });

async function totals() {
  const repo = createRecordsRepository(t.db.kysely);
  const candidates = await repo.listCandidates();
  const code = new Map(candidates.map((c) => [c.id, c.code]));
  const byCode: Record<string, number> = {};
  for (const row of await repo.candidateTotals()) {
    const c = code.get(row.candidate_id) ?? '?';
    byCode[c] = (byCode[c] ?? 0) + row.votes;
  }
  const ballots = (await repo.voteTotals()).reduce((n, r) => n + r.ballots, 0);
  return { ballots, ...byCode };
}

describe('GET /api/validation/:slug/records', () => {
  it('lists the department’s pending records 100 at a time, every one reachable by the cursor', async () => {
    const c = await setup();
    const ids = await addRecords(t, SLUG_A, 250);
    await addRecords(t, SLUG_A, [{ nombre: 'Anulada', status: 'anulado' }]);
    await addRecords(t, SLUG_B, [{ nombre: 'De otro municipio' }]);

    const seen: number[] = [];
    let after: number | null = null;
    for (let page = 0; page < 5; page++) {
      const res = await t.request({
        url: `/api/validation/${SLUG_A}/records${after === null ? '' : `?after=${after}`}`,
        headers: { cookie: c.validatorA },
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.items.length).toBeLessThanOrEqual(100);
      seen.push(...body.items.map((r: { id: number }) => r.id));
      after = body.nextCursor;
      if (after === null) break;
    }
    expect(seen).toEqual(ids);
    const first = (
      await t.request({ url: `/api/validation/${SLUG_A}/records?limit=1`, headers: { cookie: c.validatorA } })
    ).json().items[0];
    expect(first).toEqual({
      id: ids[0],
      comunidad: 'Sector 1',
      nombre: 'Persona 1',
      ubch: 'UBCH 110100000',
      telefono: '0414-1000000',
      status: 'pendiente',
      votedAt: null,
      votes: [],
      photos: { gobernador: null, an: null, clez: null },
      validated: false,
      voteCorrected: false,
    });
  });

  it('finds records by name without accents, by phone with or without dashes, by community and UBCH', async () => {
    const c = await setup();
    await addRecords(t, SLUG_A, [
      {
        nombre: 'María Pérez Urdaneta',
        telefono: '0414-5551234',
        comunidad: 'Barrio Los Olivos',
        ubch: 'UBCH 110201001',
      },
      { nombre: 'José Finol', telefono: '0424-7778899', comunidad: 'Sector La Pomona', ubch: 'UBCH 110201002' },
      { nombre: 'Cien_por%ciento', telefono: '0412-0000000', comunidad: 'Caserío El Milagro', ubch: 'UBCH 9' },
    ]);
    const names = async (q: string) =>
      (
        await t.request({
          url: `/api/validation/${SLUG_A}/records?q=${encodeURIComponent(q)}`,
          headers: { cookie: c.validatorA },
        })
      )
        .json()
        .items.map((r: { nombre: string }) => r.nombre);
    expect(await names('maria perez')).toEqual(['María Pérez Urdaneta']);
    expect(await names('PÉREZ')).toEqual(['María Pérez Urdaneta']);
    expect(await names('04145551234')).toEqual(['María Pérez Urdaneta']);
    expect(await names('0424-777')).toEqual(['José Finol']);
    expect(await names('pomona')).toEqual(['José Finol']);
    expect(await names('110201001')).toEqual(['María Pérez Urdaneta']);
    expect(await names('%')).toEqual(['Cien_por%ciento']);
    expect(await names('_')).toEqual(['Cien_por%ciento']);
    expect(await names('nadie así')).toEqual([]);
    expect(await names('  ')).toHaveLength(3);
  });

  it('leaves validated records out unless asked for them', async () => {
    const c = await setup();
    const [done, open] = await addRecords(t, SLUG_A, 2);
    await t.db.kysely
      .updateTable('records')
      .set({ completed: 1 })
      .where('id', '=', done as number)
      .execute();
    const list = async (query: string) =>
      (await t.request({ url: `/api/validation/${SLUG_A}/records${query}`, headers: { cookie: c.validatorA } }))
        .json()
        .items.map((r: { id: number }) => r.id);
    expect(await list('')).toEqual([open]);
    expect(await list('?validated=1')).toEqual([done, open]);
  });

  it('answers 401 to visitors and the same 404 for another department, a staff page or an unknown one', async () => {
    const c = await setup();
    await addRecords(t, SLUG_B, 1);
    expect((await t.request({ url: `/api/validation/${SLUG_A}/records` })).statusCode).toBe(401);
    const other = await t.request({ url: `/api/validation/${SLUG_B}/records`, headers: { cookie: c.validatorA } });
    const page = await t.request({ url: '/api/validation/resultados/records', headers: { cookie: c.admin } });
    const unknown = await t.request({ url: '/api/validation/no-existe/records', headers: { cookie: c.validatorA } });
    expect([other.statusCode, page.statusCode, unknown.statusCode]).toEqual([404, 404, 404]);
    expect(other.body).toBe(unknown.body);
    expect(page.body).toBe(unknown.body);
  });

  it('refuses malformed paging and search input in Spanish', async () => {
    const c = await setup();
    for (const query of ['?limit=0', '?limit=101', '?after=-1', `?q=${'x'.repeat(101)}`, '?validated=quizas']) {
      const res = await t.request({
        url: `/api/validation/${SLUG_A}/records${query}`,
        headers: { cookie: c.validatorA },
      });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message).not.toMatch(/Invalid|expected/);
    }
  });
  it('shows a vote and an admin correction at once, even right after the same page was read', async () => {
    const c = await setup();
    const [first, second] = await addRecords(t, SLUG_A, [
      { nombre: 'Primera', comunidad: 'C1', ubch: 'U1', telefono: '0414-1111111' },
      { nombre: 'Segunda', comunidad: 'C2', ubch: 'U2', telefono: '0414-2222222' },
    ]);
    const list = async () => {
      const res = await t.request({ url: `/api/validation/${SLUG_A}/records`, headers: { cookie: c.validatorA } });
      expect(res.statusCode).toBe(200);
      return res.json().items as { id: number; nombre: string; votes: string[] }[];
    };
    expect((await list()).find((r) => r.id === first)?.votes).toEqual([]);
    expect((await vote(SLUG_A, first!, ['FA'], c.validatorA)).statusCode).toBe(201);
    expect((await list()).find((r) => r.id === first)?.votes).toEqual(['FA']);

    const fix = await t.request({
      method: 'PUT',
      url: `/api/admin/records/${second}`,
      headers: { cookie: c.admin },
      payload: {
        department: SLUG_A,
        comunidad: 'C2',
        nombre: 'Segunda Corregida',
        ubch: 'U2',
        telefono: '0414-2222222',
      },
    });
    expect(fix.statusCode).toBe(200);
    expect((await list()).find((r) => r.id === second)?.nombre).toBe('Segunda Corregida');
  });
});

describe('GET /api/validation/:slug/summary', () => {
  it('counts pending records, votes and fully validated ones', async () => {
    const c = await setup();
    const [a, b] = await addRecords(t, SLUG_A, 4);
    await addRecords(t, SLUG_A, [{ status: 'anulado' }]);
    await vote(SLUG_A, a as number, ['FA'], c.validatorA);
    await t.db.kysely
      .updateTable('records')
      .set({ completed: 1, voted_at: new Date().toISOString() })
      .where('id', '=', b as number)
      .execute();
    // Written behind the app's back: the counts only know after a recount.
    const summary = async () =>
      (await t.request({ url: `/api/validation/${SLUG_A}/summary`, headers: { cookie: c.validatorA } })).json();
    expect(await summary()).toEqual({ total: 4, voted: 1, validated: 0 });
    await createRecordsRepository(t.db.kysely).recountProgress();
    expect(await summary()).toEqual({ total: 4, voted: 2, validated: 1 });
  });
});

describe('POST /api/validation/:slug/records/:id/vote', () => {
  it('records the ticked candidates once, moves the counters and writes an audit row', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const res = await vote(SLUG_A, id, ['nr', 'FA'], c.validatorA);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.message).toBe('Votaste con éxito');
    expect(body.record).toMatchObject({ id, votes: ['FA', 'NR'], validated: false });
    expect(body.record.votedAt).toEqual(expect.any(String));
    expect(await totals()).toEqual({ ballots: 1, FA: 1, NR: 1 });

    const audit = await listAudit(t.db.kysely, { action: 'record.vote' });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_email: PEOPLE.validatorA, department_slug: SLUG_A, target: `record:${id}` });
    expect(JSON.parse(audit[0]?.details ?? '{}')).toEqual({ candidates: ['FA', 'NR'] });

    const again = await vote(SLUG_A, id, ['LC'], c.validatorA);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Este trámite ya fue votado.');
    expect(await totals()).toEqual({ ballots: 1, FA: 1, NR: 1 });
    expect(await listAudit(t.db.kysely, { action: 'record.vote' })).toHaveLength(1);
  });

  it('accepts a vote for no candidate: the record counts as voted, no candidate moves', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const res = await vote(SLUG_A, id, [], c.validatorA);
    expect(res.statusCode).toBe(201);
    expect(res.json().record.votes).toEqual([]);
    expect(res.json().record.votedAt).not.toBeNull();
    expect(await totals()).toEqual({ ballots: 1 });
    expect((await vote(SLUG_A, id, ['FA'], c.validatorA)).statusCode).toBe(409);
  });

  it('refuses codes outside the candidates table, repeated codes and bodies without the list, changing nothing', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const unknown = await vote(SLUG_A, id, ['FA', 'XX'], c.validatorA);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('El candidato XX no existe.');
    expect((await vote(SLUG_A, id, ['FA', 'fa'], c.validatorA)).statusCode).toBe(400);
    expect((await vote(SLUG_A, id, undefined, c.validatorA)).statusCode).toBe(400);
    expect((await vote(SLUG_A, id, 'FA', c.validatorA)).statusCode).toBe(400);
    expect((await vote(SLUG_A, id, [1], c.validatorA)).statusCode).toBe(400);
    const empty = await t.request({
      method: 'POST',
      url: `/api/validation/${SLUG_A}/records/${id}/vote`,
      headers: { cookie: c.validatorA, 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.statusCode).toBe(400);
    expect(await totals()).toEqual({ ballots: 0 });
    const record = await createRecordsRepository(t.db.kysely).findInDepartment(
      (await createRecordsRepository(t.db.kysely).listMunicipalities()).find((d) => d.slug === SLUG_A)?.id ?? 0,
      id,
    );
    expect(record?.voted_at).toBeNull();
    // Still open: the refused attempts did not use up the vote.
    expect((await vote(SLUG_A, id, ['LC'], c.validatorA)).statusCode).toBe(201);
  });

  it('gives the same 404 for an unknown id, another department’s record and a record of a department not one’s own', async () => {
    const c = await setup();
    const [idA] = (await addRecords(t, SLUG_A, 1)) as [number];
    const [idB] = (await addRecords(t, SLUG_B, 1)) as [number];
    const [annulled] = (await addRecords(t, SLUG_A, [{ status: 'anulado' }])) as [number];
    const unknown = await vote(SLUG_A, 999_999, ['FA'], c.validatorA);
    const otherRecord = await vote(SLUG_A, idB, ['FA'], c.validatorA);
    const otherDepartment = await vote(SLUG_B, idB, ['FA'], c.validatorA);
    const wrongSlugForRecord = await vote(SLUG_B, idA, ['FA'], c.validatorB);
    const annulledRes = await vote(SLUG_A, annulled, ['FA'], c.validatorA);
    for (const res of [unknown, otherRecord, annulledRes]) {
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(unknown.body);
    }
    expect(otherDepartment.statusCode).toBe(404);
    expect(wrongSlugForRecord.statusCode).toBe(404);
    expect((await vote(SLUG_A, idA, ['FA'])).statusCode).toBe(401);
    expect(await totals()).toEqual({ ballots: 0 });
  });

  it('lets exactly one of 50 concurrent votes on a record win; the other 49 get 409', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const codes = ['FA', 'LC', 'NR'];
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => vote(SLUG_A, id, [codes[i % 3]], i % 2 ? c.validatorA : c.admin)),
    );
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const winner = answers.find((r) => r.statusCode === 201)?.json().record.votes as string[];
    expect(await totals()).toEqual({ ballots: 1, [winner[0] as string]: 1 });
    const repo = createRecordsRepository(t.db.kysely);
    expect(await repo.votesOf(id)).toHaveLength(1);
    expect(await listAudit(t.db.kysely, { action: 'record.vote' })).toHaveLength(1);
    const summary = await t.request({ url: `/api/validation/${SLUG_A}/summary`, headers: { cookie: c.validatorA } });
    expect(summary.json()).toEqual({ total: 1, voted: 1, validated: 0 });
  });

  it('counts votes on distinct records under concurrency without losing one', async () => {
    const c = await setup();
    const ids = await addRecords(t, SLUG_A, 40);
    const answers = await Promise.all(ids.map((id) => vote(SLUG_A, id, ['FA', 'LC'], c.validatorA)));
    expect(answers.every((r) => r.statusCode === 201)).toBe(true);
    expect(await totals()).toEqual({ ballots: 40, FA: 40, LC: 40 });
    const summary = await t.request({ url: `/api/validation/${SLUG_A}/summary`, headers: { cookie: c.validatorA } });
    expect(summary.json()).toEqual({ total: 40, voted: 40, validated: 0 });
  });
});

describe('GET /api/candidates', () => {
  it('gives signed-in people the ballot’s candidates in order; visitors get 401', async () => {
    const c = await setup();
    expect((await t.request({ url: '/api/candidates' })).statusCode).toBe(401);
    const res = await t.request({ url: '/api/candidates', headers: { cookie: c.validatorB } });
    expect(res.json().items.map((x: { code: string }) => x.code)).toEqual(['FA', 'LC', 'NR']);
    expect(res.json().items[0]).toEqual({
      code: 'FA',
      name: expect.any(String),
      colour: expect.stringMatching(/^#/),
      photoUrl: expect.any(String),
    });
  });
});
