import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app';
import { createUser, loginAs } from '#server/testing/auth-helpers';
import { addRecords, SLUG_A, signInPeople } from '#server/testing/records';
import { setElectionPhase, type TestApp, testAppOf, testConfig } from '#server/testing/test-app';
import { findPostgresBin, type PostgresCluster, startPostgresCluster } from '#tests/support/postgres-cluster';
import { DatabaseStartupError } from './database';

// A PostgreSQL of this file's own: the tests stop and start it.
let cluster: PostgresCluster;
let databaseUrl: string;
let dataDir: string;
beforeAll(async () => {
  const bin = findPostgresBin();
  if (!bin) throw new Error('No se encontró PostgreSQL (apt-get install postgresql) para las pruebas de caída.');
  cluster = await startPostgresCluster(bin);
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query('create database comando_outage');
  await admin.end();
  const url = new URL(cluster.url);
  url.pathname = '/comando_outage';
  databaseUrl = url.toString();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-outage-'));
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Log lines of an app, as JSON. */
function logInto(lines: Record<string, unknown>[]) {
  return { level: 'warn', stream: { write: (line: string) => lines.push(JSON.parse(line)) } };
}

describe('PostgreSQL stopped', () => {
  it('answers 503 with Retry-After, saying nothing was saved, until it is back; then the vote goes through once', async () => {
    t = testAppOf(await buildApp(testConfig({ databaseUrl, dataDir }), { logger: false }));
    await setElectionPhase(t.db, 'en_curso', new Date());
    const people = await signInPeople(t);
    await createUser(t.db, { email: 'resultados@example.org', role: 'staff', departments: ['resultados'] });
    const watcher = await loginAs(t, 'resultados@example.org');
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const vote = () =>
      t!.request({
        method: 'POST',
        url: `/api/validation/${SLUG_A}/records/${id}/vote`,
        headers: { cookie: people.validatorA },
        payload: { candidates: ['FA'] },
      });

    await cluster.pause();
    try {
      const refused = await vote();
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('10');
      expect(refused.json().message).toBe(
        'El servidor no puede guardar en este momento (la base de datos o el almacenamiento no responde). No se guardó nada: intenta de nuevo en unos segundos.',
      );
      const read = await t.request({ url: '/api/results', headers: { cookie: watcher } });
      expect(read.statusCode).toBe(503);
      expect(read.headers['retry-after']).toBe('10');
      expect(read.json().message).toBe(
        'El servidor no puede leer sus datos en este momento (la base de datos o el almacenamiento no responde). Intenta de nuevo en unos segundos.',
      );
      const ready = await t.request({ url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.headers['retry-after']).toBe('10');
    } finally {
      await cluster.resume();
    }

    expect((await t.request({ url: '/api/ready' })).statusCode).toBe(200);
    expect((await vote()).statusCode).toBe(201);
    const votes = await t.db.kysely.selectFrom('record_votes').select('record_id').execute();
    expect(votes).toEqual([{ record_id: id }]);
  });
});

describe('PostgreSQL not up yet when the app starts', () => {
  it('keeps trying with growing waits, logging each attempt, and starts once it answers', async () => {
    await cluster.pause();
    const lines: Record<string, unknown>[] = [];
    let resumed = false;
    try {
      const building = buildApp(testConfig({ databaseUrl, dataDir, databaseConnectRetryMs: 120_000 }), {
        logger: logInto(lines),
      });
      // Two failed attempts logged, then the database comes up (generous bound: waits are 0.5 s and 1 s).
      for (let i = 0; i < 200 && lines.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(lines.length).toBeGreaterThanOrEqual(2);
      await cluster.resume();
      resumed = true;
      t = testAppOf(await building);
    } finally {
      if (!resumed) await cluster.resume();
    }
    expect(lines.slice(0, 2)).toEqual([
      expect.objectContaining({
        attempt: 1,
        nextInMs: 500,
        msg: 'PostgreSQL does not answer (attempt 1); trying again in 500 ms',
      }),
      expect.objectContaining({ attempt: 2, nextInMs: 1000 }),
    ]);
    expect((lines[0]?.err as { message?: string })?.message).toMatch(/ECONNREFUSED/);
    expect((await t.request({ url: '/api/ready' })).statusCode).toBe(200);
  });

  it('gives up after the configured time with a plain message', async () => {
    await cluster.pause();
    const lines: Record<string, unknown>[] = [];
    try {
      const failed = await buildApp(testConfig({ databaseUrl, dataDir, databaseConnectRetryMs: 1_000 }), {
        logger: logInto(lines),
      }).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(DatabaseStartupError);
      expect((failed as Error).message).toMatch(
        /^No se pudo conectar con PostgreSQL en postgres:\/\/.* \(\d+ intentos en \d+ s\)/,
      );
      expect(lines.length).toBeGreaterThanOrEqual(1);
    } finally {
      await cluster.resume();
    }
  });
});
