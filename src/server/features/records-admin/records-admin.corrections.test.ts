import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRecordsRepository } from '#server/core/records/records.repository';
import { listAudit } from '#server/platform/audit/audit.repository';
import { createUser, loginAs } from '#server/testing/auth-helpers';
import { addStoredPhoto } from '#server/testing/photos';
import { addRecords } from '#server/testing/records';
import { checkTotals } from '#server/testing/results';
import { openSse, votesIn } from '#server/testing/sse';
import { createTestApp, type TestApp } from '#server/testing/test-app';

let t: TestApp;
afterEach(async () => t?.close());

const ADMIN = 'jefa@example.org';
const VALIDATOR = 'validador@example.org';

/** An admin, and a validator of Cabimas; their cookies. */
async function setup() {
  t = await createTestApp();
  await createUser(t.db, { email: ADMIN, role: 'admin' });
  await createUser(t.db, { email: VALIDATOR, role: 'staff', departments: ['cabimas'] });
  return { admin: await loginAs(t, ADMIN), validator: await loginAs(t, VALIDATOR) };
}

async function summary(slug: string) {
  const repo = createRecordsRepository(t.db.kysely);
  const department = (await repo.listMunicipalities()).find((d) => d.slug === slug);
  return repo.summary(department?.id as number);
}

const vote = (cookie: string, id: number, candidates: string[]) =>
  t.request({
    method: 'POST',
    url: `/api/validation/cabimas/records/${id}/vote`,
    headers: { cookie },
    payload: { candidates },
  });
const correct = (cookie: string, id: number, payload: object) =>
  t.request({ method: 'PUT', url: `/api/admin/records/${id}/vote`, headers: { cookie }, payload });
const post = (cookie: string, url: string, payload: object) =>
  t.request({ method: 'POST', url, headers: { cookie }, payload });

/** What the Resultados page shows, without the time it was computed. */
async function results(cookie: string) {
  const { computedAt: _at, ...rest } = (await t.request({ url: '/api/results', headers: { cookie } })).json();
  return rest;
}
const votesOf = async (cookie: string) =>
  Object.fromEntries(
    ((await results(cookie)).candidates as { code: string; votes: number }[]).map((c) => [c.code, c.votes]),
  );
const cardOf = async (cookie: string, id: number) =>
  (await t.request({ url: '/api/validation/cabimas/records?validated=1', headers: { cookie } }))
    .json()
    .items.find((r: { id: number }) => r.id === id);

describe('vote corrections', () => {
  it('moves the results and the counters exactly once, writes before and after, and the card shows it', async () => {
    const cookies = await setup();
    const [first, second] = (await addRecords(t, 'cabimas', 2)) as [number, number];
    expect((await vote(cookies.validator, first, ['FA'])).statusCode).toBe(201);
    expect((await vote(cookies.validator, second, ['LC'])).statusCode).toBe(201);
    expect(await votesOf(cookies.admin)).toEqual({ FA: 1, LC: 1, NR: 0 });

    const res = await correct(cookies.admin, first, {
      candidates: ['nr', 'LC'],
      reason: 'Marcó LC y NR en la boleta',
      voteRevision: 1,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Voto corregido: los resultados ya lo reflejan.',
      record: { id: first, votes: ['LC', 'NR'], status: 'pendiente', voteCounts: true, voteRevision: 2 },
    });
    expect(await votesOf(cookies.admin)).toEqual({ FA: 0, LC: 2, NR: 1 });
    expect((await results(cookies.admin)).ballots).toBe(2);
    expect(await summary('cabimas')).toEqual({ total: 2, voted: 2, validated: 0 });
    expect((await checkTotals(t.db.kysely)).differences).toEqual([]);

    // The same correction again changes nothing: nothing is counted twice.
    const again = await correct(cookies.admin, first, {
      candidates: ['LC', 'NR'],
      reason: 'Otra vez',
      voteRevision: 2,
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('El voto corregido es igual al actual: no hay nada que cambiar.');
    expect(await votesOf(cookies.admin)).toEqual({ FA: 0, LC: 2, NR: 1 });

    const audit = await listAudit(t.db.kysely, { action: 'record.vote.correct' });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_email: ADMIN, department_slug: 'cabimas', target: `record:${first}` });
    expect(JSON.parse(audit[0]?.details as string)).toEqual({
      before: { candidates: ['FA'], votedBy: VALIDATOR },
      after: { candidates: ['LC', 'NR'] },
      reason: 'Marcó LC y NR en la boleta',
    });

    // The validator's card shows the corrected vote (the list's cache let go of the old page).
    expect(await cardOf(cookies.validator, first)).toMatchObject({ votes: ['LC', 'NR'], voteCorrected: true });
    expect(await cardOf(cookies.validator, second)).toMatchObject({ votes: ['LC'], voteCorrected: false });

    // A vote for nobody is a correction too: the ballot stays, its candidates go.
    expect(
      (await correct(cookies.admin, second, { candidates: [], reason: 'Boleta en blanco', voteRevision: 1 }))
        .statusCode,
    ).toBe(200);
    expect(await votesOf(cookies.admin)).toEqual({ FA: 0, LC: 1, NR: 1 });
    expect((await results(cookies.admin)).ballots).toBe(2);
    expect((await checkTotals(t.db.kysely)).differences).toEqual([]);
  });

  it('clears a vote: the ballot leaves the results and the progress, and the record can be voted again', async () => {
    const cookies = await setup();
    const [id] = (await addRecords(t, 'cabimas', 1)) as [number];
    expect((await vote(cookies.validator, id, ['FA', 'NR'])).statusCode).toBe(201);
    for (const kind of ['gobernador', 'an', 'clez'] as const) await addStoredPhoto(t, id, kind);
    expect(await summary('cabimas')).toEqual({ total: 1, voted: 1, validated: 1 });

    const res = await correct(cookies.admin, id, {
      candidates: null,
      reason: 'Votó la persona equivocada',
      voteRevision: 1,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Voto borrado: el trámite vuelve a estar sin votar.',
      record: { votedAt: null, votes: [], photos: 3, validated: false },
    });
    expect(await votesOf(cookies.admin)).toEqual({ FA: 0, LC: 0, NR: 0 });
    expect((await results(cookies.admin)).ballots).toBe(0);
    expect(await summary('cabimas')).toEqual({ total: 1, voted: 0, validated: 0 });
    expect(await cardOf(cookies.validator, id)).toMatchObject({ votedAt: null, votes: [], validated: false });
    expect((await checkTotals(t.db.kysely)).differences).toEqual([]);
    const [audit] = await listAudit(t.db.kysely, { action: 'record.vote.correct' });
    expect(JSON.parse(audit?.details as string)).toMatchObject({
      before: { candidates: ['FA', 'NR'] },
      after: { candidates: null },
    });

    // Cleared twice is refused: there is no vote left to correct.
    const twice = await correct(cookies.admin, id, { candidates: null, reason: 'Otra vez', voteRevision: 2 });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('Este registro todavía no tiene voto: lo registra un validador desde su lista.');

    expect((await vote(cookies.validator, id, ['LC'])).statusCode).toBe(201);
    expect(await votesOf(cookies.admin)).toEqual({ FA: 0, LC: 1, NR: 0 });
    expect(await summary('cabimas')).toEqual({ total: 1, voted: 1, validated: 1 });
    expect((await checkTotals(t.db.kysely)).differences).toEqual([]);
  });

  it('is refused to a validator of the department, and without a reason, and changes nothing', async () => {
    const cookies = await setup();
    const [id] = (await addRecords(t, 'cabimas', 1)) as [number];
    expect((await vote(cookies.validator, id, ['FA'])).statusCode).toBe(201);
    const before = await results(cookies.admin);

    const asValidator = await correct(cookies.validator, id, {
      candidates: ['LC'],
      reason: 'Me equivoqué',
      voteRevision: 1,
    });
    expect(asValidator.statusCode).toBe(404);
    const asVisitor = await t.request({
      method: 'PUT',
      url: `/api/admin/records/${id}/vote`,
      payload: { candidates: ['LC'], reason: 'x', voteRevision: 1 },
    });
    expect(asVisitor.statusCode).toBe(401);
    // Voting again through the validator's own route is not a correction either.
    expect((await vote(cookies.validator, id, ['LC'])).statusCode).toBe(409);

    const noReason = await correct(cookies.admin, id, { candidates: ['LC'], reason: '   ', voteRevision: 1 });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe('Escribe el motivo: queda en el registro de auditoría.');
    const unknown = await correct(cookies.admin, id, { candidates: ['XX'], reason: 'Prueba', voteRevision: 1 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('El candidato XX no existe.');

    expect(await results(cookies.admin)).toEqual(before);
    expect(await cardOf(cookies.validator, id)).toMatchObject({ votes: ['FA'], voteCorrected: false });
    expect(await listAudit(t.db.kysely, { action: 'record.vote.correct' })).toEqual([]);
  });

  it('of two corrections of the same vote sent at once, one applies and the other is refused with the vote as it is now', async () => {
    const cookies = await setup();
    const [id] = (await addRecords(t, 'cabimas', 1)) as [number];
    expect((await vote(cookies.validator, id, ['FA'])).statusCode).toBe(201);
    const answers = await Promise.all([
      correct(cookies.admin, id, { candidates: ['LC'], reason: 'Primera', voteRevision: 1 }),
      correct(cookies.admin, id, { candidates: null, reason: 'Segunda', voteRevision: 1 }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const [applied, refused] = answers[0]?.statusCode === 200 ? answers : [answers[1], answers[0]];
    expect(refused?.json()).toMatchObject({
      message: 'El voto de este registro cambió mientras lo corregías. Revisa el voto actual y vuelve a intentarlo.',
      record: { id, voteRevision: 2, votes: applied?.json().record.votes },
    });
    const audit = await listAudit(t.db.kysely, { action: 'record.vote.correct' });
    expect(audit).toHaveLength(1);
    expect((await checkTotals(t.db.kysely)).differences).toEqual([]);
  });

  it('refuses a correction of a vote that was written again since it was read, even one after the other', async () => {
    const cookies = await setup();
    const [id] = (await addRecords(t, 'cabimas', 1)) as [number];
    expect((await vote(cookies.validator, id, ['FA'])).statusCode).toBe(201);
    expect(
      (await correct(cookies.admin, id, { candidates: ['LC'], reason: 'Primera', voteRevision: 1 })).statusCode,
    ).toBe(200);
    // A second admin, who opened the record before the first correction, corrects the validator's vote.
    const late = await correct(cookies.admin, id, { candidates: ['NR'], reason: 'Segunda', voteRevision: 1 });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      message: 'El voto de este registro cambió mientras lo corregías. Revisa el voto actual y vuelve a intentarlo.',
      record: { id, votes: ['LC'], voteRevision: 2 },
    });
    expect(await votesOf(cookies.admin)).toEqual({ FA: 0, LC: 1, NR: 0 });
    // Without the revision the correction is refused too: it must say which vote it corrects.
    const unnamed = await correct(cookies.admin, id, { candidates: ['NR'], reason: 'Sin versión' });
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json().message).toBe(
      'Falta la versión del voto que corriges. Vuelve a abrir el registro e intenta de nuevo.',
    );
    expect(await listAudit(t.db.kysely, { action: 'record.vote.correct' })).toHaveLength(1);
  });

  it('reaches the live results stream', async () => {
    const cookies = await setup();
    const [id] = (await addRecords(t, 'cabimas', 1)) as [number];
    expect((await vote(cookies.validator, id, ['FA'])).statusCode).toBe(201);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const stream = await openSse(`${origin}/api/results/stream`, cookies.admin);
    try {
      expect(votesIn(await stream.next((e) => e.event === 'resultados'), 'FA')).toBe(1);
      expect(
        (await correct(cookies.admin, id, { candidates: ['NR'], reason: 'Corrección', voteRevision: 1 })).statusCode,
      ).toBe(200);
      // 5 s: far above the stream's 250 ms poll, so a slow machine does not fail it (timing: e2e).
      const update = await stream.next((e) => votesIn(e, 'NR') === 1, 5_000);
      expect(votesIn(update, 'FA')).toBe(0);
    } finally {
      stream.close();
    }
  });
});

describe('voiding and restoring', () => {
  it('voiding with "no longer counts" then restoring returns the results to where they were', async () => {
    const cookies = await setup();
    const [done, other] = (await addRecords(t, 'cabimas', 2)) as [number, number];
    expect((await vote(cookies.validator, done, ['FA', 'LC'])).statusCode).toBe(201);
    expect((await vote(cookies.validator, other, ['FA'])).statusCode).toBe(201);
    for (const kind of ['gobernador', 'an', 'clez'] as const) await addStoredPhoto(t, done, kind);
    const before = { results: await results(cookies.admin), progress: await summary('cabimas') };
    expect(before.progress).toEqual({ total: 2, voted: 2, validated: 1 });
    const csvNames = async () =>
      (await t.request({ url: '/api/results/validated.csv', headers: { cookie: cookies.admin } })).body
        .split('\r\n')
        .slice(1)
        .filter(Boolean)
        .map((line) => line.split(';')[4]);
    expect(await csvNames()).toEqual(['Persona 1', 'Persona 2']);

    // No choice sent: the vote no longer counts (the default).
    const voided = await post(cookies.admin, `/api/admin/records/${done}/void`, { reason: 'Persona repetida' });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(voided.json().record).toMatchObject({ status: 'anulado', votes: ['FA', 'LC'], voteCounts: false });
    expect(await votesOf(cookies.admin)).toEqual({ FA: 1, LC: 0, NR: 0 });
    expect((await results(cookies.admin)).ballots).toBe(1);
    expect(await summary('cabimas')).toEqual({ total: 1, voted: 1, validated: 0 });
    expect((await checkTotals(t.db.kysely)).differences).toEqual([]);
    // The download of the votes leaves it out too.
    expect(await csvNames()).toEqual(['Persona 2']);

    const restored = await post(cookies.admin, `/api/admin/records/${done}/restore`, { reason: 'No era repetida' });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({
      message: 'Registro restaurado: vuelve a la lista de validación.',
      record: { status: 'pendiente', votes: ['FA', 'LC'], validated: true, voteCounts: true },
    });
    expect(await results(cookies.admin)).toEqual(before.results);
    expect(await summary('cabimas')).toEqual(before.progress);
    expect((await checkTotals(t.db.kysely)).differences).toEqual([]);
    expect(await cardOf(cookies.validator, done)).toMatchObject({ votes: ['FA', 'LC'], validated: true });

    const [voidRow] = await listAudit(t.db.kysely, { action: 'record.void' });
    expect(JSON.parse(voidRow?.details as string)).toMatchObject({
      voted: true,
      voteCounts: false,
      reason: 'Persona repetida',
    });
    const [restoreRow] = await listAudit(t.db.kysely, { action: 'record.restore' });
    expect(restoreRow).toMatchObject({ actor_email: ADMIN, target: `record:${done}` });
    expect(JSON.parse(restoreRow?.details as string)).toMatchObject({
      voteCountsAgain: true,
      reason: 'No era repetida',
    });

    const twice = await post(cookies.admin, `/api/admin/records/${done}/restore`, { reason: 'Otra vez' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('Este registro no está anulado.');
  });

  it('voiding with "still counts" keeps the vote in the results, before and after a restore', async () => {
    const cookies = await setup();
    const [id] = (await addRecords(t, 'cabimas', 1)) as [number];
    expect((await vote(cookies.validator, id, ['NR'])).statusCode).toBe(201);
    const before = await results(cookies.admin);
    const voided = await post(cookies.admin, `/api/admin/records/${id}/void`, {
      reason: 'Se mudó',
      voteCounts: true,
    });
    expect(voided.json().record).toMatchObject({ status: 'anulado', voteCounts: true });
    expect(await results(cookies.admin)).toEqual(before);
    expect(await summary('cabimas')).toEqual({ total: 0, voted: 0, validated: 0 });
    // A voided record's vote is not corrected: it is restored first.
    const fix = await correct(cookies.admin, id, { candidates: ['FA'], reason: 'x', voteRevision: 1 });
    expect(fix.statusCode).toBe(409);
    expect(fix.json().message).toBe('Este registro está anulado: restáuralo antes de corregir su voto.');

    expect((await post(cookies.admin, `/api/admin/records/${id}/restore`, { reason: 'Volvió' })).statusCode).toBe(200);
    expect(await results(cookies.admin)).toEqual(before);
    expect(await summary('cabimas')).toEqual({ total: 1, voted: 1, validated: 0 });
    expect((await checkTotals(t.db.kysely)).differences).toEqual([]);
  });

  it('asks for the reason, and a validator can neither void nor restore', async () => {
    const cookies = await setup();
    const [id] = (await addRecords(t, 'cabimas', 1)) as [number];
    const noReason = await post(cookies.admin, `/api/admin/records/${id}/void`, {});
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe('Escribe el motivo: queda en el registro de auditoría.');
    expect((await post(cookies.validator, `/api/admin/records/${id}/void`, { reason: 'x' })).statusCode).toBe(404);
    expect((await post(cookies.admin, `/api/admin/records/${id}/void`, { reason: 'Duplicado' })).statusCode).toBe(200);
    expect((await post(cookies.validator, `/api/admin/records/${id}/restore`, { reason: 'x' })).statusCode).toBe(404);
    expect(await summary('cabimas')).toEqual({ total: 0, voted: 0, validated: 0 });
  });
});
