import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Database } from './schema';

/**
 * What a deletion leaves in the database's own files (decision 093). A row rewritten or deleted is not
 * gone from the disk: SQLite keeps its old bytes in the page's free space, on free pages and in the
 * WAL until a checkpoint; PostgreSQL keeps the old tuple in the table's file until its space is reused.
 * `withSecureDelete` runs an erasure with SQLite's secure_delete on (freed bytes are overwritten with
 * zeros as they are freed); `rewriteFiles` then rewrites the files after it has committed, so what was
 * freed before (an edited name, an expired kept answer) goes too and a backup taken afterwards holds
 * none of it: SQLite's VACUUM and a TRUNCATE checkpoint of the WAL, PostgreSQL's VACUUM FULL of the
 * tables given (outside any transaction; it locks each table while it is rewritten).
 * Neither reaches PostgreSQL's WAL segments already written, nor backups taken before (README).
 */
export async function withSecureDelete<T>(db: Kysely<Database>, erase: () => Promise<T>): Promise<T> {
  if (isPostgres(db)) return erase();
  await sql`pragma secure_delete = on`.execute(db);
  try {
    return await erase();
  } finally {
    await sql`pragma secure_delete = off`.execute(db);
  }
}

/** Whether the WAL could be emptied: false when a reader held it past the busy timeout (rare; said). */
export interface Rewritten {
  walEmptied: boolean;
}

export async function rewriteFiles(db: Kysely<Database>, tables: readonly (keyof Database)[]): Promise<Rewritten> {
  if (isPostgres(db)) {
    // One statement per table: VACUUM FULL takes its lock table by table, never all at once.
    for (const table of tables) await sql`vacuum full ${sql.table(table)}`.execute(db);
    return { walEmptied: true };
  }
  await sql`vacuum`.execute(db);
  const { rows } = await sql<{ busy: number }>`pragma wal_checkpoint(truncate)`.execute(db);
  return { walEmptied: rows[0]?.busy === 0 };
}

function isPostgres(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
