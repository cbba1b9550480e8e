import { sql } from 'kysely';
import type { Db } from '#server/platform/db/database';
import type { CopyState } from '#shared/features/election/election';
import { createCopiesRepository } from './copies.repository';
import { createLagTracker, type PositionSample } from './copy-lag';
import { createSecuredTracker } from './copy-secured';
import type { Litestream } from './litestream';

/*
 * What Jornada and /metrics say about the off-machine copy (decision 106): Litestream's replica on
 * SQLite, a streaming standby on PostgreSQL, and when neither runs, the last whole backup
 * (`npm run cli -- backup`). Looked at every `everyMs` and at each read.
 */

export interface CopyWatch {
  state(): Promise<CopyState>;
  /**
   * What phones call 'Asegurado' (decision 135): items stored before this instant are in the copy. Null
   * with no copy at all. It is the copy's secured point less COMMIT_MARGIN_MS: an item's time is taken
   * inside its transaction, which commits a moment later.
   */
  securedBefore(): Promise<{ kind: CopyState['kind']; before: Date | null }>;
  stop(): void;
}

/** How long after its stored time an item's transaction may still commit (a batch, a wait for the lock). */
export const COMMIT_MARGIN_MS = 10_000;

/** PostgreSQL: the primary's WAL position and the furthest a standby has replayed (none: no standby). */
async function standbyPositions(db: Db): Promise<PositionSample | undefined> {
  try {
    const { rows } = await sql<{ local: string; copy: string | null }>`
      select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text as local,
             (select max(pg_wal_lsn_diff(replay_lsn, '0/0')) from pg_stat_replication)::text as copy`.execute(
      db.kysely,
    );
    const row = rows[0];
    if (!row) return undefined;
    return { local: [BigInt(row.local)], copy: row.copy === null ? undefined : [BigInt(row.copy)] };
  } catch {
    return undefined;
  }
}

export function createCopyWatch(options: {
  db: Db;
  now: () => Date;
  litestream?: Litestream;
  everyMs?: number;
}): CopyWatch {
  const { db, now, litestream } = options;
  const tracker = createLagTracker(now());
  const secured = createSecuredTracker();
  let standbySeen = false;
  let backupAt: string | null = null;

  async function look(): Promise<void> {
    if (litestream) {
      const at = now();
      const sample = await litestream.positions();
      tracker.observe(at, sample);
      secured.observe(at, sample);
    } else if (db.dialect === 'postgres') {
      const at = now();
      const sample = await standbyPositions(db);
      if (sample?.copy) standbySeen = true;
      if (standbySeen) {
        tracker.observe(at, sample);
        secured.observe(at, sample);
      }
    }
  }
  // Looked at in the background only where there is a copy to follow: Litestream, or a standby once
  // one was seen; otherwise at each read (Jornada, a scrape), so a server without a copy asks nothing.
  const following = () => litestream !== undefined || standbySeen;

  let looking: Promise<void> | undefined;
  const lookOnce = () => {
    looking ??= look().finally(() => {
      looking = undefined;
    });
    return looking;
  };
  const timer = setInterval(() => {
    if (following()) void lookOnce();
  }, options.everyMs ?? 2_000);
  timer.unref();

  async function state(): Promise<CopyState> {
    await lookOnce();
    const at = now();
    if (litestream || standbySeen) {
      return {
        kind: litestream ? 'litestream' : 'standby',
        lagSeconds: Math.round(tracker.lagSeconds(at)),
        answering: tracker.copyAnswered,
        checkedAt: at.toISOString(),
      };
    }
    // The database away (a restart of PostgreSQL): the last answer it gave stands.
    try {
      backupAt = await createCopiesRepository(db.kysely).lastWholeBackupAt();
    } catch {
      // kept as it was
    }
    return {
      kind: backupAt ? 'backup' : 'none',
      lagSeconds: backupAt ? Math.max(0, Math.round((at.getTime() - Date.parse(backupAt)) / 1000)) : null,
      answering: false,
      checkedAt: at.toISOString(),
    };
  }

  return {
    state,
    async securedBefore() {
      const less = (point: Date | null) => point && new Date(point.getTime() - COMMIT_MARGIN_MS);
      // A copy followed in the background: its last look is enough (phones ask often, looks are every 2 s).
      if (following()) return { kind: litestream ? 'litestream' : 'standby', before: less(secured.securedUntil) };
      const copy = await state();
      return { kind: copy.kind, before: less(copy.kind === 'backup' && backupAt ? new Date(backupAt) : null) };
    },
    stop() {
      clearInterval(timer);
    },
  };
}
