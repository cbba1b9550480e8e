import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, type Dialect as KyselyDialect, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { registerChangeWatch, watchAccessTables, watchChanges } from '#server/platform/cache/cache';
import { type MigrationOptions, migrationProvider } from '#server/platform/db/migrations/index';
import { makePrivateDir, makePrivateFile } from '#server/platform/lib/private-files';
import type { Dialect } from './dialect';
import { isConnectionLoss, noteCommitFailure } from './failures';
import { registerReader } from './reader';
import type { Database } from './schema';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** SQLite: the database's file (its -wal and -shm beside it); PostgreSQL has none. */
  file?: string;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  /** Writes (and commits) one small row: throws when the database answers but cannot write (disk full…). */
  probeWrite(): Promise<void>;
  /** PostgreSQL: the pool's connections now (open, idle, and requests waiting for one); SQLite has none. */
  poolStats?: () => { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * PostgreSQL: for how long to keep trying to connect at start (a reboot where the database comes up
   * after the app), with growing waits. 0: one attempt.
   */
  connectRetryMs?: number;
  /**
   * SQLite copied by Litestream: it alone checkpoints the WAL (its documented advice), so that no
   * checkpoint of ours restarts the WAL before it has copied it.
   */
  litestream?: boolean;
  /** Told about each failed attempt before the next one. */
  onConnectRetry?: (attempt: { number: number; error: Error; nextInMs: number; untilMs: number }) => void;
}

/** A startup problem with the database, told in one plain sentence. */
export class DatabaseStartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseStartupError';
  }
}

// PostgreSQL returns bigint (COUNT, SUM) as strings by default; our counts fit in a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

const STATEMENT_CACHE_MAX = 500;

export async function openDatabase(options: DatabaseOptions): Promise<Db> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options)
    : openSqlite(options.dataDir, options.litestream === true);
}

/**
 * Kysely's transactions, made to report the error that matters. After a failure Kysely rolls back,
 * and an error from that rollback replaced the original one: on SQLite, which already rolled back by
 * itself after a full disk or an I/O error, the log said "cannot rollback - no transaction is active"
 * instead of "database or disk is full"; on PostgreSQL a dead connection cannot roll back either. A
 * rollback is skipped when there is no transaction left (`stillOpen`), and a rollback that fails
 * because the connection broke (the pool then discards it) is dropped in favour of the original error. A COMMIT
 * that loses its connection is marked: it may have been saved (failures.ts).
 */
function reportingTransactionFailures(dialect: KyselyDialect, stillOpen?: () => boolean): KyselyDialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver() {
      const driver = dialect.createDriver();
      const commit = driver.commitTransaction.bind(driver);
      const rollback = driver.rollbackTransaction.bind(driver);
      driver.commitTransaction = async (connection) => {
        try {
          await commit(connection);
        } catch (error) {
          noteCommitFailure(error);
          throw error;
        }
      };
      driver.rollbackTransaction = async (connection) => {
        if (stillOpen && !stillOpen()) return;
        try {
          await rollback(connection);
        } catch (error) {
          // PostgreSQL ends the transaction of a connection that broke, and the pool drops the client.
          if (stillOpen || !isConnectionLoss(error)) throw error;
        }
      };
      return driver;
    },
  };
}

/** SQLite's database file in its data folder. */
export const sqliteFileOf = (dataDir: string) => path.join(dataDir, 'comando.sqlite');

function openSqlite(dataDir: string, litestream: boolean): Db {
  const file = sqliteFileOf(dataDir);
  try {
    makePrivateDir(dataDir);
    fs.accessSync(dataDir, fs.constants.W_OK);
    // A new database is its user's only, and so are its -wal and -shm, which take its mode.
    if (!fs.existsSync(file)) makePrivateFile(file);
  } catch (error) {
    throw new DatabaseStartupError(
      `No se puede escribir en DATA_DIR (${dataDir}): ${(error as NodeJS.ErrnoException).code ?? String(error)}. ` +
        'Elige una carpeta con permiso de escritura o crea esta con el usuario que ejecuta el servidor.',
    );
  }
  let sqlite: SQLite.Database;
  try {
    sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    // FULL: a vote, once acknowledged, survives a power cut.
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    if (litestream) sqlite.pragma('wal_autocheckpoint = 0');
  } catch (error) {
    throw new DatabaseStartupError(`No se pudo abrir la base de datos ${file}: ${(error as Error).message}`);
  }
  const watch = watchChanges(sqlite);
  // An existing database is watched at once; a new one once migrated (migrateToLatest).
  watch.watchAccessTables();
  const database = keptStatements(sqlite, (statement) => watchWrites(statement, watch.wrote));
  const kysely = new Kysely<Database>({
    dialect: reportingTransactionFailures(new SqliteDialect({ database }), () => sqlite.inTransaction),
  });
  registerChangeWatch(kysely, watch);
  // A second connection, only for reads of what is committed (reader.ts), opened when first asked for.
  let reader: Kysely<Database> | undefined;
  registerReader(kysely, () => {
    const connection = new SQLite(file);
    connection.pragma('query_only = ON');
    connection.pragma('busy_timeout = 5000');
    // Its statements are kept too: the Idempotency-Key look-up of every keyed vote reads here.
    reader = new Kysely<Database>({ dialect: new SqliteDialect({ database: keptStatements(connection, (s) => s) }) });
    return reader;
  });
  return {
    kysely,
    dialect: 'sqlite',
    file,
    async ping() {
      sqlite.prepare('select 1').get();
    },
    probeWrite: () => probeWrite(kysely),
    async close() {
      await reader?.destroy();
      await kysely.destroy();
    },
  };
}

/** What Kysely's SQLite driver uses of a prepared statement. */
type SQLiteStatement = Pick<SQLite.Statement, 'reader' | 'all' | 'run' | 'iterate'>;

/**
 * A connection as Kysely's SQLite driver sees it, keeping its recent statements: Kysely prepares every
 * query anew, and SQLite statements are reusable.
 */
function keptStatements(sqlite: SQLite.Database, wrap: (statement: SQLite.Statement) => SQLiteStatement) {
  const statements = new Map<string, SQLiteStatement>();
  return {
    prepare(source: string) {
      let statement = statements.get(source);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_MAX) statements.clear();
        statement = wrap(sqlite.prepare(source));
        statements.set(source, statement);
      }
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}

/**
 * A statement SQLite does not call read-only moves the data version each time it runs (cache.ts); with
 * `returning`, SQLite runs a write through `all`.
 */
function watchWrites(statement: SQLite.Statement, wrote: () => void): SQLiteStatement {
  if (statement.readonly) return statement;
  const counted = <T>(run: () => T): T => {
    try {
      return run();
    } finally {
      wrote();
    }
  };
  return {
    reader: statement.reader,
    all: (...params) => counted(() => statement.all(...params)),
    iterate: (...params) => counted(() => statement.iterate(...params)),
    run: (...params) => counted(() => statement.run(...params)),
  };
}

/** Upserts the one row of `ready_probe`: a real write, committed, as cheap as one can be. */
async function probeWrite(kysely: Kysely<Database>): Promise<void> {
  const at = new Date().toISOString();
  await kysely
    .insertInto('ready_probe')
    .values({ id: 1, at })
    .onConflict((oc) => oc.column('id').doUpdateSet({ at }))
    .execute();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A PostgreSQL connection of its own, outside the pool (a backup's snapshot, a listener), that always has
 * an 'error' listener. PostgreSQL closing a connection (a restart: 57P01, or a crash) makes pg emit
 * 'error' on its Client whenever no query is running on it, and an 'error' without a listener ends the
 * process (decision 092). The query in flight, if any, still fails with the error; the caller's
 * `onError` hears the rest.
 */
export function ownPostgresClient(config: pg.ClientConfig, onError: (error: Error) => void = () => {}): pg.Client {
  const client = new pg.Client(config);
  client.on('error', onError);
  return client;
}

async function openPostgres(connectionString: string, options: DatabaseOptions): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: 20, connectionTimeoutMillis: 5000 });
  // No connection of the pool is ever without an 'error' listener, or PostgreSQL going away ends the
  // process (decision 092). An idle one is the pool's: it drops it and tells the pool's own listener.
  // One checked out (a transaction between two statements, a migration, a lock held) is heard by the
  // listener every client gets when it is made; the statement in flight or the next one fails and
  // answers 503, and the pool drops the client when it comes back broken.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const retryMs = options.connectRetryMs ?? 0;
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      const client = await pool.connect();
      client.release();
      break;
    } catch (error) {
      const elapsed = Date.now() - started;
      // Waits grow from half a second to five, and never pass the deadline.
      const wait = Math.min(5_000, 500 * 2 ** (attempt - 1), retryMs - elapsed);
      if (wait > 0) {
        options.onConnectRetry?.({ number: attempt, error: error as Error, nextInMs: wait, untilMs: retryMs });
        await sleep(wait);
        continue;
      }
      await pool.end().catch(() => {});
      const safeUrl = connectionString.replace(/\/\/[^@/]*@/, '//***@');
      const tried = attempt > 1 ? ` (${attempt} intentos en ${Math.round(elapsed / 1000)} s)` : '';
      throw new DatabaseStartupError(
        `No se pudo conectar con PostgreSQL en ${safeUrl}${tried}: ${(error as Error).message}. ` +
          'Revisa DATABASE_URL y que el servidor de PostgreSQL esté en marcha.',
      );
    }
  }
  const kysely = new Kysely<Database>({ dialect: reportingTransactionFailures(new PostgresDialect({ pool })) });
  return {
    kysely,
    dialect: 'postgres',
    async ping() {
      await sql`select 1`.execute(kysely);
    },
    probeWrite: () => probeWrite(kysely),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await kysely.destroy();
    },
  };
}

/** Brings the schema up to date. Safe to run at every start and from `npm run db:migrate`. */
export async function migrateToLatest(db: Db, options: MigrationOptions = {}): Promise<string[]> {
  const migrator = new Migrator({ db: db.kysely, provider: migrationProvider(db.dialect, options) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'error desconocido');
    throw new DatabaseStartupError(
      `La migración ${failed?.migrationName ?? ''} falló: ${reason}`.replace(/\s+/g, ' ').trim(),
    );
  }
  // The access tables exist now: answers derived from them can be kept (SQLite; cache.ts).
  watchAccessTables(db.kysely);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
