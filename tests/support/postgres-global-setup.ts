import { sql } from 'kysely';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrateToLatest, openDatabase } from '#server/platform/db/database';
import { findPostgresBin, type PostgresCluster, startPostgresCluster } from './postgres-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    /** A database with every migration applied, the template of each test's `CREATE DATABASE`. */
    postgresTemplate: string;
  }
}

let cluster: PostgresCluster | undefined;
let dropDatabases: (() => Promise<void>) | undefined;

/** Gives the server suite a PostgreSQL: TEST_DATABASE_URL, or a throwaway cluster; and a migrated template. */
export async function setup(project: TestProject): Promise<void> {
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const bin = findPostgresBin();
    if (!bin) {
      throw new Error(
        'No se encontró PostgreSQL para las pruebas del servidor. Instálalo (apt-get install postgresql) o define TEST_DATABASE_URL.',
      );
    }
    cluster = await startPostgresCluster(bin);
    adminUrl = cluster.url;
  }
  project.provide('postgresUrl', adminUrl);
  project.provide('postgresTemplate', await createTemplate(adminUrl));
}

/**
 * Migrates `comando_template_<pid>`. The tests' databases are named `comando_test_<pid>_...` after it
 * (test-app.ts) and kept by the workers between tests; whatever is left is dropped at the end.
 */
async function createTemplate(adminUrl: string): Promise<string> {
  const name = `comando_template_${process.pid}`;
  const admin = async <Row extends object>(query: string): Promise<Row[]> => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return (await client.query<Row>(query)).rows;
    } finally {
      await client.end();
    }
  };
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  dropDatabases = async () => {
    const left = await admin<{ datname: string }>(
      `select datname from pg_database where datname like 'comando\\_test\\_${process.pid}\\_%'`,
    );
    for (const { datname } of left) await admin(`drop database if exists ${datname} with (force)`);
    await admin(`drop database if exists ${name} with (force)`);
  };
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ dataDir: '', databaseUrl: url.toString() });
  try {
    await migrateToLatest(db);
    // Tests hand their database on emptied (test-app.ts, resetDatabase): that is the template's state
    // only while the migrations insert no rows.
    const tables = await sql<{ name: string }>`
      select tablename as name from pg_tables where schemaname = 'public' and tablename not like 'kysely_migration%'`.execute(
      db.kysely,
    );
    for (const { name } of tables.rows) {
      const rows = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(name)}`.execute(db.kysely);
      if (rows.rows[0]?.n) {
        throw new Error(
          `Las migraciones dejan filas en ${name}: resetDatabase (src/server/testing/test-app.ts) vaciaría esa tabla.`,
        );
      }
    }
  } finally {
    // A template must have no connection open while it is copied.
    await db.close();
  }
  return name;
}

export async function teardown(): Promise<void> {
  // A throwaway cluster goes with everything in it; a given server keeps nothing of this run.
  if (!cluster) await dropDatabases?.();
  await cluster?.stop();
}
