import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app';
import { sessionCookie } from '#server/testing/auth-helpers';
import { addRecords, PEOPLE, SLUG_A, signInPeople } from '#server/testing/records';
import { setElectionPhase, type TestApp, testAppOf, testConfig } from '#server/testing/test-app';
import { findPostgresBin, type StandbyPair, startStandbyPair } from '#tests/support/postgres-cluster';

/*
 * PostgreSQL's off-machine copy (decision 106, docs/deploy/postgresql-standby.md): a streaming standby
 * cloned with `pg_basebackup -R`, the primary committing only once the standby has applied
 * (synchronous_commit=remote_apply). Votes through the app; the standby holds them as soon as they are
 * acknowledged; the primary dies; the standby is promoted; an app pointed at it serves them, in a new epoch.
 */

let pair: StandbyPair;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-standby-'));
const METRICS_TOKEN = 'metricas-de-prueba';

beforeAll(async () => {
  const bin = findPostgresBin();
  if (!bin)
    throw new Error('No se encontró PostgreSQL (apt-get install postgresql) para la prueba del servidor en espera.');
  pair = await startStandbyPair(bin);
});

afterAll(async () => {
  await pair?.standby.stop();
  await pair?.primary.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function startApp(databaseUrl: string): Promise<TestApp> {
  const app = await buildApp(testConfig({ databaseUrl, dataDir, metricsToken: METRICS_TOKEN }), { logger: false });
  await app.ready();
  return testAppOf(app);
}

async function query<T>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('a PostgreSQL standby with synchronous commit', () => {
  it('holds every acknowledged vote; promoted, it serves them to an app pointed at it, in a new epoch', async () => {
    const first = await startApp(pair.primary.url);
    let ids: number[];
    try {
      await setElectionPhase(first.db, 'en_curso', new Date());
      const people = await signInPeople(first);
      ids = (await addRecords(first, SLUG_A, 3)) as number[];
      const keys = ['0193f1a0-0000-7000-8000-0000000000c1', '0193f1a0-0000-7000-8000-0000000000c2'];
      for (const [i, id] of ids.slice(0, 2).entries()) {
        const vote = await first.request({
          method: 'POST',
          url: `/api/validation/${SLUG_A}/records/${id}/vote`,
          headers: { cookie: people.validatorA, 'idempotency-key': keys[i] },
          payload: { candidates: ['FA'] },
        });
        expect(vote.statusCode).toBe(201);
      }
      // Acknowledged means applied on the standby: read there at once, no wait.
      const [sync] = await query<{ sync_state: string }>(
        pair.primary.url,
        'select sync_state from pg_stat_replication',
      );
      expect(sync?.sync_state).toBe('sync');
      const [primaryAt] = await query<{ lsn: string }>(pair.primary.url, 'select pg_current_wal_lsn()::text as lsn');
      const [standbyAt] = await query<{ behind: string }>(
        pair.standby.url,
        `select pg_wal_lsn_diff('${primaryAt?.lsn}', pg_last_wal_replay_lsn())::text as behind`,
      );
      expect(Number(standbyAt?.behind)).toBeLessThanOrEqual(0);
      const onStandby = await query<{ record_id: number }>(pair.standby.url, 'select record_id from record_votes');
      expect(onStandby.map((v) => v.record_id).sort()).toEqual(ids.slice(0, 2).sort());

      // Jornada and /metrics name the standby.
      const copy = await first.request({ url: '/api/admin/election/copy', headers: { cookie: people.admin } });
      expect(copy.json()).toMatchObject({ kind: 'standby', answering: true });
      const metrics = await first.request({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(metrics.body).toMatch(/^comando_replica_lag_seconds\{kind="standby"\} \d+/m);

      // 'Asegurado' (decision 135): once a look's WAL position is replayed on the standby and the commit
      // margin has passed, phones hear their votes are in the copy. Polled with a bound of tries.
      let secured: string[] = [];
      for (let tries = 0; tries < 150 && secured.length < 2; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const asked = await first.request({
          method: 'POST',
          url: '/api/election/items',
          headers: { cookie: people.validatorA },
          payload: { keys },
        });
        expect(asked.json()).toMatchObject({ copy: 'standby', held: expect.arrayContaining(keys) });
        secured = asked.json().secured;
      }
      expect([...secured].sort()).toEqual(keys);
    } finally {
      // The primary's machine is lost, its app with it: every process of the cluster killed, its files gone.
      await pair.primary.lose();
      await first.close().catch(() => {});
    }

    await pair.standby.promote();
    const second = await startApp(pair.standby.url);
    try {
      const votes = await second.db.kysely.selectFrom('record_votes').select('record_id').execute();
      expect(votes.map((v) => v.record_id).sort()).toEqual(ids.slice(0, 2).sort());
      const cookie = await sessionCookie(second, PEOPLE.validatorA);
      const status = (await second.request({ url: '/api/election', headers: { cookie } })).json();
      // A new timeline: phones see a new epoch, from the last change the standby held.
      expect(status.epoch).toMatchObject({ number: 2, restoredUntil: expect.any(String) });
      const epochs = await second.db.kysely.selectFrom('database_epochs').select('cause').orderBy('epoch').execute();
      expect(epochs.map((e) => e.cause)).toEqual(['nueva', 'promovida']);
      // It takes votes again.
      const vote = await second.request({
        method: 'POST',
        url: `/api/validation/${SLUG_A}/records/${ids[2]}/vote`,
        headers: { cookie },
        payload: { candidates: ['FA'] },
      });
      expect(vote.statusCode).toBe(201);
    } finally {
      await second.close();
    }
    // Two clusters, a clone, a promotion and two apps: whole processes, not a unit.
  }, 120_000);
});
