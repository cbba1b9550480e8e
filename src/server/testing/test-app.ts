import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { type BuildOptions, buildApp } from '#server/app';
import type { Config } from '#server/platform/config/config';
import { type Db, openDatabase } from '#server/platform/db/database';
import type { ElectionPhase } from '#shared/features/election/election';
import { setElectionPhase } from './election';

/** Which database this run of the server suite uses (set per Vitest project). */
export const testDialect: 'sqlite' | 'postgres' = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

export const TEST_ORIGIN = 'http://comando.test';

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    env: 'test',
    port: 0,
    host: '127.0.0.1',
    dataDir: '',
    databaseUrl: undefined,
    databaseConnectRetryMs: 0,
    demo: false,
    logLevel: 'silent',
    publicOrigin: TEST_ORIGIN,
    trustProxy: false,
    apiDocs: 'public',
    timeouts: { bodyMs: 30_000, requestMs: 600_000 },
    campaignName: 'Comando Pruebas',
    notas: { source: 'local' },
    airtable: {
      token: undefined,
      baseId: undefined,
      recordsTable: 'Zulia',
      agendaTable: 'agenda',
      apiUrl: 'https://api.airtable.com',
      writeback: false,
    },
    storage: { driver: 'local' },
    replica: undefined,
    auth: { provider: 'local' },
    idempotencyKeyDays: 7,
    resumableUploadHours: 24,
    resumableUploadBudgetBytes: 200 * 1024 * 1024,
    // No floor: a test machine's disk may be nearly full; the floor's tests set their own and inject the free space.
    dataDirMinFreeBytes: 0,
    webRoot: undefined,
    rendererModule: undefined,
    metricsToken: undefined,
    now: () => new Date(),
    ...overrides,
  };
}

export interface TestDb {
  db: Db;
  /** Connection settings of this database, for a second app instance on the same data. */
  options: { dataDir: string; databaseUrl: string | undefined };
  destroy(): Promise<void>;
}

/**
 * A fresh database of the dialect under test: a temp SQLite file or a PostgreSQL database. Empty, or
 * with `migrated`, the schema the suite's global setup migrated once (tests/support/*-global-setup.ts):
 * a copy of the file on SQLite; on PostgreSQL a database made with `CREATE DATABASE ... TEMPLATE` and,
 * once a test is done with it, emptied for the next test of the same worker (see resetDatabase).
 */
export async function createTestDb(options: { migrated?: boolean } = {}): Promise<TestDb> {
  // Photos and other files live on disk, in a folder of this test's own, whatever the database.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-test-'));
  if (testDialect === 'sqlite') {
    if (options.migrated) fs.copyFileSync(inject('sqliteTemplate'), path.join(dataDir, SQLITE_FILE));
    const db = await openDatabase({ dataDir, databaseUrl: undefined });
    return {
      db,
      options: { dataDir, databaseUrl: undefined },
      async destroy() {
        await db.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const database = options.migrated ? await takeMigratedDatabase() : await newDatabase('');
  const db = await openDatabase({ dataDir: '', databaseUrl: database.url });
  // Once only: a test that closes its app twice (an afterEach that closes what an earlier test already
  // closed) must not give the same database back twice, or two later tests would share it.
  let destroyed: Promise<void> | undefined;
  return {
    db,
    options: { dataDir, databaseUrl: database.url },
    destroy() {
      destroyed ??= (async () => {
        await db.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
        if (options.migrated) await giveBack(database);
        else await adminQuery(`drop database if exists ${database.name} with (force)`);
      })();
      return destroyed;
    },
  };
}

/** The name openDatabase gives the SQLite file in its data folder. */
const SQLITE_FILE = 'comando.sqlite';

interface PostgresDatabase {
  name: string;
  url: string;
}

/**
 * Migrated databases this worker has made and a test has given back, emptied. Making one from the
 * template costs about 0.3 s on a 2-core machine (PostgreSQL copies the whole database, catalogue
 * included); emptying the tables a test wrote costs a few milliseconds each.
 */
const emptied: PostgresDatabase[] = [];

// Named after the run (postgres-global-setup.ts drops what is left of it at the end) and this worker.
async function newDatabase(template: string): Promise<PostgresDatabase> {
  const name = `${inject('postgresTemplate').replace('_template_', '_test_')}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await adminQuery(`create database ${name}${template ? ` template ${template}` : ''}`);
  const url = new URL(inject('postgresUrl'));
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

async function takeMigratedDatabase(): Promise<PostgresDatabase> {
  return emptied.pop() ?? newDatabase(inject('postgresTemplate'));
}

async function giveBack(database: PostgresDatabase): Promise<void> {
  try {
    await resetDatabase(database.url);
    emptied.push(database);
  } catch {
    await adminQuery(`drop database if exists ${database.name} with (force)`);
  }
}

/**
 * Brings a database made from the template back to the template's state: every table empty (the
 * migrations insert no rows) and every sequence at its start. A connection a test left open is ended
 * first, as `DROP DATABASE ... WITH (FORCE)` would.
 */
async function resetDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`set lock_timeout = '5s'`);
    await client.query(RESET_SQL);
  } finally {
    await client.end();
  }
}

const RESET_SQL = `
do $$
declare
  other int;
  t text;
  filled text[] := '{}';
  s text;
  has_rows boolean;
begin
  for other in select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() loop
    perform pg_terminate_backend(other);
  end loop;
  for t in select format('%I.%I', schemaname, tablename) from pg_tables
           where schemaname = 'public' and tablename not like 'kysely_migration%' loop
    execute format('select exists (select 1 from %s)', t) into has_rows;
    if has_rows then filled := filled || t; end if;
  end loop;
  if array_length(filled, 1) > 0 then
    execute 'truncate ' || array_to_string(filled, ', ') || ' cascade';
  end if;
  for s in select format('%I.%I', sequence_schema, sequence_name) from information_schema.sequences
           where sequence_schema = 'public' loop
    execute format('alter sequence %s restart', s);
  end loop;
end
$$`;

async function adminQuery(query: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject('postgresUrl') });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  /** app.inject with the app's own Origin on state-changing requests. */
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface TestAppOptions extends Omit<BuildOptions, 'db' | 'logger'> {
  /**
   * The day's phase the test starts in: 'en_curso' unless told (most tests vote and send photos);
   * null leaves a new database's own phase, 'preparacion'.
   */
  electionPhase?: ElectionPhase | null;
}

export async function createTestApp(overrides: Partial<Config> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const { electionPhase = 'en_curso', ...buildOptions } = options;
  const testDb = await createTestDb({ migrated: true });
  const config = testConfig({ ...testDb.options, ...overrides });
  const app = await buildApp(config, { ...buildOptions, db: testDb.db, logger: false });
  await app.ready();
  if (electionPhase) await setElectionPhase(app.db, electionPhase, config.now());
  return testAppOf(app, async () => {
    await app.close();
    await testDb.destroy();
  });
}

/** The TestApp helpers around an app a test built itself (its own database, its own logger). */
export function testAppOf(app: FastifyInstance, close: () => Promise<void> = () => app.close()): TestApp {
  return {
    app,
    db: app.db,
    config: app.config,
    request(options) {
      const method = (options.method ?? 'GET').toUpperCase();
      const headers = { ...(method === 'GET' || method === 'HEAD' ? {} : { origin: TEST_ORIGIN }), ...options.headers };
      return app.inject({ ...options, headers });
    },
    close,
  };
}

export { setElectionPhase };
