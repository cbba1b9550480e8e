import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '#server/app';
import type { Config } from '#server/platform/config/config';
import { type Db, openDatabase } from '#server/platform/db/database';

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
    demo: false,
    logLevel: 'silent',
    publicOrigin: TEST_ORIGIN,
    trustProxy: false,
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
    auth: { provider: 'local' },
    idempotencyKeyDays: 7,
    resumableUploadHours: 24,
    webRoot: undefined,
    rendererModule: undefined,
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

/** A fresh, empty database of the dialect under test: a temp SQLite file or a new PostgreSQL database. */
export async function createTestDb(): Promise<TestDb> {
  if (testDialect === 'sqlite') {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-test-'));
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
  const adminUrl = inject('postgresUrl');
  const name = `comando_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const db = await openDatabase({ dataDir: '', databaseUrl });
  // Photos and other files still live on disk, in a folder of this test's own.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-test-'));
  return {
    db,
    options: { dataDir, databaseUrl },
    async destroy() {
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  /** app.inject with the app's own Origin on state-changing requests. */
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const testDb = await createTestDb();
  const config = testConfig({ ...testDb.options, ...overrides });
  const app = await buildApp(config, { db: testDb.db, logger: false });
  await app.ready();
  return {
    app,
    db: testDb.db,
    config,
    request(options) {
      const method = (options.method ?? 'GET').toUpperCase();
      const headers = { ...(method === 'GET' || method === 'HEAD' ? {} : { origin: TEST_ORIGIN }), ...options.headers };
      return app.inject({ ...options, headers });
    },
    async close() {
      await app.close();
      await testDb.destroy();
    },
  };
}
