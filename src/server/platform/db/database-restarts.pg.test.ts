import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecordsRepository } from '#server/core/records/records.repository';
import { createUser, TEST_PASSWORD } from '#server/testing/auth-helpers';
import { freePort, type ServerProcess, startServerProcess } from '#server/testing/server-process';
import { openSse } from '#server/testing/sse';
import { setElectionPhase } from '#server/testing/test-app';
import { findPostgresBin, type PostgresCluster, startPostgresCluster } from '#tests/support/postgres-cluster';
import { migrateToLatest, openDatabase } from './database';
import { seedReferenceData } from './seed/reference';

/**
 * The real server (`node dist-server/server.mjs`, a process of its own) on a PostgreSQL of this file's
 * own, which is stopped 20 times at random moments, fast (each session ended with 57P01) and immediate
 * (killed without a word), while validators vote, an admin watches the live stream and Prometheus
 * scrapes /metrics. Each time the process must still be alive, answer 503 while the database is away,
 * and answer 200 again once it is back, by itself (decision 092). No waits are measured: every wait is a
 * bounded number of tries.
 */
const ROUNDS = 20;
const SLUG = 'cabimas';
const VALIDATOR = 'validadora@example.org';
const ADMIN = 'jefa@example.org';
const METRICS_TOKEN = 'token-de-metricas-para-pruebas-0123456789';

let cluster: PostgresCluster;
let server: ServerProcess;
let dataDir: string;
let recordIds: number[] = [];

beforeAll(async () => {
  const bin = findPostgresBin();
  if (!bin) throw new Error('No se encontró PostgreSQL (apt-get install postgresql) para las pruebas de caída.');
  cluster = await startPostgresCluster(bin);
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query('create database comando_restarts');
  await admin.end();
  const url = new URL(cluster.url);
  url.pathname = '/comando_restarts';
  const databaseUrl = url.toString();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-restarts-'));

  const db = await openDatabase({ dataDir, databaseUrl });
  const now = new Date();
  try {
    await migrateToLatest(db);
    await seedReferenceData(db, now, 'Comando Zulia');
    await setElectionPhase(db, 'en_curso', now);
    await createUser(db, { email: ADMIN, role: 'admin' });
    await createUser(db, { email: VALIDATOR, role: 'staff', departments: [SLUG] });
    const repo = createRecordsRepository(db.kysely);
    const department = (await repo.listMunicipalities()).find((d) => d.slug === SLUG);
    if (!department) throw new Error(`No existe el municipio ${SLUG}`);
    recordIds = await repo.insertMany(
      Array.from({ length: 3_000 }, (_, i) => ({
        departmentId: department.id,
        comunidad: `Sector ${Math.floor(i / 10) + 1}`,
        nombre: `Persona ${i + 1}`,
        ubch: `UBCH ${110_100_000 + i}`,
        telefono: `0414-${String(1_000_000 + i).padStart(7, '0')}`,
      })),
      now,
    );
  } finally {
    await db.close();
  }
  server = await startServerProcess({
    port: await freePort(),
    dataDir,
    name: 'con PostgreSQL que se detiene',
    env: { NODE_ENV: 'test', DATABASE_URL: databaseUrl, METRICS_TOKEN },
  });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await cluster?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A small generator with a seed, so a failing run can be told and repeated. */
function randomFrom(seed: number) {
  let state = seed >>> 0 || 1;
  return (below: number) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % below;
  };
}

const alive = () => server.child.exitCode === null && server.child.signalCode === null;

/** The status of an answer, 0 when none came (the connection failed or took more than 10 s). */
async function statusOf(pathname: string, init: RequestInit = {}): Promise<number> {
  try {
    const res = await fetch(`${server.origin}${pathname}`, { ...init, signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

const scrape = () => statusOf('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });

async function signIn(email: string): Promise<string> {
  const res = await fetch(`${server.origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.origin },
    body: JSON.stringify({ email, password: TEST_PASSWORD }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const cookie = res.headers.getSetCookie().find((c) => c.includes('comando_sesion'));
  if (!cookie) throw new Error('El inicio de sesión no trajo la cookie de sesión.');
  return cookie.split(';')[0] as string;
}

/** Polls until `check` holds, at most `tries` times, 100 ms apart; fails at once if the process died. */
async function until(what: string, check: () => Promise<boolean>, tries = 300): Promise<void> {
  for (let i = 0; i < tries; i++) {
    expect(alive(), `el proceso terminó (${what})`).toBe(true);
    if (await check()) return;
    await pause(100);
  }
  throw new Error(`${what}: no ocurrió tras ${tries} intentos`);
}

describe('PostgreSQL stopped and started again, again and again', () => {
  it(`the process lives through ${ROUNDS} stops under votes, a live stream and scrapes, and serves again each time`, async () => {
    const seed = Date.now() % 1_000_000;
    const random = randomFrom(seed);
    const validator = await signIn(VALIDATOR);
    const admin = await signIn(ADMIN);
    let running = true;
    let stopLoad = () => {};
    const loadStopped = new Promise<void>((resolve) => {
      stopLoad = resolve;
    });
    const answers = new Map<number, number>();
    const count = (status: number) => answers.set(status, (answers.get(status) ?? 0) + 1);

    // Four phones voting, each on records no other one takes.
    let next = 0;
    const voter = async () => {
      while (running && next < recordIds.length) {
        const id = recordIds[next++] as number;
        count(
          await statusOf(`/api/validation/${SLUG}/records/${id}/vote`, {
            method: 'POST',
            headers: { cookie: validator, origin: server.origin, 'content-type': 'application/json' },
            body: JSON.stringify({ candidates: ['FA'] }),
          }),
        );
        // Paced, so a 503 answered at once does not spin the machine.
        await pause(5);
      }
    };
    // The admin's live stream (which stays open through an outage), opened again if it ends.
    let streamEvents = 0;
    const watcher = async () => {
      while (running) {
        try {
          const stream = await openSse(`${server.origin}/api/results/stream`, admin);
          await Promise.race([stream.ended, loadStopped]);
          if (stream.status === 200) streamEvents += stream.events.length;
          stream.close();
        } catch {
          // the server refused or cut it: try again
        }
        await pause(50);
      }
    };
    const scraper = async () => {
      while (running) {
        count(await scrape());
        await pause(50);
      }
    };
    const load = Promise.all([voter(), voter(), voter(), voter(), watcher(), scraper()]);

    try {
      for (let round = 1; round <= ROUNDS; round++) {
        const mode = round % 2 === 1 ? 'fast' : 'immediate';
        const context = `vuelta ${round} (${mode}, semilla ${seed})`;
        // A random moment under load: inside a vote's transaction, a scrape or a stream's read, or between.
        await pause(random(400));
        await cluster.pause(mode);
        try {
          expect(alive(), `el proceso terminó al detener PostgreSQL, ${context}`).toBe(true);
          // While it is away the server answers, saying it cannot.
          expect(await statusOf('/api/ready'), context).toBe(503);
          await pause(random(300));
          expect(alive(), `el proceso terminó con PostgreSQL detenido, ${context}`).toBe(true);
        } finally {
          await cluster.resume();
        }
        // Back by itself: ready, scraped, and a vote saved.
        await until(`listo tras ${context}`, async () => (await statusOf('/api/ready')) === 200);
        await until(`/metrics tras ${context}`, async () => (await scrape()) === 200);
        const before = answers.get(201) ?? 0;
        await until(`un voto tras ${context}`, async () => (answers.get(201) ?? 0) > before);
      }
    } finally {
      running = false;
      stopLoad();
      await load;
    }
    expect(alive()).toBe(true);
    // The load ran: votes were saved and refused with 503, the stream carried events.
    expect(answers.get(201) ?? 0).toBeGreaterThan(ROUNDS);
    expect(answers.get(503) ?? 0).toBeGreaterThan(0);
    expect(streamEvents).toBeGreaterThan(0);
    // Nothing answered 500: every failure of the database is a 503.
    expect(answers.get(500) ?? 0, JSON.stringify([...answers])).toBe(0);
  }, 300_000);
});
