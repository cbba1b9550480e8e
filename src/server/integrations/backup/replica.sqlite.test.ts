import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app';
import type { ReplicaConfig } from '#server/platform/config/config';
import { sqliteFileOf } from '#server/platform/db/database';
import { restoreFromReplica } from '#server/platform/replica/litestream';
import { sessionCookie } from '#server/testing/auth-helpers';
import { addRecords, PEOPLE, SLUG_A, signInPeople } from '#server/testing/records';
import { S3_LOCAL_CREDENTIALS, type S3Local, startS3Local } from '#server/testing/s3-local';
import { setElectionPhase, type TestApp, testAppOf, testConfig } from '#server/testing/test-app';
import { restoreFromReplicaCommand } from './backup';

/*
 * Litestream (@flydotio/litestream's v0.3.13) copying the database while the server runs, to a folder and
 * to the S3 stand-in: votes through the API, the data folder deleted, a new one restored from the copy
 * with `restore --desde-replica`, a server started on it, the votes there in a new epoch.
 */

let s3: S3Local;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-litestream-'));

beforeAll(async () => {
  s3 = await startS3Local();
});

afterAll(async () => {
  await s3.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const METRICS_TOKEN = 'metricas-de-prueba';
// Kept off the machine, as the README asks: the data folder's own key would be lost with it.
const SECOND_FACTOR_KEY = Buffer.alloc(32, 7).toString('base64');

async function startServer(dataDir: string, replica: ReplicaConfig): Promise<TestApp> {
  const app = await buildApp(
    testConfig({ dataDir, replica, metricsToken: METRICS_TOKEN, secondFactorKey: SECOND_FACTOR_KEY }),
    { logger: false },
  );
  await app.ready();
  return testAppOf(app);
}

/** Votes the copy holds now: its latest state restored into a scratch file and read. */
async function votesInCopy(replica: ReplicaConfig, name: string): Promise<number> {
  const file = path.join(scratch, `${name}-probe`, 'comando.sqlite');
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  if (!(await restoreFromReplica(file, replica))) return 0;
  const db = new SQLite(file, { readonly: true });
  try {
    return (db.prepare('select count(*) as n from record_votes').get() as { n: number }).n;
  } catch {
    return 0; // the copy is from before the tables were made
  } finally {
    db.close();
  }
}

/** Polls the copy until it holds `votes`, up to a bound of tries (never a fixed sleep before reading). */
async function untilCopyHolds(replica: ReplicaConfig, name: string, votes: number): Promise<void> {
  for (let tries = 0; tries < 300; tries++) {
    if ((await votesInCopy(replica, name)) >= votes) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`la copia no llegó a tener ${votes} votos`);
}

const replicas: [string, (name: string) => ReplicaConfig][] = [
  [
    'a folder on another disk',
    (name) => ({ kind: 'file', path: path.join(scratch, `${name}-replica`), syncSeconds: 1 }),
  ],
  [
    'an S3-compatible bucket',
    (name) => ({
      kind: 's3',
      bucket: s3.bucket,
      path: `copias/${name}`,
      endpoint: s3.url,
      region: 'us-east-1',
      ...S3_LOCAL_CREDENTIALS,
      forcePathStyle: true,
      syncSeconds: 1,
    }),
  ],
];

describe.each(replicas)('Litestream to %s', (_, replicaOf) => {
  it('copies while the server runs; a new data folder restored from the copy starts with the votes, in a new epoch', async () => {
    const name = replicaOf === replicas[0]?.[1] ? 'carpeta' : 's3';
    const replica = replicaOf(name);
    const first = path.join(scratch, `${name}-data`);
    const t = await startServer(first, replica);
    let restarted: TestApp | undefined;
    try {
      await setElectionPhase(t.db, 'en_curso', new Date());
      const people = await signInPeople(t);
      const ids = (await addRecords(t, SLUG_A, 3)) as number[];
      const keys = ['0193f1a0-0000-7000-8000-00000000000a', '0193f1a0-0000-7000-8000-00000000000b'];
      for (const [i, id] of ids.slice(0, 2).entries()) {
        const vote = await t.request({
          method: 'POST',
          url: `/api/validation/${SLUG_A}/records/${id}/vote`,
          headers: { cookie: people.validatorA, 'idempotency-key': keys[i] },
          payload: { candidates: ['FA'] },
        });
        expect(vote.statusCode).toBe(201);
      }
      await untilCopyHolds(replica, name, 2);
      // 'Asegurado' (decision 135): the phone hears it once Litestream has synced twice since and its
      // replica holds that, and the commit margin has passed. Polled with a bound of tries.
      let secured: string[] = [];
      for (let tries = 0; tries < 150 && secured.length < 2; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const asked = await t.request({
          method: 'POST',
          url: '/api/election/items',
          headers: { cookie: people.validatorA },
          payload: { keys },
        });
        expect(asked.json()).toMatchObject({ copy: 'litestream', held: expect.arrayContaining(keys) });
        secured = asked.json().secured;
      }
      expect([...secured].sort()).toEqual(keys);

      // Jornada and /metrics name the copy and how far behind it is.
      const copy = await t.request({ url: '/api/admin/election/copy', headers: { cookie: people.admin } });
      expect(copy.statusCode).toBe(200);
      expect(copy.json()).toMatchObject({ kind: 'litestream', answering: true });
      const metrics = await t.request({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(metrics.body).toMatch(/^comando_replica_lag_seconds\{kind="litestream"\} \d+/m);
      const before = (await t.request({ url: '/api/election', headers: { cookie: people.validatorA } })).json();
      expect(before.epoch).toMatchObject({ number: 1, restoredUntil: null });

      // The machine is lost: its data folder goes. A new one is restored from the copy in one command.
      await t.close();
      fs.rmSync(first, { recursive: true, force: true });
      const second = path.join(scratch, `${name}-data-new`);
      const said: string[] = [];
      const restore = await restoreFromReplicaCommand(
        { dataDir: second, databaseUrl: undefined, storage: { driver: 'local' }, replica },
        (line) => said.push(line),
      );
      expect(restore).toBe(0);
      expect(said.join('\n')).toMatch(/^Restaurada la copia de Litestream en .*: época 2 de la base de datos/);
      expect(fs.existsSync(sqliteFileOf(second))).toBe(true);

      restarted = await startServer(second, replica);
      const votes = await restarted.db.kysely.selectFrom('record_votes').select('record_id').execute();
      expect(votes.map((v) => v.record_id).sort()).toEqual(ids.slice(0, 2).sort());
      const cookie = await sessionCookie(restarted, PEOPLE.validatorA);
      const after = (await restarted.request({ url: '/api/election', headers: { cookie } })).json();
      // Phones read the new epoch, and from which point the server may lack what they hold.
      expect(after.epoch).toMatchObject({ number: 2, restoredUntil: expect.any(String) });
      const epochs = await restarted.db.kysely.selectFrom('database_epochs').selectAll().orderBy('epoch').execute();
      expect(epochs.map((e) => e.cause)).toEqual(['nueva', 'replica']);
    } finally {
      await restarted?.close();
    }
    // Two servers start and stop, and Litestream copies and restores: whole processes, not a unit.
  }, 120_000);
});

describe('a database restored with `litestream restore` by hand', () => {
  it('starts a new epoch at the server’s start, from the last change the copy held', async () => {
    const replica = replicas[0]?.[1]('a-mano') as ReplicaConfig;
    const first = path.join(scratch, 'a-mano-data');
    const t = await startServer(first, replica);
    let restarted: TestApp | undefined;
    try {
      await setElectionPhase(t.db, 'en_curso', new Date());
      const people = await signInPeople(t);
      const [id] = (await addRecords(t, SLUG_A, 1)) as number[];
      const vote = await t.request({
        method: 'POST',
        url: `/api/validation/${SLUG_A}/records/${id}/vote`,
        headers: { cookie: people.validatorA },
        payload: { candidates: ['FA'] },
      });
      expect(vote.statusCode).toBe(201);
      await untilCopyHolds(replica, 'a-mano', 1);
      const lastChange = await t.db.kysely
        .selectFrom('audit_log')
        .select('at')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      await t.close();

      // Litestream's own restore into a new folder, without Comando's command: the folder has no
      // `comando.epoch`, so the server sees a database brought from elsewhere.
      const second = path.join(scratch, 'a-mano-data-new');
      expect(await restoreFromReplica(sqliteFileOf(second), replica)).toBe(true);
      restarted = await startServer(second, replica);
      const epochs = await restarted.db.kysely.selectFrom('database_epochs').selectAll().orderBy('epoch').execute();
      expect(epochs.map((e) => [e.epoch, e.cause, e.restored_until])).toEqual([
        [1, 'nueva', null],
        [2, 'restaurada', lastChange.at],
      ]);
    } finally {
      await restarted?.close();
    }
    // A server started twice and Litestream's restore: whole processes, not a unit.
  }, 120_000);
});
