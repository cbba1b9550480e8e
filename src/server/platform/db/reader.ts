import type { Kysely } from 'kysely';
import type { Database } from './schema';

/*
 * Reads that must not wait for the writer. SQLite has one connection for the app: while a transaction
 * holds it (a batch of votes, its flush to disk included), every other query waits for its commit. A
 * read that only needs what is committed (is this Idempotency-Key's answer already stored?) may ask a
 * second connection instead: in WAL mode readers never wait for the writer. On PostgreSQL every query
 * already has a connection of the pool: the reader is the database itself.
 */

const readers = new WeakMap<Kysely<Database>, () => Kysely<Database>>();

/** Registers the reader of a database, opened at its first use. */
export function registerReader(db: Kysely<Database>, open: () => Kysely<Database>): void {
  let reader: Kysely<Database> | undefined;
  readers.set(db, () => {
    reader ??= open();
    return reader;
  });
}

/**
 * Where to read committed rows of `db` without waiting for its writer: its reader, or `db` itself (an
 * open transaction reads its own writes; PostgreSQL needs none).
 */
export function readerOf(db: Kysely<Database>): Kysely<Database> {
  if (db.isTransaction) return db;
  return readers.get(db)?.() ?? db;
}
