import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { makePrivateDir, makePrivateFile } from '#server/platform/lib/private-files';
import { ownPostgresClient } from './database';
import type { Dialect } from './dialect';

const run = promisify(execFile);

/** The database file of a backup folder, by dialect. */
export const BACKUP_FILES: Record<Dialect, string> = { sqlite: 'comando.sqlite', postgres: 'comando.pgdump' };

/** The SQLite file in a data folder (as openDatabase names it). */
export const sqliteFileOf = (dataDir: string) => path.join(dataDir, BACKUP_FILES.sqlite);

/** Plain SQL against the copy being taken (its snapshot), for what the backup must list with it. */
export type SnapshotQuery = (text: string) => Promise<Record<string, unknown>[]>;

export interface DatabaseCopy {
  dialect: Dialect;
  /** Rows per table in the copy, exactly as it holds them. */
  tables: Record<string, number>;
}

export interface DatabaseTarget {
  dataDir: string;
  databaseUrl: string | undefined;
}

/** A problem an operator can fix, told in one Spanish sentence. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

/**
 * A consistent copy of the database while the app runs: SQLite's online backup API (better-sqlite3's
 * `backup`, page by page, other connections writing meanwhile), or `pg_dump` of a snapshot exported by a
 * read-only transaction, which also counts the rows and runs `withSnapshot`: both see the same instant
 * the dump holds.
 */
export async function copyDatabase<T>(
  source: DatabaseTarget,
  folder: string,
  withSnapshot: (query: SnapshotQuery) => Promise<T>,
): Promise<DatabaseCopy & { read: T }> {
  if (source.databaseUrl)
    return copyPostgres(source.databaseUrl, path.join(folder, BACKUP_FILES.postgres), withSnapshot);
  const file = sqliteFileOf(source.dataDir);
  if (!fs.existsSync(file)) throw new BackupError(`No hay base de datos en ${file}: revisa DATA_DIR.`);
  const target = path.join(folder, BACKUP_FILES.sqlite);
  makePrivateFile(target);
  const live = new SQLite(file, { fileMustExist: true });
  try {
    live.pragma('busy_timeout = 5000');
    await live.backup(target);
  } finally {
    live.close();
  }
  // The copy is the snapshot: counted and read from it, never from the live file.
  const copy = new SQLite(target, { readonly: true, fileMustExist: true });
  try {
    const query: SnapshotQuery = async (text) => copy.prepare(text).all() as Record<string, unknown>[];
    return { dialect: 'sqlite', tables: await countTables('sqlite', query), read: await withSnapshot(query) };
  } finally {
    copy.close();
  }
}

async function copyPostgres<T>(
  url: string,
  file: string,
  withSnapshot: (query: SnapshotQuery) => Promise<T>,
): Promise<DatabaseCopy & { read: T }> {
  makePrivateFile(file);
  const client = ownPostgresClient({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0]!.id;
    const query: SnapshotQuery = async (text) => (await client.query(text)).rows;
    const tables = await countTables('postgres', query);
    const read = await withSnapshot(query);
    await pgTool('pg_dump', url, ['--format=custom', `--snapshot=${snapshot}`, `--file=${file}`, '--no-owner']);
    await client.query('commit');
    return { dialect: 'postgres', tables, read };
  } finally {
    await client.end();
  }
}

/**
 * Puts a copy back into an empty place only: a data folder without a database, or a PostgreSQL database
 * without tables. Nothing that exists is ever overwritten.
 */
export async function restoreDatabase(target: DatabaseTarget, folder: string, dialect: Dialect): Promise<void> {
  const copy = path.join(folder, BACKUP_FILES[dialect]);
  if (!fs.existsSync(copy)) throw new BackupError(`La copia no tiene ${BACKUP_FILES[dialect]}.`);
  if (dialect === 'postgres') {
    if (!target.databaseUrl) {
      throw new BackupError('Esta copia es de PostgreSQL: define DATABASE_URL con una base de datos vacía.');
    }
    if ((await postgresTables(target.databaseUrl)).length > 0) {
      throw new BackupError('La base de datos de DATABASE_URL no está vacía: restaura en una base de datos nueva.');
    }
    await pgTool('pg_restore', target.databaseUrl, [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--single-transaction',
      copy,
    ]);
    return;
  }
  if (target.databaseUrl) {
    throw new BackupError('Esta copia es de SQLite: quita DATABASE_URL y elige un DATA_DIR vacío.');
  }
  const file = sqliteFileOf(target.dataDir);
  if (fs.existsSync(file)) throw new BackupError(`${file} ya existe: restaura en un DATA_DIR vacío.`);
  makePrivateDir(target.dataDir);
  // Copied beside it and renamed: a cut restore never leaves half a database under the real name.
  const partial = `${file}.restaurando`;
  fs.copyFileSync(copy, partial);
  fs.renameSync(partial, file);
}

/** Rows per table of a database as it is now (after a restore: to compare with the copy's counts). */
export async function countRows(target: DatabaseTarget): Promise<Record<string, number>> {
  if (target.databaseUrl) {
    const client = ownPostgresClient({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      return await countTables('postgres', async (text) => (await client.query(text)).rows);
    } finally {
      await client.end();
    }
  }
  const db = new SQLite(sqliteFileOf(target.dataDir), { readonly: true, fileMustExist: true });
  try {
    return await countTables('sqlite', async (text) => db.prepare(text).all() as Record<string, unknown>[]);
  } finally {
    db.close();
  }
}

async function countTables(dialect: Dialect, query: SnapshotQuery): Promise<Record<string, number>> {
  const names = (
    await query(
      dialect === 'sqlite'
        ? `select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`
        : `select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
    )
  ).map((r) => String(r.name));
  const counts: Record<string, number> = {};
  for (const name of names) {
    // The names come from the catalogue; quoted as identifiers all the same.
    const rows = await query(`select count(*) as n from "${name.replace(/"/g, '""')}"`);
    counts[name] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}

async function postgresTables(url: string): Promise<string[]> {
  const client = ownPostgresClient({ connectionString: url });
  await client.connect();
  try {
    const rows = await client.query<{ name: string }>(
      `select tablename as name from pg_tables where schemaname = 'public'`,
    );
    return rows.rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

/**
 * Runs pg_dump or pg_restore against DATABASE_URL. The password travels in PGPASSWORD, never on the
 * command line (where `ps` shows it). Debian's /usr/bin wrapper picks the newest installed version.
 */
async function pgTool(tool: 'pg_dump' | 'pg_restore', url: string, args: string[]): Promise<void> {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  try {
    await run(tool, [...args, `--dbname=${parsed.toString()}`], {
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') {
      throw new BackupError(
        `No se encontró ${tool}: instala el cliente de PostgreSQL (apt-get install postgresql-client).`,
      );
    }
    throw new BackupError(`${tool} falló: ${(e.stderr ?? e.message).trim().replaceAll(password || '\0', '***')}`);
  }
}
