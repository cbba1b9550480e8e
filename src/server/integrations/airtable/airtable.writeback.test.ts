import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app';
import { createRecordsRepository } from '#server/core/records/records.repository';
import type { Config } from '#server/platform/config/config';
import { seedReferenceData } from '#server/platform/db/seed/reference';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { fixture, uploadPhoto } from '#server/testing/photos';
import {
  createTestDb,
  setElectionPhase,
  TEST_ORIGIN,
  type TestApp,
  type TestDb,
  testConfig,
} from '#server/testing/test-app';
import {
  type AirtableContractServer,
  airtableId,
  makeAirtableRecords,
  startAirtableContractServer,
} from '#tests/support/airtable-contract-server';
import { createAirtableClient } from './airtable.client';
import type { AirtableWritebackOverrides } from './airtable.writeback';
import { createWritebackWorker } from './airtable.writeback';
import { createAirtableOutboxRepository } from './airtable-outbox.repository';

const VALIDATOR = 'validadora@example.org';
const SLUG = 'cabimas';

let server: AirtableContractServer | undefined;
let testDb: TestDb | undefined;
const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  await testDb?.destroy();
  await server?.close();
  server = undefined;
  testDb = undefined;
});

/** Quick polls and short backoff, so a test sees several attempts in well under a second. */
const FAST: AirtableWritebackOverrides = { pollMs: 50, backoffBaseMs: 50, backoffMaxMs: 200, leaseMs: 5_000 };

function configFor(s: AirtableContractServer, db: TestDb, overrides: Partial<Config['airtable']> = {}): Config {
  return testConfig({
    ...db.options,
    airtable: {
      token: s.token,
      baseId: s.baseId,
      recordsTable: 'Zulia',
      agendaTable: 'agenda',
      apiUrl: s.url,
      writeback: true,
      ...overrides,
    },
  });
}

/** An app on the shared test database, as TestApp (inject with Origin, close). */
async function startApp(config: Config, overrides: AirtableWritebackOverrides = FAST): Promise<TestApp> {
  const db = testDb as TestDb;
  const app = await buildApp(config, { db: db.db, logger: false, airtableWriteback: overrides });
  await app.ready();
  // The day under way: the validators vote.
  await setElectionPhase(db.db, 'en_curso', new Date());
  apps.push(app);
  return {
    app,
    db: db.db,
    config,
    request(options) {
      const method = (options.method ?? 'GET').toUpperCase();
      const headers = { ...(method === 'GET' ? {} : { origin: TEST_ORIGIN }), ...options.headers };
      return app.inject({ ...options, headers });
    },
    async close() {
      apps.splice(apps.indexOf(app), 1);
      await app.close();
    },
  };
}

/**
 * An Airtable base with `n` records of Cabimas, the same records imported into Comando (source ids
 * `airtable:rec…`) plus one record created in Comando; a validator of Cabimas.
 */
async function setup(n: number) {
  server = await startAirtableContractServer({
    tables: { Zulia: makeAirtableRecords(n, { slugs: [SLUG] }), agenda: [] },
  });
  testDb = await createTestDb({ migrated: true });
  await seedReferenceData(testDb.db, new Date());
  const repo = createRecordsRepository(testDb.db.kysely);
  const cabimas = (await repo.listMunicipalities()).find((d) => d.slug === SLUG);
  const ids = await repo.insertMany(
    [
      ...server.table('Zulia').map((r) => ({
        departmentId: cabimas?.id as number,
        sourceId: `airtable:${r.id}`,
        comunidad: String(r.fields.Comunidades),
        nombre: String(r.fields.Nombre),
        ubch: String(r.fields.UBCH),
        telefono: String(r.fields.Telefono),
      })),
      {
        departmentId: cabimas?.id as number,
        comunidad: 'Aquí',
        nombre: 'Creada en Comando',
        ubch: '1',
        telefono: '0414-7654321',
      },
    ],
    new Date(),
  );
  await createUser(testDb.db, { email: VALIDATOR, role: 'staff', departments: [SLUG] });
  return { s: server, ids, localId: ids.at(-1) as number };
}

async function vote(t: TestApp, cookie: string, recordId: number, candidates: string[]) {
  const res = await t.request({
    method: 'POST',
    url: `/api/validation/${SLUG}/records/${recordId}/vote`,
    headers: { cookie },
    payload: { candidates },
  });
  expect(res.statusCode).toBe(201);
}

async function outbox(t: TestApp) {
  return t.db.kysely.selectFrom('airtable_outbox').selectAll().orderBy('id').execute();
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`No ocurrió a tiempo: ${what}`);
}

/** The PATCHed values of one Airtable record, in order. */
const patchesOf = (s: AirtableContractServer, id: string) =>
  s.patches.flatMap((p) => p.records.filter((r) => r.id === id).map((r) => r.fields));

describe('Airtable write-back', () => {
  it('sends a vote made while Airtable is unreachable once it comes back, exactly once', async () => {
    const { s, ids } = await setup(3);
    const t = await startApp(configFor(s, testDb as TestDb));
    const cookie = await sessionCookie(t, VALIDATOR);

    s.mode = 'down';
    await vote(t, cookie, ids[1] as number, ['LC', 'FA']);
    // The vote does not wait for Airtable: it is in the outbox, and the worker keeps trying.
    await waitFor(async () => ((await outbox(t))[0]?.attempts ?? 0) >= 3, 'three failed attempts');
    const waiting = (await outbox(t))[0];
    expect(waiting).toMatchObject({ airtable_id: airtableId(2), field: 'voto', value: 'FA,LC', state: 'pending' });
    expect(waiting?.last_error).toMatch(/No se pudo hablar con Airtable/);
    expect(s.patches).toEqual([]);

    s.mode = 'ok';
    await waitFor(async () => (await outbox(t))[0]?.state === 'sent', 'the change acknowledged');
    await new Promise((r) => setTimeout(r, 300)); // several more polls: nothing else leaves
    expect(patchesOf(s, airtableId(2))).toEqual([{ voto: 'FA,LC' }]);
    expect(s.patches).toHaveLength(1);
    expect(s.table('Zulia')[1]?.fields.voto).toBe('FA,LC');
    expect((await outbox(t))[0]?.sent_at).not.toBeNull();
  });

  it('sends the corrections and the clear of a vote, and a vote cast again after the clear', async () => {
    const { s, ids } = await setup(1);
    const t = await startApp(configFor(s, testDb as TestDb));
    await createUser(t.db, { email: 'jefa@example.org', role: 'admin' });
    const [cookie, admin] = [await sessionCookie(t, VALIDATOR), await sessionCookie(t, 'jefa@example.org')];
    const id = ids[0] as number;
    const correct = async (candidates: string[] | null, voteRevision: number) => {
      const res = await t.request({
        method: 'PUT',
        url: `/api/admin/records/${id}/vote`,
        headers: { cookie: admin },
        payload: { candidates, reason: 'Corrección', voteRevision },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const sent = (value: string) => async () => (await outbox(t)).some((r) => r.value === value && r.state === 'sent');

    await vote(t, cookie, id, ['FA']);
    await waitFor(sent('FA'), 'the vote sent');
    await correct(['LC'], 1);
    await waitFor(sent('LC'), 'the correction sent');
    await correct(null, 2);
    await waitFor(sent(''), 'the clear sent');
    await vote(t, cookie, id, ['NR']);
    await waitFor(sent('NR'), 'the new vote sent');
    expect((await outbox(t)).map((r) => [r.change_key, r.value])).toEqual([
      [`vote:${id}`, 'FA'],
      [`vote:${id}:2`, 'LC'],
      [`vote:${id}:3`, ''],
      [`vote:${id}:4`, 'NR'],
    ]);
    expect(patchesOf(s, airtableId(1))).toEqual([{ voto: 'FA' }, { voto: 'LC' }, { voto: '' }, { voto: 'NR' }]);
  });

  it('keeps the change through a restart and sends it from the next run of the server', async () => {
    const { s, ids } = await setup(2);
    const config = configFor(s, testDb as TestDb);
    const first = await startApp(config);
    const cookie = await sessionCookie(first, VALIDATOR);
    s.mode = 'error';
    await vote(first, cookie, ids[0] as number, ['NR']);
    await waitFor(async () => ((await outbox(first))[0]?.attempts ?? 0) >= 1, 'a failed attempt');
    await first.close();
    expect((await outbox(first))[0]?.state).toBe('pending');

    s.mode = 'ok';
    const second = await startApp(config);
    await waitFor(async () => (await outbox(second))[0]?.state === 'sent', 'sent after the restart');
    await new Promise((r) => setTimeout(r, 200));
    expect(patchesOf(s, airtableId(1))).toEqual([{ voto: 'NR' }]);
  });

  it('sends photo links too, and leaves records that did not come from Airtable alone', async () => {
    const { s, ids, localId } = await setup(2);
    const t = await startApp(configFor(s, testDb as TestDb));
    const cookie = await sessionCookie(t, VALIDATOR);
    s.mode = 'down';
    await vote(t, cookie, ids[0] as number, ['FA']);
    const res = await uploadPhoto(
      t,
      { slug: SLUG, recordId: ids[0] as number, kind: 'gobernador' },
      { data: fixture('ballot.jpg'), filename: 'foto.jpg', contentType: 'image/jpeg' },
      cookie,
    );
    expect(res.statusCode).toBe(201);
    const photoId = res.json().photo.id as number;
    await vote(t, cookie, localId, ['LC']);
    const queued = await outbox(t);
    expect(queued.map((r) => [r.field, r.value])).toEqual([
      ['voto', 'FA'],
      ['gobernador', `${TEST_ORIGIN}/api/photos/${photoId}`],
    ]);

    s.mode = 'ok';
    await waitFor(async () => (await outbox(t)).every((r) => r.state === 'sent'), 'both sent');
    // Only the Airtable record, each change once (together or apart, as their retries fell due).
    const sent = patchesOf(s, airtableId(1));
    expect(s.patches.flatMap((p) => p.records)).toHaveLength(sent.length);
    expect(sent.filter((f) => 'voto' in f)).toHaveLength(1);
    expect(sent.filter((f) => 'gobernador' in f)).toHaveLength(1);
    expect(Object.assign({}, ...patchesOf(s, airtableId(1)))).toEqual({
      voto: 'FA',
      gobernador: `${TEST_ORIGIN}/api/photos/${photoId}`,
    });
    expect(s.table('Zulia')[0]?.fields).toMatchObject({
      voto: 'FA',
      gobernador: `${TEST_ORIGIN}/api/photos/${photoId}`,
    });
  });

  it('merges the changes of one record into one PATCH record; a newer photo supersedes one not yet sent', async () => {
    const { s, ids } = await setup(2);
    const db = (testDb as TestDb).db.kysely;
    const repo = createAirtableOutboxRepository(db);
    const at = new Date().toISOString();
    const id = ids[0] as number;
    await repo.queue({ recordId: id, field: 'voto', value: 'LC', changeKey: `vote:${id}`, at });
    await repo.queue({
      recordId: id,
      field: 'an',
      value: 'http://comando.test/api/photos/1',
      changeKey: 'photo:1',
      at,
    });
    await repo.queue({
      recordId: id,
      field: 'an',
      value: 'http://comando.test/api/photos/2',
      changeKey: 'photo:2',
      at,
    });
    await repo.queue({ recordId: id, field: 'voto', value: 'LC', changeKey: `vote:${id}`, at }); // the same change again
    const worker = createWritebackWorker({
      db,
      client: createAirtableClient({ token: s.token, baseId: s.baseId, apiUrl: s.url, attempts: 1 }),
      table: 'Zulia',
    });
    expect(await worker.drain()).toEqual({ sent: 2, requests: 1, retrying: 0, failed: 0 });
    expect(s.patches[0]?.records).toEqual([
      { id: airtableId(1), fields: { voto: 'LC', an: 'http://comando.test/api/photos/2' } },
    ]);
    expect(await repo.countByState()).toEqual({ pending: 0, sent: 2, superseded: 1, failed: 0 });
  });

  it('sends at most 10 records per PATCH, each change once, within 5 requests per second', async () => {
    const { s, ids } = await setup(25);
    const t = await startApp(configFor(s, testDb as TestDb));
    const cookie = await sessionCookie(t, VALIDATOR);
    s.mode = 'down';
    for (const id of ids.slice(0, 25)) await vote(t, cookie, id, ['FA']);
    s.mode = 'ok';
    await waitFor(async () => (await outbox(t)).filter((r) => r.state === 'sent').length === 25, 'all 25 sent');
    expect(s.patches.every((p) => p.records.length <= 10)).toBe(true);
    const sent = s.patches.flatMap((p) => p.records.map((r) => r.id));
    expect(sent).toHaveLength(25);
    expect(new Set(sent).size).toBe(25);
    expect(s.maxRequestsInWindow(1_000)).toBeLessThanOrEqual(5);
  });

  it('fills each PATCH with up to 10 records when many changes are due', async () => {
    const { s, ids } = await setup(25);
    const db = (testDb as TestDb).db.kysely;
    const repo = createAirtableOutboxRepository(db);
    const at = new Date().toISOString();
    for (const id of ids.slice(0, 25))
      await repo.queue({ recordId: id, field: 'voto', value: 'FA', changeKey: `vote:${id}`, at });
    const worker = createWritebackWorker({
      db,
      client: createAirtableClient({ token: s.token, baseId: s.baseId, apiUrl: s.url, attempts: 1 }),
      table: 'Zulia',
    });
    expect(await worker.drain()).toEqual({ sent: 25, requests: 3, retrying: 0, failed: 0 });
    expect(s.patches.map((p) => p.records.length)).toEqual([10, 10, 5]);
  });

  it('marks a change Airtable refuses for good as failed without holding back the others', async () => {
    const { s, ids } = await setup(3);
    // In this base `gobernador` is an attachment field, and one of the records was deleted.
    s.setTable(
      'Zulia',
      s.table('Zulia').filter((r) => r.id !== airtableId(3)),
      { attachmentFields: ['gobernador'] },
    );
    const db = (testDb as TestDb).db.kysely;
    const repo = createAirtableOutboxRepository(db);
    const at = new Date().toISOString();
    await repo.queue({ recordId: ids[0] as number, field: 'voto', value: 'FA', changeKey: 'vote:a', at });
    await repo.queue({
      recordId: ids[1] as number,
      field: 'gobernador',
      value: 'http://x/1',
      changeKey: 'photo:1',
      at,
    });
    await repo.queue({ recordId: ids[2] as number, field: 'voto', value: 'LC', changeKey: 'vote:c', at });
    const worker = createWritebackWorker({
      db,
      client: createAirtableClient({ token: s.token, baseId: s.baseId, apiUrl: s.url, attempts: 1 }),
      table: 'Zulia',
    });
    expect(await worker.drain()).toEqual({ sent: 1, requests: 4, retrying: 0, failed: 2 });
    const rows = await db.selectFrom('airtable_outbox').selectAll().orderBy('id').execute();
    expect(rows.map((r) => r.state)).toEqual(['sent', 'failed', 'failed']);
    expect(rows[1]?.last_error).toContain('INVALID_VALUE_FOR_COLUMN');
    expect(rows[2]?.last_error).toContain('ROW_DOES_NOT_EXIST');
    expect(await worker.drain()).toEqual({ sent: 0, requests: 0, retrying: 0, failed: 0 });
  });

  it('never sends a change twice when two workers (two app instances) drain the same outbox', async () => {
    const { s, ids } = await setup(30);
    const db = (testDb as TestDb).db.kysely;
    const repo = createAirtableOutboxRepository(db);
    const at = new Date().toISOString();
    for (const [i, id] of ids.slice(0, 30).entries()) {
      await repo.queue({ recordId: id, field: 'voto', value: 'NR', changeKey: `vote:${i}`, at });
    }
    const workers = [1, 2].map(() =>
      createWritebackWorker({
        db,
        client: createAirtableClient({ token: s.token, baseId: s.baseId, apiUrl: s.url, attempts: 1 }),
        table: 'Zulia',
        batchRows: 10,
      }),
    );
    const results = await Promise.all(workers.map((w) => w.drain()));
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(30);
    const sentIds = s.patches.flatMap((p) => p.records.map((r) => r.id));
    expect(sentIds).toHaveLength(30);
    expect(new Set(sentIds).size).toBe(30);
  });

  it('queues nothing while write-back is off', async () => {
    const { s, ids } = await setup(1);
    const t = await startApp(configFor(s, testDb as TestDb, { writeback: false }));
    const cookie = await sessionCookie(t, VALIDATOR);
    await vote(t, cookie, ids[0] as number, ['FA']);
    expect(await outbox(t)).toEqual([]);
    await new Promise((r) => setTimeout(r, 100));
    expect(s.requests).toEqual([]);
  });
});
