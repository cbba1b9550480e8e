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
 * tables given (outside any transaction; it locks each table while it is rewritten), once analysed again
 * and once older transactions have ended, and of the planner's statistics.
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

/**
 * Whether nothing freed before can have been kept: false when SQLite's WAL could not be emptied (a
 * reader held it past the busy timeout), or when PostgreSQL still had a transaction that began before
 * the rewrite open after `wait` (VACUUM FULL copies every old row version such a transaction might still
 * see: it was rewritten anyway, the old versions included), or when the role is not the database's owner
 * (the planner's statistics could not be rewritten). Said: run again (as the owner), it finishes.
 */
export interface Rewritten {
  complete: boolean;
}

/** How long PostgreSQL's rewrite waits for the transactions begun before it: `attempts` looks, `pauseMs` apart. */
export interface RewriteWait {
  attempts: number;
  pauseMs: number;
}

/** About ten seconds: after the close, what is still running is a request or two. */
const REWRITE_WAIT: RewriteWait = { attempts: 100, pauseMs: 100 };

export async function rewriteFiles(
  db: Kysely<Database>,
  tables: readonly (keyof Database)[],
  wait: RewriteWait = REWRITE_WAIT,
): Promise<Rewritten> {
  if (isPostgres(db)) {
    // The planner's statistics (pg_statistic, written by every ANALYZE and autovacuum's) keep sample
    // values of each column, names and phones among them: analysed again, they hold what is left now.
    for (const table of tables) await sql`analyze ${sql.table(table)}`.execute(db);
    // VACUUM FULL keeps a row version that any transaction might still see ("recently dead"): its own
    // snapshot counts, and that snapshot's horizon is the oldest transaction still running anywhere in the
    // cluster, in any database. So an erasure committed while another transaction was open would be
    // copied, old names included, into the new file. First every transaction begun before now must end.
    const ended = await olderTransactionsEnded(db, wait);
    // One statement per table: VACUUM FULL takes its lock table by table, never all at once.
    for (const table of tables) await sql`vacuum full ${sql.table(table)}`.execute(db);
    // The statistics' old rows go with a rewrite of the catalogue's table, which only the database's
    // owner (or a superuser) may do: anyone else's VACUUM skips it with a warning, so it is asked first.
    const { rows } = await sql<{ owner: boolean }>`
      select pg_has_role(current_user, datdba, 'MEMBER') as owner from pg_database
      where datname = current_database()`.execute(db);
    const owner = rows[0]?.owner === true;
    if (owner) await sql`vacuum full pg_catalog.pg_statistic`.execute(db);
    return { complete: ended && owner };
  }
  await sql`vacuum`.execute(db);
  const { rows } = await sql<{ busy: number }>`pragma wal_checkpoint(truncate)`.execute(db);
  return { complete: rows[0]?.busy === 0 };
}

/**
 * Waits until no transaction that began before this call is still running in the cluster, nor holds a
 * snapshot in this database (nor, through a standby's feedback, in all of them): from then on, the
 * oldest row version any snapshot may see is one written after the erasure that came before.
 */
async function olderTransactionsEnded(db: Kysely<Database>, wait: RewriteWait): Promise<boolean> {
  // Every transaction id below this one had been given out when the erasure before had committed.
  const { rows } = await sql<{ mark: string }>`
    select pg_snapshot_xmax(pg_current_snapshot())::text as mark`.execute(db);
  const mark = rows[0]?.mark as string;
  const low = (BigInt(mark) % 2n ** 32n).toString();
  for (let attempt = 1; ; attempt++) {
    const { rows: state } = await sql<{ clear: boolean }>`
      select pg_snapshot_xmin(pg_current_snapshot()) >= ${mark}::xid8
        and not exists (
          select 1 from pg_stat_activity
          where (datname = current_database() or datname is null) and pid <> pg_backend_pid()
            and backend_xmin is not null and age(backend_xmin) > age(${low}::xid))
        and not exists (
          select 1 from pg_replication_slots where xmin is not null and age(xmin) > age(${low}::xid)) as clear`.execute(
      db,
    );
    if (state[0]?.clear) return true;
    if (attempt >= wait.attempts) return false;
    await new Promise((resolve) => setTimeout(resolve, wait.pauseMs));
  }
}

function isPostgres(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
